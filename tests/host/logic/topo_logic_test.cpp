// The arithmetic of LWMPI's process topologies (libmpi/topo_logic.hpp): MPI_Dims_create's
// balanced factorisation, Cartesian coordinates, ranks, shifts and sub-grids, graph checks
// and distributed-graph assembly.
#include <gtest/gtest.h>

#include <vector>

#include "libmpi/topo_logic.hpp"

namespace topo = lwmpi::topo;

namespace {

std::vector<int> dims_create(int nnodes, std::vector<int> dims, bool* ok = nullptr)
{
    std::vector<int> scratch(topo::kMaxDivisors + 2 * dims.size() + 1);
    bool done = topo::dims_create(nnodes, static_cast<int>(dims.size()), dims.data(), scratch.data());
    if (ok)
        *ok = done;
    else
        EXPECT_TRUE(done) << nnodes;
    return dims;
}

int product(const std::vector<int>& v)
{
    int p = 1;
    for (int x : v)
        p *= x;
    return p;
}

}  // namespace

TEST(DimsCreate, StandardExamples)
{
    // MPI 3.1 section 7.5.2, Example 7.1.
    EXPECT_EQ(dims_create(6, {0, 0}), (std::vector<int>{3, 2}));
    EXPECT_EQ(dims_create(7, {0, 0}), (std::vector<int>{7, 1}));
    EXPECT_EQ(dims_create(6, {0, 3, 0}), (std::vector<int>{2, 3, 1}));
    bool ok = true;
    dims_create(7, {0, 3, 0}, &ok);
    EXPECT_FALSE(ok);
}

TEST(DimsCreate, Balanced)
{
    EXPECT_EQ(dims_create(16, {0, 0}), (std::vector<int>{4, 4}));
    EXPECT_EQ(dims_create(64, {0, 0, 0}), (std::vector<int>{4, 4, 4}));
    EXPECT_EQ(dims_create(12, {0, 0, 0}), (std::vector<int>{3, 2, 2}));
    EXPECT_EQ(dims_create(32, {0, 0, 0}), (std::vector<int>{4, 4, 2}));
    EXPECT_EQ(dims_create(210, {0, 0, 0}), (std::vector<int>{7, 6, 5}));
    EXPECT_EQ(dims_create(1, {0, 0, 0}), (std::vector<int>{1, 1, 1}));
    EXPECT_EQ(dims_create(5, {0}), (std::vector<int>{5}));
    EXPECT_EQ(dims_create(192, {0, 0}), (std::vector<int>{16, 12}));
    // A large prime and a highly composite number finish quickly.
    EXPECT_EQ(dims_create(2147483647, {0, 0}), (std::vector<int>{2147483647, 1}));
    std::vector<int> d = dims_create(735134400, {0, 0, 0, 0});
    EXPECT_EQ(product(d), 735134400);
    for (size_t i = 1; i < d.size(); i++)
        EXPECT_GE(d[i - 1], d[i]);
}

TEST(DimsCreate, ManyDimensions)
{
    // Dimensions beyond the prime factors get 1; the search stays shallow.
    std::vector<int> d = dims_create(8, std::vector<int>(100000, 0));
    EXPECT_EQ(d[0], 2);
    EXPECT_EQ(d[1], 2);
    EXPECT_EQ(d[2], 2);
    for (size_t i = 3; i < d.size(); i++)
        ASSERT_EQ(d[i], 1);
    EXPECT_EQ(dims_create(1024, std::vector<int>(12, 0)),
              (std::vector<int>{2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1}));
}

TEST(DimsCreate, FixedEntries)
{
    EXPECT_EQ(dims_create(24, {0, 2, 0}), (std::vector<int>{4, 2, 3}));
    EXPECT_EQ(dims_create(8, {2, 2, 2}), (std::vector<int>{2, 2, 2}));
    bool ok = true;
    dims_create(9, {2, 2, 2}, &ok);
    EXPECT_FALSE(ok);
    dims_create(4, {8, 0}, &ok);
    EXPECT_FALSE(ok);
}

TEST(DimsCreate, NoDimensions)
{
    bool ok = true;
    dims_create(5, {}, &ok);
    EXPECT_FALSE(ok);
    dims_create(1, {}, &ok);
    EXPECT_TRUE(ok);
}

TEST(Cart, CoordsAndRankRoundTrip)
{
    int dims[3] = {2, 3, 4};
    int periods[3] = {0, 0, 0};
    for (int r = 0; r < 24; r++) {
        int c[3];
        topo::cart_coords(3, dims, r, c);
        int back = -5;
        ASSERT_TRUE(topo::cart_rank(3, dims, periods, c, &back));
        EXPECT_EQ(back, r);
    }
    int c[3];
    topo::cart_coords(3, dims, 23, c);
    EXPECT_EQ(c[0], 1);
    EXPECT_EQ(c[1], 2);
    EXPECT_EQ(c[2], 3);
    topo::cart_coords(3, dims, 5, c);  // row-major: the last dimension varies fastest
    EXPECT_EQ(c[0], 0);
    EXPECT_EQ(c[1], 1);
    EXPECT_EQ(c[2], 1);
}

