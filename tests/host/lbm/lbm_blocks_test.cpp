// benchmarks/lbm's block decomposition: the blocks cover every node once, the clusters'
// ranges every block once, a fetch box holds every upwind neighbour inside the cavity and
// nothing outside it, and stepping through blocks gives the whole-lattice result bit for
// bit, whatever the block size and cluster count.
#include <gtest/gtest.h>

#include <vector>

#include "lbm_ref.hpp"
extern "C" {
#include "lbm_blocks.h"
}

namespace {
bool inside(const lbm_box3& b, int x, int y, int z) {
    return x >= b.x && x < b.x + b.sx && y >= b.y && y < b.y + b.sy && z >= b.z && z < b.z + b.sz;
}

TEST(LbmBlocks, BlocksCoverEveryNodeOnce) {
    for (int n : {4, 8, 12, 16}) {
        for (int b : {1, 2, 4}) {
            if (n % b != 0) continue;
            std::vector<int> seen(static_cast<size_t>(n) * n * n, 0);
            for (int m = 0; m < lbm_block_count(n, b); m++) {
                lbm_box3 blk = lbm_block(n, b, m);
                for (int z = blk.z; z < blk.z + b; z++)
                    for (int y = blk.y; y < blk.y + b; y++)
                        for (int x = blk.x; x < blk.x + b; x++) seen[x + n * (y + n * z)]++;
            }
            for (int s : seen) ASSERT_EQ(s, 1) << "n " << n << " b " << b;
        }
    }
}

TEST(LbmBlocks, ClusterRangesPartitionTheBlocks) {
    for (int parts : {1, 2, 3, 7, 16}) {
        int next = 0;
        for (int p = 0; p < parts; p++) {
            int first, end;
            lbm_cluster_blocks(16, 4, parts, p, &first, &end);
            EXPECT_EQ(first, next);
            EXPECT_LE(end - first, (64 + parts - 1) / parts);
            next = end;
        }
        EXPECT_EQ(next, 64);
    }
}

TEST(LbmBlocks, FetchBoxHoldsTheHaloCutAtTheWalls) {
    const int n = 12, b = 4;
    for (int m = 0; m < lbm_block_count(n, b); m++) {
        lbm_box3 blk = lbm_block(n, b, m), f = lbm_fetch_box(n, blk);
        EXPECT_GE(f.x, 0);
        EXPECT_LE(f.x + f.sx, n);
        EXPECT_GE(f.z, 0);
        EXPECT_LE(f.z + f.sz, n);
        EXPECT_EQ(f.sx, b + (blk.x > 0) + (blk.x + b < n));
        EXPECT_EQ(f.sy, b + (blk.y > 0) + (blk.y + b < n));
        EXPECT_EQ(f.sz, b + (blk.z > 0) + (blk.z + b < n));
        for (int z = blk.z; z < blk.z + b; z++)
            for (int y = blk.y; y < blk.y + b; y++)
                for (int x = blk.x; x < blk.x + b; x++)
                    for (int dz = -1; dz <= 1; dz++)
                        for (int dy = -1; dy <= 1; dy++)
                            for (int dx = -1; dx <= 1; dx++) {
                                int px = x + dx, py = y + dy, pz = z + dz;
                                bool in_cavity = px >= 0 && px < n && py >= 0 && py < n && pz >= 0 && pz < n;
                                if (in_cavity) {
                                    ASSERT_TRUE(inside(f, px, py, pz));
                                }
                            }
    }
}

TEST(LbmBlocks, NodeOffsetsAreNodeWise) {
    EXPECT_EQ(lbm_node_offset(8, 0, 0, 0), 0u);
    EXPECT_EQ(lbm_node_offset(8, 1, 0, 0), 76u);
    EXPECT_EQ(lbm_node_offset(8, 0, 1, 0), 8u * 76);
    EXPECT_EQ(lbm_node_offset(8, 0, 0, 1), 64u * 76);
}

TEST(LbmReference, BlockedStepsEqualWholeLatticeBitForBit) {
    const uint64_t whole = lbm_ref::hash(lbm_ref::run_whole(8, 3));
    for (int b : {1, 2, 4, 8})
        for (int clusters : {1, 3, 16}) EXPECT_EQ(lbm_ref::hash(lbm_ref::run_blocked(8, b, clusters, 3)), whole);
}

TEST(LbmReference, TheLidMovesTheFluid) {
    const uint64_t rest = lbm_ref::hash(lbm_ref::run_whole(4, 0));
    EXPECT_NE(lbm_ref::hash(lbm_ref::run_whole(4, 1)), rest);
    std::vector<float> after = lbm_ref::run_whole(6, 20);
    // Below the lid (z = n - 1) the mean x velocity is positive; mass is conserved.
    double jx = 0, mass = 0;
    for (int y = 0; y < 6; y++)
        for (int x = 0; x < 6; x++) {
            const float* f = &after[lbm_node_offset(6, x, y, 5) / sizeof(float)];
            for (int i = 0; i < LBM_Q; i++) jx += f[i] * lbm_cx[i];
        }
    for (float v : after) mass += v;
    EXPECT_GT(jx, 0.0);
    EXPECT_NEAR(mass, 216.0, 1e-2);
}

TEST(LbmReference, ResultLine) {
    EXPECT_EQ(lbm_ref::result_line(16, 4, 0xecefed11f5fc393aull),
              "lbm: cavity 16^3, steps 4, lattice hash ecefed11f5fc393a");
}
}  // namespace
