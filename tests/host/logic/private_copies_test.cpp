// Rank-private copies of the private region (kernel/mm/private_copies.hpp) over a fake
// physical memory: what each root translates, what the copies share, what failure frees.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <memory>
#include <set>

#include "kernel/mm/private_copies.hpp"

namespace {
using namespace nvx;
using namespace nvx::riscv::sv39;
namespace pc = nvx::kernel::private_copies;

// Pages handed out from kBase upwards, each a real 4 KiB buffer; release() gives one back
// and a page used after its release is caught.
class FakeMemory {
public:
    static constexpr u64 kBase = 0x80200000;

    Pte* table(u64 phys) {
        auto it = pages_.find(phys);
        if (it == pages_.end()) ADD_FAILURE() << "table() of a page not allocated: " << std::hex << phys;
        return it == pages_.end() ? scratch_ : reinterpret_cast<Pte*>(it->second.get());
    }
    u64 allocate() {
        if (limit_ != 0 && pages_.size() >= limit_) return 0;
        u64 phys = kBase + kPageSize * next_++;
        pages_[phys] = std::make_unique<u8[]>(kPageSize);
        std::memset(pages_[phys].get(), 0, kPageSize);
        return phys;
    }
    void release(u64 phys) {
        if (pages_.erase(phys) != 1) ADD_FAILURE() << "release() of a page not allocated: " << std::hex << phys;
    }
    u8* bytes(u64 phys) { return reinterpret_cast<u8*>(table(phys)); }
    size_t live() const { return pages_.size(); }
    void set_limit(size_t pages) { limit_ = pages; }

private:
    std::map<u64, std::unique_ptr<u8[]>> pages_;
    u64 next_ = 0;
    size_t limit_ = 0;
    Pte scratch_[kEntriesPerTable] = {};
};

constexpr u64 kText = 0x10000, kHeap = 0x20000;
constexpr u64 kPrivate = NVX_USER_PRIVATE_BASE;
constexpr u64 kUserRW = kRead | kWrite | kUser;

// A program root like the kernel's after exec: text and heap in slot 0, three private
// pages (the first two with data) in slot 1, and the kernel's half.
struct Program {
    FakeMemory memory;
    u64 root = 0;
    u64 text = 0;

