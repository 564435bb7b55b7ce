// Sv39 page tables (hal/riscv/sv39.hpp) over a fake physical memory.
#include <gtest/gtest.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "hal/riscv/sv39.hpp"

namespace {
using namespace nvx;
using namespace nvx::riscv::sv39;

// Physical memory for page tables: `pages` 4 KiB pages starting at kBase. allocate()
// hands them out in order (zeroed) until the pool or the optional limit runs out.
class FakeMemory {
public:
    static constexpr u64 kBase = 0x80200000;

    explicit FakeMemory(size_t pages) : pages_(pages) {}

    Pte* table(u64 phys) {
        if (phys < kBase || (phys - kBase) % kPageSize != 0 || (phys - kBase) / kPageSize >= next_)
            throw std::out_of_range("table() of a page that was never allocated: " + std::to_string(phys));
        table_calls_++;
        return pages_[(phys - kBase) / kPageSize].pte;
    }

    u64 allocate() {
        if (next_ == pages_.size() || next_ == limit_) return 0;
        std::memset(pages_[next_].pte, 0, sizeof pages_[next_].pte);
        return kBase + kPageSize * next_++;
    }

    size_t allocated() const { return next_; }
    void set_limit(size_t pages) { limit_ = pages; }
    size_t table_calls() const { return table_calls_; }

private:
    struct alignas(4096) Page {
        Pte pte[kEntriesPerTable];
    };
    static_assert(sizeof(Page) == kPageSize);

    std::vector<Page> pages_;
    size_t next_ = 0;
    size_t limit_ = ~size_t{0};
    size_t table_calls_ = 0;
};

// ---------------------------------------------------------------- free helpers

TEST(Sv39Helpers, Vpn) {
    u64 va = (3ull << 30) | (5ull << 21) | (7ull << 12) | 0x123;
    EXPECT_EQ(vpn(va, 2), 3u);
    EXPECT_EQ(vpn(va, 1), 5u);
    EXPECT_EQ(vpn(va, 0), 7u);
    EXPECT_EQ(vpn(0x7fffffffffull, 2), 0x1ffu);
    EXPECT_EQ(vpn(0x7fffffffffull, 1), 0x1ffu);
    EXPECT_EQ(vpn(0x7fffffffffull, 0), 0x1ffu);
    // The kernel's high windows sit in the last root entries.
    EXPECT_EQ(vpn(0xffffffffc0000000ull, 2), 0x1ffu);
    EXPECT_EQ(vpn(0xffffffffc0000000ull, 1), 0u);
    EXPECT_EQ(vpn(0xffffffff80000000ull, 2), 0x1feu);
    EXPECT_EQ(vpn(0xfff, 0), 0u);
    EXPECT_EQ(vpn(0x1000, 0), 1u);
}

TEST(Sv39Helpers, MakePteAndPtePhys) {
    EXPECT_EQ(make_pte(0x80201000, kValid | kRead), 0x20080403u);
    EXPECT_EQ(pte_phys(0x20080403), 0x80201000u);
    for (u64 phys : {u64{0}, u64{0x1000}, u64{0x80000000}, u64{0x80201000}, u64{0xfffffffff000}}) {
        for (u64 flags : {u64{0}, kValid, kValid | kRead | kWrite | kExec | kUser | kAccessed | kDirty}) {
            Pte pte = make_pte(phys, flags);
            EXPECT_EQ(pte_phys(pte), phys) << std::hex << phys;
            EXPECT_EQ(pte & 0x3ff, flags) << std::hex << phys;
        }
    }
    // The page offset is not part of a PTE.
    EXPECT_EQ(pte_phys(make_pte(0x80201abc, kValid)), 0x80201000u);
}

TEST(Sv39Helpers, FlagBitsMatchTheSpec) {
    EXPECT_EQ(kValid, 1u);
    EXPECT_EQ(kRead, 2u);
    EXPECT_EQ(kWrite, 4u);
    EXPECT_EQ(kExec, 8u);
    EXPECT_EQ(kUser, 16u);
    EXPECT_EQ(kGlobal, 32u);
    EXPECT_EQ(kAccessed, 64u);
    EXPECT_EQ(kDirty, 128u);
}

TEST(Sv39Helpers, IsLeaf) {
    EXPECT_FALSE(is_leaf(0));
    EXPECT_FALSE(is_leaf(kValid));
    EXPECT_FALSE(is_leaf(kValid | kUser | kAccessed | kDirty | kGlobal));
    EXPECT_TRUE(is_leaf(kValid | kRead));
    EXPECT_TRUE(is_leaf(kValid | kExec));
    EXPECT_TRUE(is_leaf(kValid | kRead | kWrite));
}

TEST(Sv39Helpers, MakeSatp) {
    EXPECT_EQ(make_satp(0x80400000), (8ull << 60) | 0x80400u);
    EXPECT_EQ(make_satp(0) >> 60, 8u);
}

TEST(Sv39Helpers, IsCanonical) {
    EXPECT_TRUE(is_canonical(0));
    EXPECT_TRUE(is_canonical(0x10000));
    EXPECT_TRUE(is_canonical((1ull << 38) - 1));
    EXPECT_FALSE(is_canonical(1ull << 38));
    EXPECT_FALSE(is_canonical(0x7fffffffffull));  // bit 38 set but not sign-extended
    EXPECT_FALSE(is_canonical(0x0000800000000000ull));
    EXPECT_FALSE(is_canonical(0x8000000000000000ull));
    EXPECT_FALSE(is_canonical(0xffffffbfffffffffull));
    EXPECT_TRUE(is_canonical(0xffffffc000000000ull));
    EXPECT_TRUE(is_canonical(0xffffffff80000000ull));
    EXPECT_TRUE(is_canonical(0xffffffffc0000000ull));
    EXPECT_TRUE(is_canonical(~0ull));
}

// ---------------------------------------------------------------- PageTable

class Sv39Table : public ::testing::Test {
protected:
    explicit Sv39Table(size_t pages = 64) : memory_(pages) {}
    void SetUp() override {
        root_ = memory_.allocate();
        ASSERT_NE(root_, 0u);
    }
    PageTable<FakeMemory> table() { return PageTable<FakeMemory>(memory_, root_); }

