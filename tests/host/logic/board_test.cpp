// Board tables (hal/board/board.hpp): topology, memory map and the validity rules.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <utility>

#include "hal/board/boot_info.hpp"
#include "tests/host/support/board_test_name.hpp"
#include "hal/board/current.hpp"

namespace {
using namespace nvx;
using namespace nvx::board;

// ---------------------------------------------------------------- concrete boards

TEST(BoardTables, Mppa256Topology) {
    const Board& b = k_mppa256;
    EXPECT_STREQ(b.name, "mppa256");
    EXPECT_EQ(b.io_count, 4u);
    EXPECT_EQ(b.compute_count, 16u);
    EXPECT_EQ(b.cluster_count, 20u);
    EXPECT_EQ(b.hart_count, 4u * 4u + 16u * 17u);
    EXPECT_EQ(b.hart_count, 288u);
    EXPECT_EQ(b.max_cluster_harts, 17u);
    EXPECT_EQ(b.first_compute(), 4u);
    for (u32 i = 0; i < 4; i++) {
        SCOPED_TRACE(i);
        EXPECT_EQ(b.cluster(i).kind, ClusterKind::Io);
        EXPECT_EQ(b.cluster(i).harts, 4u);
        EXPECT_EQ(b.cluster(i).mem_size, kMppaIoMem);
    }
    for (u32 i = 4; i < 20; i++) {
        SCOPED_TRACE(i);
        EXPECT_EQ(b.cluster(i).kind, ClusterKind::Compute);
        EXPECT_EQ(b.cluster(i).harts, 17u);
        EXPECT_EQ(b.cluster(i).mem_size, 2 * MiB);
    }
}

TEST(BoardTables, SmallTopology) {
    const Board& b = k_small;
    EXPECT_STREQ(b.name, "small");
    EXPECT_EQ(b.io_count, 1u);
    EXPECT_EQ(b.compute_count, 4u);
    EXPECT_EQ(b.cluster_count, 5u);
    EXPECT_EQ(b.cluster(0).kind, ClusterKind::Io);
    EXPECT_EQ(b.cluster(0).harts, 4u);
    for (u32 i = 1; i < 5; i++) {
        SCOPED_TRACE(i);
        EXPECT_EQ(b.cluster(i).kind, ClusterKind::Compute);
        EXPECT_EQ(b.cluster(i).harts, 5u);
    }
    EXPECT_EQ(b.hart_count, 4u + 4u * 5u);
    EXPECT_EQ(b.max_cluster_harts, 5u);
}

TEST(BoardTables, TinyIsSmallerThanSmall) {
    EXPECT_STREQ(k_tiny.name, "tiny");
    EXPECT_LT(k_tiny.cluster_count, k_small.cluster_count);
    EXPECT_LT(k_tiny.compute_count, k_small.compute_count);
    EXPECT_LT(k_tiny.hart_count, k_small.hart_count);
    EXPECT_LT(k_tiny.max_cluster_harts, k_small.max_cluster_harts);
    EXPECT_LT(k_tiny.ram_size, k_small.ram_size);
    EXPECT_LT(k_small.hart_count, k_mppa256.hart_count);
}

TEST(BoardTables, CurrentBoardIsTheBuildFlagBoard) {
    // The host tests are compiled with NVX_BOARD_TABLE=nvx::board::k_small.
    EXPECT_EQ(&kBoard, &k_small);
}

TEST(BoardTables, AllBoardsListsEveryTableOnce) {
    std::set<std::string> names;
    for (const Board* b : kAllBoards) names.insert(b->name);
    EXPECT_EQ(names, (std::set<std::string>{"tiny", "small", "mppa256", "mppa256-xl", "fig17"}));
    EXPECT_EQ(names.size(), std::size(kAllBoards));
}

TEST(BoardTables, FixedPhysicalLayout) {
    EXPECT_EQ(kRamBase, 0x80000000u);
    EXPECT_EQ(kProgramBase, kFirmwareBase + kFirmwareSize);
    EXPECT_EQ(kClustersBase, kProgramBase + kProgramSize);
    EXPECT_TRUE(is_aligned(kClustersBase, kMegaPage));
    EXPECT_TRUE(is_aligned(kProgramBase, kMegaPage));
}

// The virtual clock's counter page is the program region's last page; the system program
// gets the rest, and every board's harts have a word in it.
TEST(BoardTables, ClockCounterPage) {
    EXPECT_EQ(kClockCounterPage + kPageSize, kProgramBase + kProgramSize);
    EXPECT_EQ(kProgramImageSize, kProgramSize - kPageSize);
    EXPECT_TRUE(is_aligned(kClockCounterPage, kPageSize));
    EXPECT_EQ(kClockCounterSlots, kPageSize / 8 - 1);
    for (const Board* b : kAllBoards) EXPECT_LE(b->hart_count, kClockCounterSlots) << b->name;
    EXPECT_GT(kCoreHz, kTimerHz);
}

// ---------------------------------------------------------------- rules for every board

class EveryBoard : public ::testing::TestWithParam<const Board*> {};

TEST_P(EveryBoard, IsValid) { EXPECT_TRUE(board_is_valid(*GetParam())); }

TEST_P(EveryBoard, KindsAndCountsAgree) {
    const Board& b = *GetParam();
    EXPECT_EQ(b.io_count + b.compute_count, b.cluster_count);
    EXPECT_GE(b.compute_count, 1u);
    EXPECT_LE(b.cluster_count, kMaxClusters);
    EXPECT_EQ(b.first_compute(), b.io_count);
    for (u32 i = 0; i < b.cluster_count; i++)
        EXPECT_EQ(b.cluster(i).kind, i < b.io_count ? ClusterKind::Io : ClusterKind::Compute) << i;
}

TEST_P(EveryBoard, MemoriesAreMegapageAlignedAndInsideRam) {
    const Board& b = *GetParam();
    EXPECT_TRUE(is_aligned(b.ram_size, MiB));
    const u64 usable_end = kRamBase + b.ram_size - kFdtReserve;
    for (u32 i = 0; i < b.cluster_count; i++) {
        SCOPED_TRACE(i);
        const Cluster& c = b.cluster(i);
        EXPECT_GT(c.mem_size, 0u);
        EXPECT_EQ(c.mem_base % kMegaPage, 0u);
        EXPECT_EQ(c.mem_size % kMegaPage, 0u);
        EXPECT_GE(c.mem_base, kClustersBase);
        EXPECT_LE(c.mem_end(), usable_end);
        EXPECT_EQ(c.mem_end(), c.mem_base + c.mem_size);
    }
}

TEST_P(EveryBoard, MemoriesDoNotOverlap) {
    const Board& b = *GetParam();
    for (u32 i = 0; i < b.cluster_count; i++)
        for (u32 j = i + 1; j < b.cluster_count; j++) {
            const Cluster& x = b.cluster(i);
            const Cluster& y = b.cluster(j);
            EXPECT_TRUE(x.mem_end() <= y.mem_base || y.mem_end() <= x.mem_base)
                << "clusters " << i << " and " << j << " overlap";
        }
}

TEST_P(EveryBoard, MemoriesStayClearOfFirmwareAndProgramRegions) {
    const Board& b = *GetParam();
    for (u32 i = 0; i < b.cluster_count; i++) {
        const Cluster& c = b.cluster(i);
        EXPECT_GE(c.mem_base, kFirmwareBase + kFirmwareSize) << i;
        EXPECT_GE(c.mem_base, kProgramBase + kProgramSize) << i;
    }
}

TEST_P(EveryBoard, HartsAreNumberedContiguously) {
    const Board& b = *GetParam();
    u32 next = 0, widest = 0;
    for (u32 i = 0; i < b.cluster_count; i++) {
        SCOPED_TRACE(i);
        const Cluster& c = b.cluster(i);
        EXPECT_EQ(c.first_hart, next);
        EXPECT_GE(c.harts, 2u);  // a kernel core and at least one user hart
        next += c.harts;
        widest = std::max(widest, c.harts);
    }
    EXPECT_EQ(next, b.hart_count);
    EXPECT_EQ(widest, b.max_cluster_harts);
    EXPECT_LE(b.hart_count, 512u);
}

TEST_P(EveryBoard, EveryHartBelongsToExactlyOneCluster) {
    const Board& b = *GetParam();
    for (u32 hart = 0; hart < b.hart_count; hart++) {
        u32 owners = 0, owner = b.cluster_count;
        for (u32 i = 0; i < b.cluster_count; i++)
            if (b.cluster(i).owns_hart(hart)) {
                owners++;
                owner = i;
            }
        ASSERT_EQ(owners, 1u) << "hart " << hart;
        EXPECT_EQ(b.cluster_of_hart(hart), owner) << "hart " << hart;
    }
}

TEST_P(EveryBoard, ClusterOfHartEdges) {
    const Board& b = *GetParam();
    for (u32 i = 0; i < b.cluster_count; i++) {
        const Cluster& c = b.cluster(i);
        EXPECT_EQ(b.cluster_of_hart(c.first_hart), i);
        EXPECT_EQ(b.cluster_of_hart(c.first_hart + c.harts - 1), i);
        EXPECT_FALSE(c.owns_hart(c.first_hart + c.harts));
        if (c.first_hart > 0) {
            EXPECT_FALSE(c.owns_hart(c.first_hart - 1));
        }
    }
    // A hart past the end of the board belongs to nobody.
    EXPECT_EQ(b.cluster_of_hart(b.hart_count), b.cluster_count);
    EXPECT_EQ(b.cluster_of_hart(b.hart_count + 100), b.cluster_count);
    EXPECT_EQ(b.cluster_of_hart(0xffffffffu), b.cluster_count);
}

TEST_P(EveryBoard, NocCoordinatesAreDistinct) {
    const Board& b = *GetParam();
    std::set<std::pair<u32, u32>> seen;
    for (u32 i = 0; i < b.cluster_count; i++)
        EXPECT_TRUE(seen.insert({b.cluster(i).noc_x, b.cluster(i).noc_y}).second)
            << "cluster " << i << " at (" << b.cluster(i).noc_x << "," << b.cluster(i).noc_y << ")";
}

TEST_P(EveryBoard, ComputeMeshInsideIoClustersOnItsSides) {
    const Board& b = *GetParam();
    u32 max_x = 0, max_y = 0;
    for (u32 i = b.first_compute(); i < b.cluster_count; i++) {
        const Cluster& c = b.cluster(i);
        EXPECT_GE(c.noc_x, 1u) << i;
        EXPECT_GE(c.noc_y, 1u) << i;
        max_x = std::max(max_x, c.noc_x);
        max_y = std::max(max_y, c.noc_y);
    }
    for (u32 i = 0; i < b.io_count; i++) {
        const Cluster& c = b.cluster(i);
        bool on_side = c.noc_x == 0 || c.noc_y == 0 || c.noc_x == max_x + 1 || c.noc_y == max_y + 1;
        EXPECT_TRUE(on_side) << "I/O cluster " << i << " at (" << c.noc_x << "," << c.noc_y << ")";
    }
}

TEST_P(EveryBoard, NocParametersAreTheMppaModel) {
    const Board& b = *GetParam();
    EXPECT_EQ(b.noc.hop_latency_cycles, kMppaNoc.hop_latency_cycles);
    EXPECT_EQ(b.noc.bytes_per_cycle, kMppaNoc.bytes_per_cycle);
    EXPECT_EQ(b.noc.mailbox_payload, kMppaNoc.mailbox_payload);
    EXPECT_EQ(b.noc.portal_max_transfer, kMppaNoc.portal_max_transfer);
}

TEST_P(EveryBoard, BootInfoPageLiesInsideTheClusterMemory) {
    const Board& b = *GetParam();
    static_assert(sizeof(BootInfo) <= kPageSize);
    for (u32 i = 0; i < b.cluster_count; i++) {
        const Cluster& c = b.cluster(i);
        u64 at = boot_info_address(c);
        EXPECT_TRUE(is_aligned(at, kPageSize)) << i;
        EXPECT_TRUE(range_contains(c.mem_base, c.mem_size, at, sizeof(BootInfo))) << i;
        EXPECT_EQ(at + kPageSize, c.mem_end()) << i;
    }
}

INSTANTIATE_TEST_SUITE_P(Boards, EveryBoard, ::testing::ValuesIn(kAllBoards),
                         [](const ::testing::TestParamInfo<const Board*>& info) {
                             return board_test_name(info.param);
                         });

// ---------------------------------------------------------------- board_is_valid

TEST(BoardIsValid, RejectsOverlappingMemory) {
    Board b = k_small;
    ASSERT_TRUE(board_is_valid(b));
    b.clusters[2].mem_base = b.clusters[1].mem_base + kMegaPage;  // still 2 MiB aligned
    EXPECT_LT(b.clusters[2].mem_base, b.clusters[1].mem_end());
    EXPECT_FALSE(board_is_valid(b));
}

TEST(BoardIsValid, RejectsMemoriesOutOfOrder) {
    Board b = k_small;
    std::swap(b.clusters[1].mem_base, b.clusters[2].mem_base);
    EXPECT_FALSE(board_is_valid(b));
}

TEST(BoardIsValid, RejectsClusterWithOneHart) {
    Board b = k_small;
    u32 last = b.cluster_count - 1;
    b.hart_count -= b.clusters[last].harts - 1;
    b.clusters[last].harts = 1;  // numbering stays contiguous: only the hart count is wrong
    EXPECT_FALSE(board_is_valid(b));
}

TEST(BoardIsValid, RejectsClusterWithNoHart) {
    Board b = k_tiny;
    u32 last = b.cluster_count - 1;
    b.hart_count -= b.clusters[last].harts;
    b.clusters[last].harts = 0;
    EXPECT_FALSE(board_is_valid(b));
}

TEST(BoardIsValid, RejectsMisalignedMemory) {
    Board b = k_small;
    b.clusters[b.cluster_count - 1].mem_base += kPageSize;
    EXPECT_FALSE(board_is_valid(b));

    b = k_small;
    b.clusters[b.cluster_count - 1].mem_size -= kPageSize;
    EXPECT_FALSE(board_is_valid(b));
}

TEST(BoardIsValid, RejectsMemoryBelowTheClusterRegion) {
    Board b = k_small;
    b.clusters[0].mem_base = kProgramBase;  // aligned, but inside the program region
    EXPECT_FALSE(board_is_valid(b));
}

TEST(BoardIsValid, RejectsGapsInHartNumbering) {
    Board b = k_small;
    b.clusters[3].first_hart += 1;
    EXPECT_FALSE(board_is_valid(b));

    b = k_small;
    b.clusters[3].first_hart -= 1;  // overlaps cluster 2's last hart
    EXPECT_FALSE(board_is_valid(b));
}

TEST(BoardIsValid, RejectsEmptyOrOversizedBoards) {
    Board b = k_small;
    b.cluster_count = 0;
    EXPECT_FALSE(board_is_valid(b));

    b = k_small;
    b.cluster_count = kMaxClusters + 1;
    EXPECT_FALSE(board_is_valid(b));

    b = k_small;
    b.compute_count = 0;
    EXPECT_FALSE(board_is_valid(b));

    b = k_small;
    b.hart_count = 513;  // beyond QEMU virt's limit
    EXPECT_FALSE(board_is_valid(b));

    b = k_small;
    b.hart_count = 512;  // QEMU would take it, but the clock's counter page holds 511 harts
    EXPECT_FALSE(board_is_valid(b));
}

TEST(BoardIsValid, MakeBoardOfBrokenShapes) {
    BoardShape shape{.name = "one-hart", .io_clusters = 1, .io_harts = 1, .io_mem = 4 * MiB, .io_interfaces = 1,
                     .compute_clusters = 2, .compute_harts = 3, .compute_mem = 4 * MiB,
                     .mesh_width = 2, .noc = kMppaNoc};
    EXPECT_FALSE(board_is_valid(make_board(shape)));

    shape.name = "odd-memory";
    shape.io_harts = 2;
    shape.io_mem = 3 * MiB;  // not a whole number of megapages
    EXPECT_FALSE(board_is_valid(make_board(shape)));

    shape.name = "no-compute";
    shape.io_mem = 4 * MiB;
    shape.compute_clusters = 0;
    EXPECT_FALSE(board_is_valid(make_board(shape)));
}

TEST(BoardIsValid, MakeBoardOfAGoodShape) {
    constexpr Board b = make_board({.name = "wide", .io_clusters = 2, .io_harts = 3, .io_mem = 6 * MiB, .io_interfaces = 1,
                                    .compute_clusters = 6, .compute_harts = 4, .compute_mem = 2 * MiB,
                                    .mesh_width = 3, .noc = kMppaNoc});
    static_assert(board_is_valid(b));
    EXPECT_EQ(b.cluster_count, 8u);
    EXPECT_EQ(b.hart_count, 2u * 3u + 6u * 4u);
    EXPECT_EQ(b.cluster(0).mem_base, kClustersBase);
    EXPECT_EQ(b.cluster(1).mem_base, kClustersBase + 6 * MiB);
    EXPECT_EQ(b.cluster(2).mem_base, kClustersBase + 12 * MiB);
    EXPECT_EQ(b.ram_size, b.cluster(7).mem_end() - kRamBase + kFdtReserve);
    // Compute clusters fill the 3-wide mesh row by row.
    EXPECT_EQ(b.cluster(2).noc_x, 1u);
    EXPECT_EQ(b.cluster(2).noc_y, 1u);
    EXPECT_EQ(b.cluster(4).noc_x, 3u);
    EXPECT_EQ(b.cluster(5).noc_x, 1u);
    EXPECT_EQ(b.cluster(5).noc_y, 2u);
}
}  // namespace

TEST(BoardTables, Fig17IsTheThesisExample) {
    EXPECT_EQ(k_fig17.compute_count, 6u);
    for (u32 i = k_fig17.first_compute(); i < k_fig17.cluster_count; i++)
        EXPECT_EQ(k_fig17.cluster(i).harts - 1, 4u);  // 4 PEs besides the kernel core
}