    Program() {
        root = memory.allocate();
        PageTable<FakeMemory> t(memory, root);
        text = memory.allocate();
        EXPECT_TRUE(t.map(kText, text, kRead | kExec | kUser));
        EXPECT_TRUE(t.map(kHeap, memory.allocate(), kUserRW));
        for (u64 i = 0; i < 3; i++) {
            u64 page = memory.allocate();
            EXPECT_TRUE(t.map(kPrivate + i * kPageSize, page, kUserRW));
            if (i < 2) std::memset(memory.bytes(page), 0x40 + static_cast<int>(i), kPageSize);
        }
        memory.table(root)[300] = make_pte(memory.allocate(), kValid);  // a kernel-half table
        memory.table(root)[pc::kFirstSharedSlot] = memory.table(root)[pc::kPrivateSlot];  // copy 0
    }
    u64 translate(u64 r, u64 va) { return PageTable<FakeMemory>(memory, r).translate(va, kUser); }
    // A copy of the whole region (0 on failure); *pages as make_copy counts them.
    u64 copy(u64* pages) { return pc::Builder<FakeMemory>(memory).make_copy(root, 3 * kPageSize, pages); }
};

TEST(PrivateCopies, AddressArithmetic) {
    EXPECT_TRUE(pc::in_private_region(kPrivate));
    EXPECT_TRUE(pc::in_private_region(kPrivate + NVX_USER_PRIVATE_MAX - 1));
    EXPECT_FALSE(pc::in_private_region(kPrivate - 1));
    EXPECT_FALSE(pc::in_private_region(kPrivate + NVX_USER_PRIVATE_MAX));
    EXPECT_FALSE(pc::in_private_region(0));
    EXPECT_EQ(pc::shared_base(0), NVX_USER_PRIVATE_SHARED);
    EXPECT_EQ(pc::shared_base(3), NVX_USER_PRIVATE_SHARED + 3 * (1ull << 30));
    EXPECT_EQ(pc::to_shared(2, kPrivate + 0x123), pc::shared_base(2) + 0x123);
    EXPECT_EQ(pc::to_shared(2, kHeap), kHeap);                    // shared addresses stay
    EXPECT_EQ(pc::to_shared(0, kPrivate + 8), pc::shared_base(0) + 8);
    EXPECT_LT(pc::shared_base(NVX_USER_PRIVATE_COPIES - 1), 1ull << 38);  // still user space
}

TEST(PrivateCopies, ACopyHasItsOwnPagesWithTheSameBytes) {
    Program p;
    pc::Builder<FakeMemory> b(p.memory);
    u64 pages = 0;
    u64 copy = p.copy(&pages);
    ASSERT_NE(copy, 0u);
    EXPECT_EQ(pages, 3u);
    for (u64 i = 0; i < 3; i++) {
        u64 va = kPrivate + i * kPageSize;
        u64 mine = p.translate(copy, va), program = p.translate(p.root, va);
        ASSERT_NE(mine, 0u);
        EXPECT_NE(mine, program);
        EXPECT_EQ(std::memcmp(p.memory.bytes(mine), p.memory.bytes(program), kPageSize), 0) << i;
    }
    // A write to the copy does not show in the program's pages.
    p.memory.bytes(p.translate(copy, kPrivate))[0] = 0x7f;
    EXPECT_EQ(p.memory.bytes(p.translate(p.root, kPrivate))[0], 0x40);
    // Everything else is the program's: same pages, same kernel half.
    EXPECT_EQ(p.translate(copy, kText), p.text);
    EXPECT_EQ(p.translate(copy, kHeap), p.translate(p.root, kHeap));
    EXPECT_EQ(p.memory.table(copy)[300], p.memory.table(p.root)[300]);
    // The permissions come along.
    EXPECT_EQ(PageTable<FakeMemory>(p.memory, copy).lookup(kPrivate) & (kLeafBits | kUser), kUserRW);
}

TEST(PrivateCopies, EveryRootReachesEveryCopyAtItsSharedSlot) {
    Program p;
    pc::Builder<FakeMemory> b(p.memory);
    u64 pages = 0, roots[3] = {p.root, 0, 0};
    for (u32 c = 1; c <= 2; c++) {
        roots[c] = p.copy(&pages);
        ASSERT_NE(roots[c], 0u);
        Pte entry = b.private_entry(roots[c]);
        for (u32 r = 0; r <= c; r++) p.memory.table(roots[r])[pc::kFirstSharedSlot + c] = entry;
    }
    for (u32 r = 0; r < 3; r++)
        for (u32 c = 0; c < 3; c++) {
            u64 seen_by_owner = p.translate(roots[c], kPrivate + kPageSize);
            EXPECT_EQ(p.translate(roots[r], pc::to_shared(c, kPrivate + kPageSize)), seen_by_owner) << r << " " << c;
        }
    // A root's private slot shows its own copy only.
    EXPECT_NE(p.translate(roots[1], kPrivate), p.translate(roots[2], kPrivate));
}

TEST(PrivateCopies, SyncGivesACopyTheProgramsNewSlots) {
    Program p;
    pc::Builder<FakeMemory> b(p.memory);
    u64 pages = 0;
    u64 copy = p.copy(&pages);
    ASSERT_NE(copy, 0u);
    u64 mine = p.translate(copy, kPrivate);
    constexpr u64 kStack = 0x80000000;  // slot 2: no table there until now
    PageTable<FakeMemory>(p.memory, p.root).map(kStack, p.memory.allocate(), kUserRW);
    EXPECT_EQ(p.translate(copy, kStack), 0u);
    b.sync(p.root, copy);
    EXPECT_EQ(p.translate(copy, kStack), p.translate(p.root, kStack));
    EXPECT_EQ(p.translate(copy, kPrivate), mine);  // its own private slot stays
    EXPECT_EQ(p.memory.table(copy)[300], p.memory.table(p.root)[300]);
}

TEST(PrivateCopies, HolesInTheRegionStayHoles) {
    Program p;
    PageTable<FakeMemory>(p.memory, p.root).unmap(kPrivate + kPageSize);
    pc::Builder<FakeMemory> b(p.memory);
    u64 pages = 0;
    u64 copy = b.make_copy(p.root, 3 * kPageSize, &pages);
    ASSERT_NE(copy, 0u);
    EXPECT_EQ(pages, 2u);
    EXPECT_EQ(p.translate(copy, kPrivate + kPageSize), 0u);
    EXPECT_NE(p.translate(copy, kPrivate + 2 * kPageSize), 0u);
}

TEST(PrivateCopies, RunningOutOfMemoryAnywhereLeavesNothingBehind) {
    // Root, private-slot table, leaf table, then the three pages: fail at each step.
    for (size_t extra = 0; extra < 6; extra++) {
        Program p;
        size_t before = p.memory.live();
        p.memory.set_limit(before + extra);
        pc::Builder<FakeMemory> b(p.memory);
        u64 pages = 7;
        EXPECT_EQ(p.copy(&pages), 0u) << extra;
        EXPECT_EQ(p.memory.live(), before) << extra;
        EXPECT_NE(p.translate(p.root, kPrivate), 0u);  // the program's own copy stays
    }
    Program p;
    size_t before = p.memory.live();
    p.memory.set_limit(before + 6);
    pc::Builder<FakeMemory> b(p.memory);
    u64 pages = 0;
    EXPECT_NE(p.copy(&pages), 0u);  // exactly enough
}

TEST(PrivateCopies, DropFreesEverythingTheCopyTook) {
    Program p;
    size_t before = p.memory.live();
    pc::Builder<FakeMemory> b(p.memory);
    u64 pages = 0;
    u64 copy = b.make_copy(p.root, 3 * kPageSize, &pages);
    ASSERT_NE(copy, 0u);
    EXPECT_EQ(p.memory.live(), before + 6);  // root, two tables, three pages
    b.drop_copy(copy);
    EXPECT_EQ(p.memory.live(), before);
    EXPECT_NE(p.translate(p.root, kPrivate), 0u);  // the program's own copy stays
}
}  // namespace
