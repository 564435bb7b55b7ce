// PMP encoding (hal/riscv/pmp.hpp) and the per-cluster plan (hal/firmware/pmp_setup.hpp).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hal/board/boot_info.hpp"
#include "tests/host/support/board_test_name.hpp"
#include "hal/board/platform.hpp"
#include "hal/firmware/pmp_setup.hpp"

namespace {
using namespace nvx;
using namespace nvx::riscv::pmp;
using nvx::board::Board;
using nvx::board::Cluster;

constexpr u8 kRwx = kRead | kWrite | kExec;

// ---------------------------------------------------------------- Plan::grant and friends

TEST(PmpPlan, EncodingConstantsMatchThePrivilegedSpec) {
    EXPECT_EQ(kRead, 0x01);
    EXPECT_EQ(kWrite, 0x02);
    EXPECT_EQ(kExec, 0x04);
    EXPECT_EQ(kModeOff, 0x00);
    EXPECT_EQ(kModeTor, 0x08);
    EXPECT_EQ(kModeNapot, 0x18);
    EXPECT_EQ(kLock, 0x80);
    EXPECT_EQ(kEntries, 16u);
}

TEST(PmpPlan, EmptyPlanDeniesEverything) {
    Plan plan;
    EXPECT_EQ(plan.used, 0u);
    for (u64 addr : {u64{0}, u64{0x1000}, u64{0x80000000}, ~u64{0}}) EXPECT_EQ(plan.permissions_at(addr), 0) << addr;
    EXPECT_EQ(plan.cfg_register(0), 0u);
    EXPECT_EQ(plan.cfg_register(1), 0u);
}

TEST(PmpPlan, GrantIsATorPair) {
    Plan plan;
    ASSERT_TRUE(plan.grant(0x80400000, 0x400000, kRead | kExec));
    ASSERT_EQ(plan.used, 2u);
    EXPECT_EQ(plan.entries[0].addr, 0x80400000u >> 2);
    EXPECT_EQ(plan.entries[0].cfg, kModeOff);
    EXPECT_EQ(plan.entries[1].addr, 0x80800000u >> 2);
    EXPECT_EQ(plan.entries[1].cfg, kModeTor | kRead | kExec);
}

TEST(PmpPlan, GrantCoversExactlyItsRange) {
    Plan plan;
    ASSERT_TRUE(plan.grant(0x1000, 0x2000, kRead | kWrite));
    EXPECT_EQ(plan.permissions_at(0x0fff), 0);
    EXPECT_EQ(plan.permissions_at(0x1000), kRead | kWrite);
    EXPECT_EQ(plan.permissions_at(0x2abc), kRead | kWrite);
    EXPECT_EQ(plan.permissions_at(0x2fff), kRead | kWrite);
    EXPECT_EQ(plan.permissions_at(0x3000), 0);
    EXPECT_EQ(plan.permissions_at(0), 0);
}

TEST(PmpPlan, SmallestGrantIsFourBytes) {
    Plan plan;
    ASSERT_TRUE(plan.grant(0x100, 4, kWrite));
    EXPECT_EQ(plan.permissions_at(0xff), 0);
    EXPECT_EQ(plan.permissions_at(0x100), kWrite);
    EXPECT_EQ(plan.permissions_at(0x103), kWrite);
    EXPECT_EQ(plan.permissions_at(0x104), 0);
}

TEST(PmpPlan, FirstMatchingEntryWins) {
    Plan plan;
    ASSERT_TRUE(plan.grant(0x1000, 0x1000, kRead));
    ASSERT_TRUE(plan.grant(0x1000, 0x2000, kRwx));
    EXPECT_EQ(plan.permissions_at(0x1800), kRead);  // inside both: the first grant decides
    EXPECT_EQ(plan.permissions_at(0x2800), kRwx);   // only in the second
    EXPECT_EQ(plan.permissions_at(0x3000), 0);
}

TEST(PmpPlan, GrantRejectsMisalignedOrEmptyRanges) {
    Plan plan;
    EXPECT_FALSE(plan.grant(0x1001, 0x1000, kRead));
    EXPECT_FALSE(plan.grant(0x1002, 0x1000, kRead));
    EXPECT_FALSE(plan.grant(0x1000, 0x1001, kRead));
    EXPECT_FALSE(plan.grant(0x1000, 0x1003, kRead));
    EXPECT_FALSE(plan.grant(0x1000, 0, kRead));
    EXPECT_EQ(plan.used, 0u);
    EXPECT_EQ(plan.permissions_at(0x1000), 0);
    EXPECT_EQ(plan.cfg_register(0), 0u);
}

TEST(PmpPlan, GrantRejectsAFullPlan) {
    Plan plan;
    for (u32 i = 0; i < kEntries / 2; i++) ASSERT_TRUE(plan.grant(0x10000 * (i + 1), 0x1000, kRead)) << i;
    EXPECT_EQ(plan.used, kEntries);
    EXPECT_FALSE(plan.grant(0x900000, 0x1000, kRwx));
    EXPECT_EQ(plan.used, kEntries);
    EXPECT_EQ(plan.permissions_at(0x900000), 0);
    EXPECT_EQ(plan.permissions_at(0x80000), kRead);  // the last successful grant still works
}

TEST(PmpPlan, GrantRejectsWhenOnlyOneEntryIsLeft) {
    Plan plan;
    for (u32 i = 0; i < kEntries / 2; i++) ASSERT_TRUE(plan.grant(0x10000 * (i + 1), 0x1000, kRead));
    plan.used = kEntries - 1;  // one free entry cannot hold a TOR pair
    EXPECT_FALSE(plan.grant(0x900000, 0x1000, kRead));
    EXPECT_EQ(plan.used, kEntries - 1);
}

TEST(PmpPlan, CfgRegisterPacksEightEntriesPerRegister) {
    Plan plan;
    const u8 perms[8] = {kRead, kWrite, kExec, kRead | kWrite, kRead | kExec, kWrite | kExec, kRwx, 0};
    for (u32 i = 0; i < 8; i++) ASSERT_TRUE(plan.grant(0x100000 * (i + 1), 0x1000, perms[i]));
    u64 cfg0 = 0, cfg2 = 0;
    for (u32 i = 0; i < 4; i++) cfg0 |= static_cast<u64>(kModeTor | perms[i]) << (8 * (2 * i + 1));
    for (u32 i = 4; i < 8; i++) cfg2 |= static_cast<u64>(kModeTor | perms[i]) << (8 * (2 * (i - 4) + 1));
    EXPECT_EQ(plan.cfg_register(0), cfg0);  // entries 0..7  -> pmpcfg0
    EXPECT_EQ(plan.cfg_register(1), cfg2);  // entries 8..15 -> pmpcfg2
    // Byte by byte: entry e sits in byte e % 8 of register e / 8.
    for (u32 e = 0; e < kEntries; e++) {
        u64 byte = (plan.cfg_register(e / 8) >> (8 * (e % 8))) & 0xff;
        EXPECT_EQ(byte, plan.entries[e].cfg) << e;
    }
}

TEST(PmpPlan, CfgRegisterIgnoresUnusedEntries) {
    Plan plan;
    for (Entry& e : plan.entries) e = {~u64{0}, 0xff};  // garbage in unused slots
    plan.used = 0;
    ASSERT_TRUE(plan.grant(0x2000, 0x1000, kRead));
    EXPECT_EQ(plan.cfg_register(0), u64{kModeTor | kRead} << 8);
    EXPECT_EQ(plan.cfg_register(1), 0u);
    EXPECT_EQ(plan.permissions_at(0x5000), 0);
}

// ---------------------------------------------------------------- pmp_plan_for, every cluster

struct ClusterCase {
    const Board* board;
    u32 index;
};

std::vector<ClusterCase> every_cluster() {
    std::vector<ClusterCase> cases;
    for (const Board* b : board::kAllBoards)
        for (u32 i = 0; i < b->cluster_count; i++) cases.push_back({b, i});
    return cases;
}

class ClusterPlan : public ::testing::TestWithParam<ClusterCase> {
protected:
    const Board& board() const { return *GetParam().board; }
    const Cluster& cluster() const { return board().cluster(GetParam().index); }
    Plan plan() const { return firmware::pmp_plan_for(cluster()); }
};

TEST_P(ClusterPlan, FitsTheEightProgrammedEntries) {
    // program_pmp() only writes pmpaddr0..7.
    Plan p = plan();
    EXPECT_GT(p.used, 0u);
    EXPECT_LE(p.used, 8u);
    EXPECT_EQ(p.cfg_register(1), 0u);
}

TEST_P(ClusterPlan, NoEntryIsLocked) {
    // Locked entries would also bind M-mode, and the firmware must keep full access.
    Plan p = plan();
    for (u32 i = 0; i < p.used; i++) EXPECT_EQ(p.entries[i].cfg & kLock, 0) << i;
}

TEST_P(ClusterPlan, OwnMemoryIsReadWriteExecute) {
    Plan p = plan();
    const Cluster& c = cluster();
    EXPECT_EQ(p.permissions_at(c.mem_base), kRwx);
    EXPECT_EQ(p.permissions_at(c.mem_base + c.mem_size / 2), kRwx);
    EXPECT_EQ(p.permissions_at(board::boot_info_address(c)), kRwx);
    EXPECT_EQ(p.permissions_at(c.mem_end() - 1), kRwx);
}

TEST_P(ClusterPlan, NothingPastOwnMemory) {
    Plan p = plan();
    const Cluster& c = cluster();
    EXPECT_EQ(p.permissions_at(c.mem_end()), 0);
    EXPECT_EQ(p.permissions_at(c.mem_end() + board::kPageSize), 0);
    // Just below: the program region (read-only) when adjacent, otherwise nothing.
    u8 below = c.mem_base == board::kProgramBase + board::kProgramSize ? kRead : 0;
    EXPECT_EQ(p.permissions_at(c.mem_base - 1), below);
}

TEST_P(ClusterPlan, ProgramRegionIsReadOnly) {
    Plan p = plan();
    EXPECT_EQ(p.permissions_at(board::kProgramBase), kRead);
    EXPECT_EQ(p.permissions_at(board::kProgramBase + board::kProgramSize / 2), kRead);
    EXPECT_EQ(p.permissions_at(board::kProgramBase + board::kProgramSize - 1), kRead);
    EXPECT_EQ(p.permissions_at(board::kClockCounterPage), kRead);  // the clock's counters: read, never write
}

TEST_P(ClusterPlan, FirmwareIsInaccessible) {
    Plan p = plan();
    EXPECT_EQ(p.permissions_at(board::kFirmwareBase), 0);
    EXPECT_EQ(p.permissions_at(board::kFirmwareBase + board::kFirmwareSize / 2), 0);
    EXPECT_EQ(p.permissions_at(board::kFirmwareBase + board::kFirmwareSize - 1), 0);
    EXPECT_EQ(p.permissions_at(board::kFirmwareBase - 1), 0);
}

TEST_P(ClusterPlan, DevicesAreInaccessible) {
    Plan p = plan();
    EXPECT_EQ(p.permissions_at(platform::kUartBase), 0);
    EXPECT_EQ(p.permissions_at(0x10000000), 0);
    EXPECT_EQ(p.permissions_at(platform::kClintBase), 0);
    EXPECT_EQ(p.permissions_at(0x2000000), 0);
    EXPECT_EQ(p.permissions_at(platform::kClintMtimecmp), 0);
    EXPECT_EQ(p.permissions_at(platform::kClintMtime), 0);
    EXPECT_EQ(p.permissions_at(platform::kTestFinisher), 0);
    EXPECT_EQ(p.permissions_at(0), 0);
    EXPECT_EQ(p.permissions_at(~u64{0}), 0);
}

TEST_P(ClusterPlan, OtherClustersAreInaccessible) {
    Plan p = plan();
    const Board& b = board();
    for (u32 j = 0; j < b.cluster_count; j++) {
        if (j == GetParam().index) continue;
        const Cluster& other = b.cluster(j);
        EXPECT_EQ(p.permissions_at(other.mem_base), 0) << "cluster " << j;
        EXPECT_EQ(p.permissions_at(other.mem_base + other.mem_size / 2), 0) << "cluster " << j;
        EXPECT_EQ(p.permissions_at(other.mem_end() - 1), 0) << "cluster " << j;
    }
    // And the FDT QEMU leaves at the end of RAM.
    EXPECT_EQ(p.permissions_at(board::kRamBase + b.ram_size - 1), 0);
}

TEST_P(ClusterPlan, ExactEntries) {
    Plan p = plan();
    const Cluster& c = cluster();
    ASSERT_EQ(p.used, 4u);
    EXPECT_EQ(p.entries[0].addr, board::kProgramBase >> 2);
    EXPECT_EQ(p.entries[1].addr, (board::kProgramBase + board::kProgramSize) >> 2);
    EXPECT_EQ(p.entries[2].addr, c.mem_base >> 2);
    EXPECT_EQ(p.entries[3].addr, c.mem_end() >> 2);
    u64 expected_cfg0 = (u64{kModeTor | kRead} << 8) | (u64{kModeTor | kRwx} << 24);
    EXPECT_EQ(p.cfg_register(0), expected_cfg0);
}

INSTANTIATE_TEST_SUITE_P(AllClusters, ClusterPlan, ::testing::ValuesIn(every_cluster()),
                         [](const ::testing::TestParamInfo<ClusterCase>& info) {
                             return board_test_name(info.param.board) + "_cluster" +
                                    std::to_string(info.param.index);
                         });
}  // namespace