    // A walk done by hand, the way the MMU does it.
    Pte hardware_walk(u64 va) {
        u64 t = root_;
        for (int level = 2; level >= 0; level--) {
            Pte pte = memory_.table(t)[vpn(va, level)];
            if (!(pte & kValid)) return 0;
            if (is_leaf(pte)) return level == 0 ? pte : 0;
            t = pte_phys(pte);
        }
        return 0;
    }

    FakeMemory memory_;
    u64 root_ = 0;
    static constexpr u64 kPhys = 0x90000000;  // data pages: never touched by the table
};

TEST_F(Sv39Table, RootIsReported) {
    auto t = table();
    EXPECT_EQ(t.root(), root_);
    EXPECT_EQ(make_satp(t.root()), kSatpModeSv39 | (root_ >> 12));
}

TEST_F(Sv39Table, MapThenTranslate) {
    auto t = table();
    ASSERT_TRUE(t.map(0x10000, kPhys, kRead | kWrite | kUser));
    EXPECT_EQ(t.translate(0x10000, kRead), kPhys);
    EXPECT_EQ(t.translate(0x10000, 0), kPhys);
    EXPECT_EQ(t.translate(0x10123, kRead | kWrite | kUser), kPhys + 0x123);
    EXPECT_EQ(t.translate(0x10fff, kRead | kUser | kValid), kPhys + 0xfff);
    // Neighbouring pages are not mapped.
    EXPECT_EQ(t.translate(0x11000, 0), 0u);
    EXPECT_EQ(t.translate(0x0f000, 0), 0u);
    EXPECT_EQ(t.translate(0x0ffff, 0), 0u);
}

TEST_F(Sv39Table, LeafPteCarriesFlagsAndAccessedDirty) {
    auto t = table();
    ASSERT_TRUE(t.map(0x20000, kPhys, kRead | kExec | kUser));
    Pte pte = t.lookup(0x20000);
    EXPECT_EQ(pte_phys(pte), kPhys);
    EXPECT_EQ(pte & 0x3ff, kValid | kRead | kExec | kUser | kAccessed | kDirty);
    EXPECT_EQ(t.lookup(0x20abc), pte);  // any address in the page
}

TEST_F(Sv39Table, TranslateChecksPermissions) {
    auto t = table();
    ASSERT_TRUE(t.map(0x10000, kPhys, kRead | kUser));
    ASSERT_TRUE(t.map(0x11000, kPhys + 0x1000, kRead | kWrite));  // kernel-only
    ASSERT_TRUE(t.map(0x12000, kPhys + 0x2000, kExec | kUser));
    EXPECT_EQ(t.translate(0x10000, kRead | kUser), kPhys);
    EXPECT_EQ(t.translate(0x10000, kWrite), 0u);
    EXPECT_EQ(t.translate(0x10000, kExec), 0u);
    EXPECT_EQ(t.translate(0x10000, kRead | kWrite | kUser), 0u);
    EXPECT_EQ(t.translate(0x11000, kRead | kWrite), kPhys + 0x1000);
    EXPECT_EQ(t.translate(0x11000, kUser), 0u);
    EXPECT_EQ(t.translate(0x12000, kExec | kUser), kPhys + 0x2000);
    EXPECT_EQ(t.translate(0x12000, kRead), 0u);
}

TEST_F(Sv39Table, BuildsThreeLevelsLikeTheHardware) {
    auto t = table();
    const u64 va = (2ull << 30) | (3ull << 21) | (4ull << 12);
    ASSERT_TRUE(t.map(va, kPhys, kRead | kWrite));
    EXPECT_EQ(memory_.allocated(), 3u);  // root + one level-1 + one level-0 table
    Pte top = memory_.table(root_)[2];
    EXPECT_EQ(top & 0x3ff, kValid);  // pointer PTE: V only (no R/W/X, no U)
    Pte mid = memory_.table(pte_phys(top))[3];
    EXPECT_EQ(mid & 0x3ff, kValid);
    Pte leaf = memory_.table(pte_phys(mid))[4];
    EXPECT_EQ(leaf, t.lookup(va));
    EXPECT_EQ(hardware_walk(va), t.lookup(va));
    EXPECT_EQ(pte_phys(hardware_walk(va)), kPhys);
}

TEST_F(Sv39Table, IntermediateTablesAreShared) {
    auto t = table();
    ASSERT_TRUE(t.map(0x400000, kPhys, kRead));
    EXPECT_EQ(memory_.allocated(), 3u);
    ASSERT_TRUE(t.map(0x401000, kPhys + 0x1000, kRead));  // same 2 MiB: no new table
    EXPECT_EQ(memory_.allocated(), 3u);
    ASSERT_TRUE(t.map(0x600000, kPhys + 0x2000, kRead));  // next 2 MiB: a new level-0 table
    EXPECT_EQ(memory_.allocated(), 4u);
    ASSERT_TRUE(t.map(0x40000000, kPhys + 0x3000, kRead));  // next 1 GiB: level 1 and 0
    EXPECT_EQ(memory_.allocated(), 6u);
    EXPECT_EQ(t.translate(0x400000, kRead), kPhys);
    EXPECT_EQ(t.translate(0x401000, kRead), kPhys + 0x1000);
    EXPECT_EQ(t.translate(0x600000, kRead), kPhys + 0x2000);
    EXPECT_EQ(t.translate(0x40000000, kRead), kPhys + 0x3000);
}

TEST_F(Sv39Table, ManyPagesRoundTrip) {
    auto t = table();
    const u64 base = 0x400000;  // 1024 pages = 4 MiB = two level-0 tables
    for (u64 i = 0; i < 1024; i++) ASSERT_TRUE(t.map(base + i * kPageSize, kPhys + i * kPageSize, kRead | kUser)) << i;
    EXPECT_EQ(memory_.allocated(), 4u);
    for (u64 i = 0; i < 1024; i++) {
        ASSERT_EQ(t.translate(base + i * kPageSize + 8, kRead | kUser), kPhys + i * kPageSize + 8) << i;
        ASSERT_EQ(pte_phys(hardware_walk(base + i * kPageSize)), kPhys + i * kPageSize) << i;
    }
    for (u64 i = 0; i < 1024; i += 2) ASSERT_EQ(t.unmap(base + i * kPageSize), kPhys + i * kPageSize) << i;
    for (u64 i = 0; i < 1024; i++)
        ASSERT_EQ(t.translate(base + i * kPageSize, kRead), i % 2 ? kPhys + i * kPageSize : 0) << i;
}

TEST_F(Sv39Table, HighKernelAddressesMap) {
    auto t = table();
    const u64 kernel = 0xffffffffc0000000ull, program = 0xffffffff80000000ull;
    ASSERT_TRUE(t.map(kernel, 0x80800000, kRead | kWrite | kGlobal));
    ASSERT_TRUE(t.map(program, 0x80400000, kRead | kGlobal));
    EXPECT_EQ(t.translate(kernel + 0x10, kRead | kWrite), 0x80800010u);
    EXPECT_EQ(t.translate(program, kRead), 0x80400000u);
    EXPECT_NE(memory_.table(root_)[511] & kValid, 0u);
    EXPECT_NE(memory_.table(root_)[510] & kValid, 0u);
    EXPECT_EQ(hardware_walk(kernel), t.lookup(kernel));
}

TEST_F(Sv39Table, UnmapReturnsThePhysicalPage) {
    auto t = table();
    ASSERT_TRUE(t.map(0x10000, kPhys, kRead | kWrite));
    EXPECT_EQ(t.unmap(0x10000), kPhys);
    EXPECT_EQ(t.translate(0x10000, 0), 0u);
    EXPECT_EQ(t.lookup(0x10000), 0u);
    EXPECT_EQ(t.unmap(0x10000), 0u);  // already gone
    // Remapping the same page (to another frame) works.
    ASSERT_TRUE(t.map(0x10000, kPhys + 0x5000, kRead));
    EXPECT_EQ(t.translate(0x10000, kRead), kPhys + 0x5000);
}

TEST_F(Sv39Table, UnmapOfUnmappedAddresses) {
    auto t = table();
    EXPECT_EQ(t.unmap(0x10000), 0u);  // nothing at all yet
    EXPECT_EQ(memory_.allocated(), 1u);  // unmap never allocates
    ASSERT_TRUE(t.map(0x10000, kPhys, kRead));
    EXPECT_EQ(t.unmap(0x11000), 0u);  // same level-0 table, empty slot
    EXPECT_EQ(t.unmap(0x40000000), 0u);  // no table for this gigabyte
    EXPECT_EQ(t.unmap(1ull << 38), 0u);  // not canonical
    EXPECT_EQ(t.translate(0x10000, kRead), kPhys);
}

TEST_F(Sv39Table, LookupNeverAllocates) {
    auto t = table();
    EXPECT_EQ(t.lookup(0x10000), 0u);
    EXPECT_EQ(t.translate(0x12345678, 0), 0u);
    EXPECT_EQ(memory_.allocated(), 1u);
}

TEST_F(Sv39Table, RejectsDoubleMap) {
    auto t = table();
    ASSERT_TRUE(t.map(0x10000, kPhys, kRead));
    EXPECT_FALSE(t.map(0x10000, kPhys + 0x1000, kRead | kWrite));
    EXPECT_FALSE(t.map(0x10000, kPhys, kRead));
    EXPECT_EQ(t.translate(0x10000, kRead), kPhys);
    EXPECT_EQ(t.translate(0x10000, kWrite), 0u);
}

TEST_F(Sv39Table, RejectsMisalignedAddresses) {
    auto t = table();
    EXPECT_FALSE(t.map(0x10001, kPhys, kRead));
    EXPECT_FALSE(t.map(0x10800, kPhys, kRead));
    EXPECT_FALSE(t.map(0x10000, kPhys + 4, kRead));
    EXPECT_FALSE(t.map(0x10000, kPhys + 0x800, kRead));
    EXPECT_EQ(memory_.allocated(), 1u);  // rejected before touching the table
    EXPECT_EQ(t.translate(0x10000, 0), 0u);
}

TEST_F(Sv39Table, RejectsNonCanonicalAddresses) {
    auto t = table();
    EXPECT_FALSE(t.map(1ull << 38, kPhys, kRead));
    EXPECT_FALSE(t.map(0x0000800000000000ull, kPhys, kRead));
    EXPECT_FALSE(t.map(0xffffffbffffff000ull, kPhys, kRead));
    EXPECT_FALSE(t.map(0x8000000000000000ull, kPhys, kRead));
    EXPECT_EQ(memory_.allocated(), 1u);
    EXPECT_EQ(t.translate(1ull << 38, 0), 0u);
    EXPECT_EQ(t.lookup(0x8000000000010000ull), 0u);
}

TEST_F(Sv39Table, NonCanonicalAliasDoesNotReachALowMapping) {
    auto t = table();
    ASSERT_TRUE(t.map(0x10000, kPhys, kRead));
    // Same low 39 bits, garbage above: must not translate to the low mapping.
    EXPECT_EQ(t.translate(0x0100000000010000ull, kRead), 0u);
    EXPECT_EQ(t.translate(0xffff000000010000ull, kRead), 0u);
}

TEST_F(Sv39Table, RejectsFlagsWithoutAnyLeafPermission) {
    auto t = table();
    EXPECT_FALSE(t.map(0x10000, kPhys, 0));
    EXPECT_FALSE(t.map(0x10000, kPhys, kUser));
    EXPECT_FALSE(t.map(0x10000, kPhys, kValid | kGlobal));
    EXPECT_EQ(t.translate(0x10000, 0), 0u);
}

TEST_F(Sv39Table, HugePageLeafIsNotWalkedThrough) {
    auto t = table();
    // A 1 GiB leaf in the root for [0x40000000, 0x80000000).
    memory_.table(root_)[1] = make_pte(0xc0000000, kValid | kRead | kWrite);
    EXPECT_FALSE(t.map(0x40001000, kPhys, kRead));
    EXPECT_EQ(t.lookup(0x40001000), 0u);
    EXPECT_EQ(t.translate(0x40001000, 0), 0u);
    EXPECT_EQ(t.unmap(0x40001000), 0u);
    EXPECT_EQ(memory_.table(root_)[1], make_pte(0xc0000000, kValid | kRead | kWrite));  // untouched
    EXPECT_EQ(memory_.allocated(), 1u);
}

class Sv39TinyMemory : public Sv39Table {
protected:
    Sv39TinyMemory() : Sv39Table(3) {}
};

TEST_F(Sv39TinyMemory, AllocationFailureMakesMapFail) {
    auto t = table();
    memory_.set_limit(1);  // only the root: no level-1 table possible
    EXPECT_FALSE(t.map(0x10000, kPhys, kRead));
    EXPECT_EQ(t.translate(0x10000, 0), 0u);
    EXPECT_EQ(memory_.table(root_)[0], 0u);  // nothing half-linked in the root

    memory_.set_limit(2);  // level 1 fits, level 0 does not
    EXPECT_FALSE(t.map(0x10000, kPhys, kRead));
    EXPECT_EQ(t.translate(0x10000, 0), 0u);
    EXPECT_EQ(t.lookup(0x10000), 0u);

    memory_.set_limit(3);  // now the walk can finish, reusing the level-1 table
    EXPECT_TRUE(t.map(0x10000, kPhys, kRead));
    EXPECT_EQ(t.translate(0x10000, kRead), kPhys);
    EXPECT_EQ(memory_.allocated(), 3u);
    EXPECT_EQ(hardware_walk(0x10000), t.lookup(0x10000));
}

TEST_F(Sv39TinyMemory, ExhaustedPoolStillMapsIntoExistingTables) {
    auto t = table();
    ASSERT_TRUE(t.map(0x10000, kPhys, kRead));
    EXPECT_EQ(memory_.allocate(), 0u);  // the pool is empty now
    EXPECT_TRUE(t.map(0x11000, kPhys + 0x1000, kRead));       // same level-0 table
    EXPECT_FALSE(t.map(0x40000000, kPhys + 0x2000, kRead));  // needs new tables
    EXPECT_EQ(t.translate(0x11000, kRead), kPhys + 0x1000);
    EXPECT_EQ(t.translate(0x40000000, 0), 0u);
}
}  // namespace
