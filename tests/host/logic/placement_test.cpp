// Rank placement of the launcher's --map-by policies (services/lib/placement.c).
#include <gtest/gtest.h>

#include <vector>

#include <nvx/placement.h>

namespace {
std::vector<unsigned> place(unsigned ranks, unsigned clusters, unsigned pes, int policy, unsigned ppc = 0) {
    std::vector<unsigned> out(ranks);
    EXPECT_EQ(nvx_place_ranks(ranks, clusters, pes, ppc == 0 ? pes : ppc, policy, out.data()), 0);
    return out;
}

std::vector<unsigned> per_cluster(const std::vector<unsigned>& cluster_of, unsigned clusters) {
    std::vector<unsigned> count(clusters, 0);
    for (unsigned c : cluster_of) count.at(c)++;
    return count;
}
}  // namespace

// The thesis' Figure 17: 14 ranks on 6 clusters of 4 PEs.
TEST(Placement, CompactFillsClustersInOrderAsInTheThesis) {
    auto p = place(14, 6, 4, NVX_MAP_COMPACT);
    EXPECT_EQ(p, (std::vector<unsigned>{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3}));
    EXPECT_EQ(per_cluster(p, 6), (std::vector<unsigned>{4, 4, 4, 2, 0, 0}));
}

TEST(Placement, ScatterDealsRoundRobinAsInTheThesis) {
    auto p = place(14, 6, 4, NVX_MAP_SCATTER);
    EXPECT_EQ(p, (std::vector<unsigned>{0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 0, 1}));
    EXPECT_EQ(per_cluster(p, 6), (std::vector<unsigned>{3, 3, 2, 2, 2, 2}));
}

TEST(Placement, FullBoardUsesEveryPeOnce) {
    for (int policy : {NVX_MAP_COMPACT, NVX_MAP_SCATTER}) {
        auto p = place(16 * 16, 16, 16, policy);
        for (unsigned n : per_cluster(p, 16)) EXPECT_EQ(n, 16u);
    }
}

TEST(Placement, Mppa192RanksCompactIsTwelvePerCluster) {
    auto p = place(192, 16, 16, NVX_MAP_COMPACT);
    auto n = per_cluster(p, 16);
    EXPECT_EQ(n[0], 16u);
    EXPECT_EQ(n[11], 16u);
    EXPECT_EQ(n[12], 0u);  // compact fills 12 clusters of 16 PEs
    auto s = per_cluster(place(192, 16, 16, NVX_MAP_SCATTER), 16);
    for (unsigned c : s) EXPECT_EQ(c, 12u);  // scatter: 12 on each of the 16
}

TEST(Placement, NeverExceedsAClustersPes) {
    for (unsigned ranks = 1; ranks <= 24; ranks++)
        for (int policy : {NVX_MAP_COMPACT, NVX_MAP_SCATTER})
            for (unsigned n : per_cluster(place(ranks, 6, 4, policy), 6)) EXPECT_LE(n, 4u);
}

TEST(Placement, RejectsBadArguments) {
    unsigned out[32];
    EXPECT_EQ(nvx_place_ranks(25, 6, 4, 4, NVX_MAP_COMPACT, out), -1);  // more ranks than PEs
    EXPECT_EQ(nvx_place_ranks(0, 6, 4, 4, NVX_MAP_COMPACT, out), -1);
    EXPECT_EQ(nvx_place_ranks(4, 0, 4, 4, NVX_MAP_COMPACT, out), -1);
    EXPECT_EQ(nvx_place_ranks(4, 6, 0, 0, NVX_MAP_COMPACT, out), -1);
    EXPECT_EQ(nvx_place_ranks(4, 6, 4, 4, 7, out), -1);
    EXPECT_EQ(nvx_place_ranks(4, 6, 4, 4, NVX_MAP_COMPACT, nullptr), -1);
}

// --ppc N (Open MPI's --npernode): at most N ranks on any cluster.
TEST(Placement, CompactWithACapFillsEachClusterUpToIt) {
    auto p = place(192, 16, 16, NVX_MAP_COMPACT, 12);  // the thesis' 12 ranks per cluster
    for (unsigned n : per_cluster(p, 16)) EXPECT_EQ(n, 12u);
    for (unsigned r = 0; r < 192; r++) EXPECT_EQ(p[r], r / 12) << "rank " << r;
    auto two = per_cluster(place(24, 16, 16, NVX_MAP_COMPACT, 12), 16);
    EXPECT_EQ(two[0], 12u);
    EXPECT_EQ(two[1], 12u);
    for (unsigned c = 2; c < 16; c++) EXPECT_EQ(two[c], 0u);  // 2 clusters, not 24 / 16 = 2 (rounded up)
    EXPECT_EQ(place(14, 6, 4, NVX_MAP_COMPACT, 3),
              (std::vector<unsigned>{0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4}));
}

TEST(Placement, ScatterWithACapNeverExceedsIt) {
    for (unsigned ppc = 1; ppc <= 4; ppc++)
        for (unsigned ranks = 1; ranks <= 6 * ppc; ranks++)
            for (unsigned n : per_cluster(place(ranks, 6, 4, NVX_MAP_SCATTER, ppc), 6)) EXPECT_LE(n, ppc);
    for (unsigned n : per_cluster(place(192, 16, 16, NVX_MAP_SCATTER, 12), 16)) EXPECT_EQ(n, 12u);
}

TEST(Placement, TheCapIsCheckedAgainstRanksAndPes) {
    unsigned out[64];
    EXPECT_EQ(nvx_place_ranks(4, 6, 4, 0, NVX_MAP_COMPACT, out), -1);   // N < 1
    EXPECT_EQ(nvx_place_ranks(4, 6, 4, 5, NVX_MAP_COMPACT, out), -1);   // N > PEs per cluster
    EXPECT_EQ(nvx_place_ranks(13, 6, 4, 2, NVX_MAP_COMPACT, out), -1);  // -np > clusters x N
    EXPECT_EQ(nvx_place_ranks(13, 6, 4, 2, NVX_MAP_SCATTER, out), -1);
    EXPECT_EQ(nvx_place_ranks(12, 6, 4, 2, NVX_MAP_SCATTER, out), 0);   // exactly clusters x N
}

TEST(Placement, PolicyNames) {
    EXPECT_EQ(nvx_map_policy_parse("compact"), NVX_MAP_COMPACT);
    EXPECT_EQ(nvx_map_policy_parse("scatter"), NVX_MAP_SCATTER);
    EXPECT_EQ(nvx_map_policy_parse("round-robin"), -1);
    EXPECT_EQ(nvx_map_policy_parse(""), -1);
    EXPECT_EQ(nvx_map_policy_parse(nullptr), -1);
    EXPECT_STREQ(nvx_map_policy_name(NVX_MAP_SCATTER), "scatter");
}