TEST(Cart, RankWrapsOnlyPeriodicDimensions)
{
    int dims[2] = {3, 4};
    int periods[2] = {1, 0};
    int r;
    int in[2] = {-1, 2};
    ASSERT_TRUE(topo::cart_rank(2, dims, periods, in, &r));
    EXPECT_EQ(r, 2 * 4 + 2);
    int far[2] = {7, 0};
    ASSERT_TRUE(topo::cart_rank(2, dims, periods, far, &r));
    EXPECT_EQ(r, 1 * 4);
    int out[2] = {0, 4};
    EXPECT_FALSE(topo::cart_rank(2, dims, periods, out, &r));
    int neg[2] = {0, -1};
    EXPECT_FALSE(topo::cart_rank(2, dims, periods, neg, &r));
}

TEST(Cart, ShiftAtBordersAndWrapping)
{
    int dims[2] = {3, 4};
    int periods[2] = {1, 0};
    int coords[2] = {0, 0};  // rank 0
    int src, dst;
    topo::cart_shift(2, dims, periods, coords, 0, 1, &src, &dst);
    EXPECT_EQ(src, 8);   // (2,0): wraps
    EXPECT_EQ(dst, 4);   // (1,0)
    topo::cart_shift(2, dims, periods, coords, 1, 1, &src, &dst);
    EXPECT_EQ(src, topo::kNoRank);
    EXPECT_EQ(dst, 1);
    topo::cart_shift(2, dims, periods, coords, 1, -1, &src, &dst);
    EXPECT_EQ(src, 1);
    EXPECT_EQ(dst, topo::kNoRank);
    topo::cart_shift(2, dims, periods, coords, 1, 4, &src, &dst);
    EXPECT_EQ(src, topo::kNoRank);
    EXPECT_EQ(dst, topo::kNoRank);
    topo::cart_shift(2, dims, periods, coords, 0, 7, &src, &dst);  // 7 mod 3 = 1
    EXPECT_EQ(src, 8);
    EXPECT_EQ(dst, 4);
    topo::cart_shift(2, dims, periods, coords, 0, 0, &src, &dst);
    EXPECT_EQ(src, 0);
    EXPECT_EQ(dst, 0);
    int last[2] = {2, 3};  // rank 11
    topo::cart_shift(2, dims, periods, last, 1, 1, &src, &dst);
    EXPECT_EQ(src, 10);
    EXPECT_EQ(dst, topo::kNoRank);
}

TEST(Cart, SubGrids)
{
    int dims[3] = {2, 3, 4};
    int remain[3] = {1, 0, 1};
    // Points sharing their middle coordinate form one 2 x 4 grid; the key is the rank there.
    int coords[3] = {1, 2, 3};
    int color, key;
    topo::cart_sub(3, dims, coords, remain, &color, &key);
    EXPECT_EQ(color, 2);
    EXPECT_EQ(key, 1 * 4 + 3);
    int none[3] = {0, 0, 0};
    topo::cart_sub(3, dims, coords, none, &color, &key);
    EXPECT_EQ(color, 1 * 12 + 2 * 4 + 3);
    EXPECT_EQ(key, 0);
}

TEST(Graph, Validity)
{
    // MPI 3.1 Example 7.2's graph, whose node 3 has a self-loop.
    int index[4] = {2, 3, 4, 6};
    int edges[6] = {1, 3, 0, 3, 0, 2};
    EXPECT_TRUE(topo::graph_valid(4, index, edges));
    int first, count;
    topo::graph_neighbors(index, 3, &first, &count);
    EXPECT_EQ(first, 4);
    EXPECT_EQ(count, 2);
    topo::graph_neighbors(index, 0, &first, &count);
    EXPECT_EQ(first, 0);
    EXPECT_EQ(count, 2);
    int bad_index[4] = {2, 1, 4, 6};
    EXPECT_FALSE(topo::graph_valid(4, bad_index, edges));
    int bad_edges[6] = {1, 3, 0, 4, 0, 2};
    EXPECT_FALSE(topo::graph_valid(4, index, bad_edges));
    int neg_index[1] = {-1};
    EXPECT_FALSE(topo::graph_valid(1, neg_index, edges));
    EXPECT_TRUE(topo::graph_valid(0, nullptr, nullptr));
    int loops[2] = {1, 2};
    int self_and_repeat[2] = {0, 1};
    EXPECT_TRUE(topo::graph_valid(2, loops, self_and_repeat));
}

TEST(DistGraph, EdgesPairUpInOrder)
{
    // Rank 0 gives 0->1 (w 5) and 0->1 again (w 6); rank 1 gives 1->0 and 2->1.
    topo::Edge all[4] = {{0, 1, 5}, {0, 1, 6}, {1, 0, 7}, {2, 1, 8}};
    int in, out;
    topo::dist_graph_edges(all, 4, 1, &in, nullptr, nullptr, &out, nullptr, nullptr);
    EXPECT_EQ(in, 3);
    EXPECT_EQ(out, 1);
    std::vector<int> s(in), sw(in), d(out), dw(out);
    topo::dist_graph_edges(all, 4, 1, &in, s.data(), sw.data(), &out, d.data(), dw.data());
    EXPECT_EQ(s, (std::vector<int>{0, 0, 2}));
    EXPECT_EQ(sw, (std::vector<int>{5, 6, 8}));
    EXPECT_EQ(d, (std::vector<int>{0}));
    EXPECT_EQ(dw, (std::vector<int>{7}));
    topo::dist_graph_edges(all, 4, 0, &in, nullptr, nullptr, &out, nullptr, nullptr);
    EXPECT_EQ(in, 1);
    EXPECT_EQ(out, 2);
    topo::dist_graph_edges(all, 4, 3, &in, nullptr, nullptr, &out, nullptr, nullptr);
    EXPECT_EQ(in, 0);
    EXPECT_EQ(out, 0);
}
