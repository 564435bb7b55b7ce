// Collective schedules: binomial trees and the two-level (cluster, then leaders) tree.
#include <gtest/gtest.h>

#include <vector>

#include "libmpi/coll_schedule.hpp"

using namespace lwmpi;

namespace {

std::vector<int> placement(int n, int per_cluster, bool compact)
{
    std::vector<int> c(n);
    int clusters = (n + per_cluster - 1) / per_cluster;
    for (int r = 0; r < n; r++)
        c[r] = compact ? r / per_cluster : r % clusters;
    return c;
}

// Every rank but the root has one parent that lists it as a child, parents lead to the root,
// and exactly (clusters - 1) edges cross clusters.
void check_tree(const std::vector<int>& cluster, int root)
{
    int n = static_cast<int>(cluster.size());
    ClusterLayout layout;
    ASSERT_TRUE(layout_build(cluster.data(), n, &layout));
    std::vector<TreeNode> nodes(n);
    for (int r = 0; r < n; r++)
        tree_node(layout, root, r, &nodes[r]);
    std::vector<int> seen_as_child(n, 0);
    int remote_edges = 0;
    for (int r = 0; r < n; r++)
        for (int i = 0; i < nodes[r].children; i++) {
            int c = nodes[r].child[i];
            ASSERT_GE(c, 0);
            ASSERT_LT(c, n);
            seen_as_child[c]++;
            EXPECT_EQ(nodes[c].parent, r) << "child " << c << " of " << r;
            remote_edges += cluster[c] != cluster[r];
        }
    for (int r = 0; r < n; r++) {
        EXPECT_EQ(seen_as_child[r], r == root ? 0 : 1) << "rank " << r;
        int hops = 0, x = r;
        while (x != root && hops <= n) {
            x = nodes[x].parent;
            ASSERT_GE(x, 0);
            hops++;
        }
        EXPECT_EQ(x, root);
    }
    EXPECT_EQ(nodes[root].parent, -1);
    EXPECT_EQ(remote_edges, layout.slots - 1);
    layout_free(&layout);
}

}  // namespace

TEST(Binomial, ParentsAndChildrenAgree)
{
    for (int n = 1; n <= 70; n++) {
        std::vector<int> count(n, 0);
        for (int p = 0; p < n; p++) {
            int kids[32];
            int k = binomial_children(p, n, kids);
            for (int i = 0; i < k; i++) {
                EXPECT_EQ(binomial_parent(kids[i]), p);
                count[kids[i]]++;
                if (i > 0) {
                    EXPECT_GT(kids[i], kids[i - 1]);
                }
            }
        }
        for (int p = 1; p < n; p++)
            EXPECT_EQ(count[p], 1);
        EXPECT_EQ(binomial_parent(0), -1);
    }
}

TEST(Binomial, SubtreesAreContiguousRankRanges)
{
    // Child i of p covers [child, child + 2^i): the order non-commutative reductions rely on.
    int n = 37;
    for (int p = 0; p < n; p++) {
        int kids[32];
        int k = binomial_children(p, n, kids);
        for (int i = 0; i < k; i++)
            EXPECT_EQ(kids[i], p + (1 << i));
    }
}

TEST(Layout, GroupsRanksByCluster)
{
    std::vector<int> cluster = {2, 0, 2, 1, 0};
    ClusterLayout l;
    ASSERT_TRUE(layout_build(cluster.data(), 5, &l));
    EXPECT_EQ(l.slots, 3);
    EXPECT_FALSE(l.rank_ordered);
    EXPECT_EQ(l.slot_of[0], 0);
    EXPECT_EQ(l.slot_of[1], 1);
    EXPECT_EQ(l.slot_of[3], 2);
    std::vector<int> members(l.members, l.members + 5);
    EXPECT_EQ(members, (std::vector<int>{0, 2, 1, 4, 3}));
    EXPECT_EQ(l.index_in_slot[2], 1);
    layout_free(&l);
    std::vector<int> compact = placement(12, 4, true);
    ASSERT_TRUE(layout_build(compact.data(), 12, &l));
    EXPECT_TRUE(l.rank_ordered);
    EXPECT_EQ(l.slots, 3);
    layout_free(&l);
}

TEST(TwoLevelTree, SpansEveryPlacementAndRoot)
{
    for (int n : {1, 2, 3, 5, 7, 12, 16, 33, 64, 192})
        for (int per : {1, 3, 4, 12})
            for (bool compact : {true, false}) {
                auto cluster = placement(n, per, compact);
                for (int root : {0, n / 2, n - 1})
                    check_tree(cluster, root);
            }
}

TEST(TwoLevelTree, OnlyLeadersTalkAcrossClusters)
{
    auto cluster = placement(16, 4, false);
    ClusterLayout l;
    ASSERT_TRUE(layout_build(cluster.data(), 16, &l));
    int root = 5;
    for (int r = 0; r < 16; r++) {
        TreeNode node;
        tree_node(l, root, r, &node);
        bool leader = r == root || (cluster[r] != cluster[root] && l.index_in_slot[r] == 0);
        for (int i = 0; i < node.children; i++)
            if (cluster[node.child[i]] != cluster[r]) {
                EXPECT_TRUE(leader) << r;
            }
    }
    layout_free(&l);
}

TEST(OrderedTree, IsTheBinomialTreeInRankOrder)
{
    for (int n = 1; n < 20; n++)
        for (int r = 0; r < n; r++) {
            TreeNode node;
            ordered_tree_node(n, r, &node);
            EXPECT_EQ(node.parent, binomial_parent(r));
            for (int i = 0; i < node.children; i++)
                EXPECT_EQ(node.child[i], r + (1 << i));
        }
}
