// NoC node numbering and cost model of the board tables (hal/board/board.hpp):
// Cluster::first_node/nodes/owns_node, Board::node_count, cluster_of_node, hops,
// transfer_cycles and the node limit of board_is_valid.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hal/board/current.hpp"
#include "tests/host/support/board_test_name.hpp"

namespace {
using namespace nvx;
using namespace nvx::board;

// ---------------------------------------------------------------- concrete boards

TEST(BoardNodes, TinyNumbering) {
    const Board& b = k_tiny;
    EXPECT_EQ(b.node_count, 1u + 2u);
    EXPECT_EQ(b.cluster(0).first_node, 0u);
    EXPECT_EQ(b.cluster(0).nodes, 1u);
    EXPECT_EQ(b.cluster(1).first_node, 1u);
    EXPECT_EQ(b.cluster(1).nodes, 1u);
    EXPECT_EQ(b.cluster(2).first_node, 2u);
    EXPECT_EQ(b.cluster(2).nodes, 1u);
}

TEST(BoardNodes, SmallNumbering) {
    const Board& b = k_small;
    EXPECT_EQ(b.node_count, 2u + 4u);
    EXPECT_EQ(b.cluster(0).first_node, 0u);
    EXPECT_EQ(b.cluster(0).nodes, 2u);  // the I/O cluster has two interfaces
    EXPECT_TRUE(b.cluster(0).owns_node(0));
    EXPECT_TRUE(b.cluster(0).owns_node(1));
    EXPECT_FALSE(b.cluster(0).owns_node(2));
    for (u32 i = 1; i < 5; i++) {
        SCOPED_TRACE(i);
        EXPECT_EQ(b.cluster(i).first_node, i + 1);
        EXPECT_EQ(b.cluster(i).nodes, 1u);
        EXPECT_EQ(b.cluster_of_node(i + 1), i);
    }
    EXPECT_EQ(b.cluster_of_node(0), 0u);
    EXPECT_EQ(b.cluster_of_node(1), 0u);
}

TEST(BoardNodes, Mppa256Numbering) {
    const Board& b = k_mppa256;
    EXPECT_EQ(b.node_count, 4u * 4u + 16u);
    EXPECT_EQ(b.node_count, 32u);
    for (u32 i = 0; i < 4; i++) {
        SCOPED_TRACE(i);
        EXPECT_EQ(b.cluster(i).first_node, 4 * i);
        EXPECT_EQ(b.cluster(i).nodes, 4u);
        for (u32 k = 0; k < 4; k++) EXPECT_EQ(b.cluster_of_node(4 * i + k), i) << "node " << 4 * i + k;
    }
    for (u32 i = 4; i < 20; i++) {
        SCOPED_TRACE(i);
        EXPECT_EQ(b.cluster(i).first_node, 16 + (i - 4));
        EXPECT_EQ(b.cluster(i).nodes, 1u);
        EXPECT_EQ(b.cluster_of_node(16 + (i - 4)), i);
    }
}

TEST(BoardNodes, CurrentBoardNodeCount) {
    // Host tests are built for k_small.
    EXPECT_EQ(kBoard.node_count, 6u);
}

// Worked examples on k_small: I/O cluster at (1,0) above a 2x2 mesh (1..2, 1..2).
TEST(BoardHops, SmallWorkedExamples) {
    const Board& b = k_small;
    ASSERT_EQ(b.cluster(0).noc_x, 1u);
    ASSERT_EQ(b.cluster(0).noc_y, 0u);
    EXPECT_EQ(b.hops(0, 1), 0u);  // both interfaces of the I/O cluster
    EXPECT_EQ(b.hops(0, 2), 1u);  // I/O (1,0) -> compute 0 at (1,1)
    EXPECT_EQ(b.hops(1, 3), 2u);  // I/O (1,0) -> compute 1 at (2,1)
    EXPECT_EQ(b.hops(0, 5), 3u);  // I/O (1,0) -> compute 3 at (2,2)
    EXPECT_EQ(b.hops(2, 5), 2u);  // diagonal of the mesh
    EXPECT_EQ(b.hops(3, 4), 2u);  // the other diagonal
    EXPECT_EQ(b.hops(2, 3), 1u);  // neighbours
}

// k_mppa256: I/O clusters north (2,0), south (2,5), west (0,2), east (5,2) of a 4x4 mesh.
TEST(BoardHops, Mppa256WorkedExamples) {
    const Board& b = k_mppa256;
    EXPECT_EQ(b.hops(0, 4), 5u);    // north I/O -> south I/O
    EXPECT_EQ(b.hops(3, 7), 5u);    // other interfaces of the same two clusters
    EXPECT_EQ(b.hops(8, 12), 5u);   // west I/O -> east I/O
    EXPECT_EQ(b.hops(0, 8), 4u);    // north (2,0) -> west (0,2)
    EXPECT_EQ(b.hops(16, 31), 6u);  // mesh corners (1,1) -> (4,4)
    EXPECT_EQ(b.hops(16, 19), 3u);  // (1,1) -> (4,1)
    EXPECT_EQ(b.hops(0, 17), 1u);   // north I/O (2,0) -> compute (2,1)
}

TEST(BoardTransfer, SmallWorkedExamples) {
    const Board& b = k_small;
    ASSERT_EQ(b.noc.hop_latency_cycles, 10u);
    ASSERT_EQ(b.noc.bytes_per_cycle, 4u);
    EXPECT_EQ(b.transfer_cycles(0, 5, 0), 30u);    // 3 hops, no data
    EXPECT_EQ(b.transfer_cycles(0, 5, 1), 31u);    // a partial word costs a whole cycle
    EXPECT_EQ(b.transfer_cycles(0, 5, 4), 31u);
    EXPECT_EQ(b.transfer_cycles(0, 5, 5), 32u);
    EXPECT_EQ(b.transfer_cycles(0, 5, 100), 55u);  // 30 + 25
    EXPECT_EQ(b.transfer_cycles(0, 5, 101), 56u);  // 30 + ceil(101 / 4)
    EXPECT_EQ(b.transfer_cycles(2, 2, 128), 32u);  // same node: bandwidth only
    EXPECT_EQ(b.transfer_cycles(0, 1, 128), 32u);  // same cluster: bandwidth only
}

TEST(BoardTransfer, LargeTransfersDoNotTruncate) {
    const Board& b = k_mppa256;
    const u64 bytes = u64{64} << 30;  // 64 GiB: beyond 32 bits of cycles
    EXPECT_EQ(b.transfer_cycles(16, 31, bytes), 6u * 10u + bytes / 4);
}

// ---------------------------------------------------------------- rules for every board

class EveryBoardNodes : public ::testing::TestWithParam<const Board*> {};

TEST_P(EveryBoardNodes, IoClustersComeFirstWithTheirInterfaces) {
    const Board& b = *GetParam();
    const u32 interfaces = b.cluster(0).nodes;
    EXPECT_GE(interfaces, 1u);
    for (u32 i = 0; i < b.io_count; i++) EXPECT_EQ(b.cluster(i).nodes, interfaces) << "I/O cluster " << i;
    for (u32 i = b.first_compute(); i < b.cluster_count; i++) EXPECT_EQ(b.cluster(i).nodes, 1u) << "compute " << i;
    EXPECT_EQ(b.node_count, b.io_count * interfaces + b.compute_count);
    // I/O nodes are the lowest numbers.
    EXPECT_EQ(b.cluster(b.first_compute()).first_node, b.io_count * interfaces);
}

TEST_P(EveryBoardNodes, NodesAreNumberedContiguouslyInClusterOrder) {
    const Board& b = *GetParam();
    u32 next = 0;
    for (u32 i = 0; i < b.cluster_count; i++) {
        SCOPED_TRACE(i);
        EXPECT_EQ(b.cluster(i).first_node, next);
        EXPECT_GE(b.cluster(i).nodes, 1u);
        next += b.cluster(i).nodes;
    }
    EXPECT_EQ(next, b.node_count);
    EXPECT_LE(b.node_count, kMaxNodes);
}

TEST_P(EveryBoardNodes, EveryNodeBelongsToExactlyOneCluster) {
    const Board& b = *GetParam();
    for (u32 node = 0; node < b.node_count; node++) {
        u32 owners = 0, owner = b.cluster_count;
        for (u32 i = 0; i < b.cluster_count; i++)
            if (b.cluster(i).owns_node(node)) {
                owners++;
                owner = i;
            }
        ASSERT_EQ(owners, 1u) << "node " << node;
        EXPECT_EQ(b.cluster_of_node(node), owner) << "node " << node;
    }
}

TEST_P(EveryBoardNodes, OwnsNodeEdges) {
    const Board& b = *GetParam();
    for (u32 i = 0; i < b.cluster_count; i++) {
        SCOPED_TRACE(i);
        const Cluster& c = b.cluster(i);
        EXPECT_TRUE(c.owns_node(c.first_node));
        EXPECT_TRUE(c.owns_node(c.first_node + c.nodes - 1));
        EXPECT_FALSE(c.owns_node(c.first_node + c.nodes));
        if (c.first_node > 0) {
            EXPECT_FALSE(c.owns_node(c.first_node - 1));
        }
        EXPECT_EQ(b.cluster_of_node(c.first_node), i);
        EXPECT_EQ(b.cluster_of_node(c.first_node + c.nodes - 1), i);
    }
}

TEST_P(EveryBoardNodes, NodesPastTheEndBelongToNobody) {
    const Board& b = *GetParam();
    EXPECT_EQ(b.cluster_of_node(b.node_count), b.cluster_count);
    EXPECT_EQ(b.cluster_of_node(kMaxNodes), b.cluster_count);
    EXPECT_EQ(b.cluster_of_node(0xffffffffu), b.cluster_count);
}

TEST_P(EveryBoardNodes, HopsToSelfIsZero) {
    const Board& b = *GetParam();
    for (u32 n = 0; n < b.node_count; n++) EXPECT_EQ(b.hops(n, n), 0u) << "node " << n;
}

TEST_P(EveryBoardNodes, HopsIsSymmetric) {
    const Board& b = *GetParam();
    for (u32 x = 0; x < b.node_count; x++)
        for (u32 y = 0; y < b.node_count; y++) EXPECT_EQ(b.hops(x, y), b.hops(y, x)) << x << " <-> " << y;
}

TEST_P(EveryBoardNodes, HopsIsTheManhattanDistanceOfTheClusters) {
    const Board& b = *GetParam();
    for (u32 x = 0; x < b.node_count; x++)
        for (u32 y = 0; y < b.node_count; y++) {
            const Cluster& a = b.cluster(b.cluster_of_node(x));
            const Cluster& c = b.cluster(b.cluster_of_node(y));
            i64 dx = i64{a.noc_x} - i64{c.noc_x}, dy = i64{a.noc_y} - i64{c.noc_y};
            u32 expected = static_cast<u32>((dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy));
            EXPECT_EQ(b.hops(x, y), expected) << x << " -> " << y;
        }
}

TEST_P(EveryBoardNodes, NodesOfOneClusterAreZeroHopsApart) {
    const Board& b = *GetParam();
    for (u32 i = 0; i < b.cluster_count; i++) {
        const Cluster& c = b.cluster(i);
        for (u32 x = c.first_node; x < c.first_node + c.nodes; x++)
            for (u32 y = c.first_node; y < c.first_node + c.nodes; y++) EXPECT_EQ(b.hops(x, y), 0u) << x << ", " << y;
    }
}

TEST_P(EveryBoardNodes, NodesOfDifferentClustersAreAtLeastOneHopApart) {
    // Coordinates are distinct per cluster, so different clusters are never 0 hops apart.
    const Board& b = *GetParam();
    for (u32 x = 0; x < b.node_count; x++)
        for (u32 y = 0; y < b.node_count; y++)
            if (b.cluster_of_node(x) != b.cluster_of_node(y)) {
                EXPECT_GE(b.hops(x, y), 1u) << x << " -> " << y;
            }
}

TEST_P(EveryBoardNodes, HopsSatisfiesTheTriangleInequality) {
    const Board& b = *GetParam();
    for (u32 x = 0; x < b.node_count; x++)
        for (u32 y = 0; y < b.node_count; y++)
            for (u32 z = 0; z < b.node_count; z++)
                ASSERT_LE(b.hops(x, z), b.hops(x, y) + b.hops(y, z)) << x << " " << y << " " << z;
}

TEST_P(EveryBoardNodes, TransferCyclesIsHopsPlusBandwidth) {
    const Board& b = *GetParam();
    const u64 sizes[] = {0, 1, 3, 4, 5, 127, 128, 4096, 4097, 1 << 20};
    for (u32 x = 0; x < b.node_count; x++)
        for (u32 y = 0; y < b.node_count; y++)
            for (u64 bytes : sizes) {
                u64 expected = u64{b.hops(x, y)} * b.noc.hop_latency_cycles +
                               (bytes + b.noc.bytes_per_cycle - 1) / b.noc.bytes_per_cycle;
                ASSERT_EQ(b.transfer_cycles(x, y, bytes), expected) << x << " -> " << y << ", " << bytes << " bytes";
            }
}

TEST_P(EveryBoardNodes, TransferCyclesGrowsWithSizeAndDistance) {
    const Board& b = *GetParam();
    for (u32 x = 0; x < b.node_count; x++)
        for (u32 y = 0; y < b.node_count; y++) {
            u64 previous = b.transfer_cycles(x, y, 0);
            EXPECT_EQ(previous, u64{b.hops(x, y)} * b.noc.hop_latency_cycles);
            for (u64 bytes = 1; bytes <= 64; bytes++) {
                u64 now = b.transfer_cycles(x, y, bytes);
                ASSERT_GE(now, previous) << bytes;
                previous = now;
            }
            // Every bytes_per_cycle more bytes cost exactly one more cycle.
            EXPECT_EQ(b.transfer_cycles(x, y, 1000 + b.noc.bytes_per_cycle), b.transfer_cycles(x, y, 1000) + 1);
            EXPECT_GT(b.transfer_cycles(x, y, 4096), b.transfer_cycles(x, y, 128));
            EXPECT_EQ(b.transfer_cycles(x, y, 64), b.transfer_cycles(y, x, 64));
        }
}

INSTANTIATE_TEST_SUITE_P(Boards, EveryBoardNodes, ::testing::ValuesIn(kAllBoards),
                         [](const ::testing::TestParamInfo<const Board*>& info) {
                             return board_test_name(info.param);
                         });

// ---------------------------------------------------------------- node limits

BoardShape shape_with_nodes(u32 io_clusters, u32 io_interfaces, u32 compute_clusters) {
    return BoardShape{.name = "nodes", .io_clusters = io_clusters, .io_harts = 2, .io_mem = 4 * MiB,
                      .io_interfaces = io_interfaces, .compute_clusters = compute_clusters, .compute_harts = 2,
                      .compute_mem = 2 * MiB, .mesh_width = 4, .noc = kMppaNoc};
}

TEST(BoardNodeLimit, MakeBoardCountsNodes) {
    Board b = make_board(shape_with_nodes(2, 3, 5));
    EXPECT_EQ(b.node_count, 2u * 3u + 5u);
    EXPECT_EQ(b.cluster(1).first_node, 3u);
    EXPECT_EQ(b.cluster(2).first_node, 6u);
    EXPECT_EQ(b.cluster_of_node(5), 1u);
    EXPECT_EQ(b.cluster_of_node(6), 2u);
    EXPECT_EQ(b.cluster_of_node(10), 6u);
    EXPECT_EQ(b.cluster_of_node(11), b.cluster_count);
    EXPECT_TRUE(board_is_valid(b));
}

TEST(BoardNodeLimit, ExactlyMaxNodesIsValid) {
    // 4 I/O clusters with 12 interfaces each + 16 compute clusters = 64 nodes.
    Board b = make_board(shape_with_nodes(4, 12, 16));
    ASSERT_EQ(b.node_count, kMaxNodes);
    EXPECT_TRUE(board_is_valid(b));
    EXPECT_EQ(b.cluster_of_node(kMaxNodes - 1), b.cluster_count - 1);
}

TEST(BoardNodeLimit, MoreThanMaxNodesIsRejected) {
    Board b = make_board(shape_with_nodes(4, 12, 17));  // 65 nodes
    ASSERT_EQ(b.node_count, kMaxNodes + 1);
    EXPECT_FALSE(board_is_valid(b));

    b = make_board(shape_with_nodes(4, 16, 4));  // 68 nodes, few clusters
    ASSERT_EQ(b.node_count, 68u);
    EXPECT_FALSE(board_is_valid(b));
}

TEST(BoardNodeLimit, TamperedNodeCountIsRejected) {
    Board b = k_small;
    ASSERT_TRUE(board_is_valid(b));
    b.node_count = kMaxNodes + 1;
    EXPECT_FALSE(board_is_valid(b));
    b.node_count = kMaxNodes;
    EXPECT_TRUE(board_is_valid(b));
}
}  // namespace
