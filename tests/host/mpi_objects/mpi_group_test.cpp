// Groups: construction, rank lookups, set operations, ranges, translation, comparison,
// reference counts and error classes (MPI 3.1 section 6.3).
#include <gtest/gtest.h>
#include <mpi.h>

#include <vector>

#include "libmpi/group.hpp"
#include "tests/host/mpi_objects/mpi_obj_doubles.hpp"

namespace {

MPI_Group make(std::vector<int> world) {
    MPI_Group g = MPI_GROUP_NULL;
    EXPECT_EQ(lwmpi::group_make(world.data(), static_cast<int>(world.size()), &g), MPI_SUCCESS);
    return g;
}

std::vector<int> members(MPI_Group g) {
    const int* world = lwmpi::group_world_ranks(g);
    return std::vector<int>(world, world + lwmpi::group_size(g));
}

// World ranks 10, 11, ..., 10 + n - 1 (a "world" of n ranks, offset to catch mix-ups).
MPI_Group world_of(int n) {
    std::vector<int> w;
    for (int i = 0; i < n; i++) w.push_back(10 + i);
    return make(w);
}

TEST(Group, MakeKeepsOrderAndLooksUpWorldRanks) {
    MPI_Group g = make({7, 3, 12, 0});
    int size = -1;
    ASSERT_EQ(MPI_Group_size(g, &size), MPI_SUCCESS);
    EXPECT_EQ(size, 4);
    EXPECT_EQ(members(g), (std::vector<int>{7, 3, 12, 0}));
    EXPECT_EQ(lwmpi::group_rank_of_world(g, 12), 2);
    EXPECT_EQ(lwmpi::group_rank_of_world(g, 0), 3);
    EXPECT_EQ(lwmpi::group_rank_of_world(g, 5), MPI_UNDEFINED);
    int rank = -5;
    mpi_obj_test::world_rank = 3;
    ASSERT_EQ(MPI_Group_rank(g, &rank), MPI_SUCCESS);
    EXPECT_EQ(rank, 1);
    mpi_obj_test::world_rank = 4;
    ASSERT_EQ(MPI_Group_rank(g, &rank), MPI_SUCCESS);
    EXPECT_EQ(rank, MPI_UNDEFINED);
    MPI_Group_free(&g);
    EXPECT_EQ(g, MPI_GROUP_NULL);
}

// World ranks 0..n-1 in order keep no list of their own (the world's is shared): members,
// lookups, translation and set operations come out as for any other group.
TEST(Group, WorldRanksInOrderNeedNoListOfTheirOwn) {
    MPI_Group whole = make({0, 1, 2, 3, 4, 5});
    MPI_Group part = make({0, 1, 2});
    MPI_Group other = make({2, 1, 0});
    EXPECT_TRUE(lwmpi::in_world_order(std::vector<int>{0, 1, 2}.data(), 3));
    EXPECT_FALSE(lwmpi::in_world_order(std::vector<int>{1, 2}.data(), 2));
    EXPECT_EQ(members(whole), (std::vector<int>{0, 1, 2, 3, 4, 5}));
    EXPECT_EQ(members(part), (std::vector<int>{0, 1, 2}));
    EXPECT_EQ(lwmpi::group_rank_of_world(part, 2), 2);
    EXPECT_EQ(lwmpi::group_rank_of_world(part, 3), MPI_UNDEFINED);
    EXPECT_EQ(lwmpi::group_rank_of_world(part, -1), MPI_UNDEFINED);
    EXPECT_EQ(lwmpi::group_rank_of_world(other, 0), 2);
    int ranks[3] = {0, 1, 2}, out[3] = {-5, -5, -5};
    ASSERT_EQ(MPI_Group_translate_ranks(part, 3, ranks, other, out), MPI_SUCCESS);
    EXPECT_EQ(std::vector<int>(out, out + 3), (std::vector<int>{2, 1, 0}));
    MPI_Group diff = MPI_GROUP_NULL;
    ASSERT_EQ(MPI_Group_difference(whole, part, &diff), MPI_SUCCESS);
    EXPECT_EQ(members(diff), (std::vector<int>{3, 4, 5}));
    int result = -1;
    ASSERT_EQ(MPI_Group_compare(part, other, &result), MPI_SUCCESS);
    EXPECT_EQ(result, MPI_SIMILAR);
    for (MPI_Group* g : {&whole, &part, &other, &diff}) EXPECT_EQ(MPI_Group_free(g), MPI_SUCCESS);
}

TEST(Group, MakeRefusesRepeatedOrNegativeWorldRanks) {
    MPI_Group g = MPI_GROUP_NULL;
    const int repeated[] = {1, 2, 1};
    const int negative[] = {1, -2};
    EXPECT_EQ(lwmpi::group_make(repeated, 3, &g), MPI_ERR_RANK);
    EXPECT_EQ(lwmpi::group_make(negative, 2, &g), MPI_ERR_RANK);
    EXPECT_EQ(lwmpi::group_make(repeated, -1, &g), MPI_ERR_ARG);
    EXPECT_EQ(lwmpi::group_make(nullptr, 2, &g), MPI_ERR_ARG);
    EXPECT_EQ(g, MPI_GROUP_NULL);
    EXPECT_EQ(lwmpi::group_make(nullptr, 0, &g), MPI_SUCCESS);
    EXPECT_EQ(g, MPI_GROUP_EMPTY);
}

TEST(Group, EmptyGroupIsPredefined) {
    int size = -1, rank = -1;
    ASSERT_EQ(MPI_Group_size(MPI_GROUP_EMPTY, &size), MPI_SUCCESS);
    EXPECT_EQ(size, 0);
    ASSERT_EQ(MPI_Group_rank(MPI_GROUP_EMPTY, &rank), MPI_SUCCESS);
    EXPECT_EQ(rank, MPI_UNDEFINED);
    MPI_Group empty = MPI_GROUP_EMPTY;
    EXPECT_EQ(MPI_Group_free(&empty), MPI_SUCCESS);
    EXPECT_EQ(lwmpi::group_check(MPI_GROUP_EMPTY), MPI_SUCCESS);  // still usable
}

TEST(Group, InclAndExcl) {
    MPI_Group w = world_of(6);
    MPI_Group incl, excl;
    const int ranks[] = {4, 0, 2};
    ASSERT_EQ(MPI_Group_incl(w, 3, ranks, &incl), MPI_SUCCESS);
    EXPECT_EQ(members(incl), (std::vector<int>{14, 10, 12}));
    ASSERT_EQ(MPI_Group_excl(w, 3, ranks, &excl), MPI_SUCCESS);
    EXPECT_EQ(members(excl), (std::vector<int>{11, 13, 15}));
    MPI_Group none;
    ASSERT_EQ(MPI_Group_incl(w, 0, nullptr, &none), MPI_SUCCESS);
    EXPECT_EQ(none, MPI_GROUP_EMPTY);
    MPI_Group all;
    ASSERT_EQ(MPI_Group_excl(w, 0, nullptr, &all), MPI_SUCCESS);
    int result = -1;
    ASSERT_EQ(MPI_Group_compare(all, w, &result), MPI_SUCCESS);
    EXPECT_EQ(result, MPI_IDENT);
    for (MPI_Group* g : {&w, &incl, &excl, &all}) ASSERT_EQ(MPI_Group_free(g), MPI_SUCCESS);
}

TEST(Group, InclAndExclRefuseBadRanks) {
    MPI_Group w = world_of(4);
    MPI_Group out = MPI_GROUP_NULL;
    const int out_of_range[] = {0, 4};
    const int repeated[] = {1, 1};
    const int negative[] = {-1};
    EXPECT_EQ(MPI_Group_incl(w, 2, out_of_range, &out), MPI_ERR_RANK);
    EXPECT_EQ(MPI_Group_incl(w, 2, repeated, &out), MPI_ERR_RANK);
    EXPECT_EQ(MPI_Group_excl(w, 1, negative, &out), MPI_ERR_RANK);
    EXPECT_EQ(MPI_Group_excl(w, 2, repeated, &out), MPI_ERR_RANK);
    EXPECT_EQ(MPI_Group_incl(w, -1, repeated, &out), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Group_incl(w, 1, nullptr, &out), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Group_incl(w, 1, repeated, nullptr), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Group_incl(MPI_GROUP_NULL, 1, repeated, &out), MPI_ERR_GROUP);
    EXPECT_STREQ(mpi_obj_test::last_error.call, "MPI_Group_incl");
    EXPECT_EQ(out, MPI_GROUP_NULL);
    MPI_Group_free(&w);
}

TEST(Group, RangeInclAndExclWithPositiveAndNegativeStrides) {
    MPI_Group w = world_of(10);
    int ranges[2][3] = {{1, 7, 3}, {9, 8, -1}};  // 1 4 7, 9 8
    MPI_Group incl, excl;
    ASSERT_EQ(MPI_Group_range_incl(w, 2, ranges, &incl), MPI_SUCCESS);
    EXPECT_EQ(members(incl), (std::vector<int>{11, 14, 17, 19, 18}));
    ASSERT_EQ(MPI_Group_range_excl(w, 2, ranges, &excl), MPI_SUCCESS);
    EXPECT_EQ(members(excl), (std::vector<int>{10, 12, 13, 15, 16}));
    int single[1][3] = {{5, 5, 2}};
    MPI_Group one;
    ASSERT_EQ(MPI_Group_range_incl(w, 1, single, &one), MPI_SUCCESS);
    EXPECT_EQ(members(one), (std::vector<int>{15}));
    for (MPI_Group* g : {&w, &incl, &excl, &one}) ASSERT_EQ(MPI_Group_free(g), MPI_SUCCESS);
}

TEST(Group, RangesRefuseZeroStrideOutOfRangeAndOverlap) {
    MPI_Group w = world_of(5);
    MPI_Group out = MPI_GROUP_NULL;
    int zero_stride[1][3] = {{0, 4, 0}};
    int out_of_range[1][3] = {{0, 5, 1}};
    int wrong_way[1][3] = {{4, 0, 1}};
    int overlap[2][3] = {{0, 2, 1}, {2, 3, 1}};
    EXPECT_EQ(MPI_Group_range_incl(w, 1, zero_stride, &out), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Group_range_incl(w, 1, out_of_range, &out), MPI_ERR_RANK);
    EXPECT_EQ(MPI_Group_range_excl(w, 1, wrong_way, &out), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Group_range_incl(w, 2, overlap, &out), MPI_ERR_RANK);
    EXPECT_EQ(MPI_Group_range_excl(w, 2, overlap, &out), MPI_ERR_RANK);
    EXPECT_EQ(out, MPI_GROUP_NULL);
    MPI_Group_free(&w);
}

TEST(Group, UnionIntersectionDifferenceKeepTheStandardOrder) {
    MPI_Group a = make({5, 1, 3, 7});
    MPI_Group b = make({2, 3, 9, 5});
    MPI_Group u, i, d;
    ASSERT_EQ(MPI_Group_union(a, b, &u), MPI_SUCCESS);
    EXPECT_EQ(members(u), (std::vector<int>{5, 1, 3, 7, 2, 9}));
    ASSERT_EQ(MPI_Group_intersection(a, b, &i), MPI_SUCCESS);
    EXPECT_EQ(members(i), (std::vector<int>{5, 3}));
    ASSERT_EQ(MPI_Group_difference(a, b, &d), MPI_SUCCESS);
    EXPECT_EQ(members(d), (std::vector<int>{1, 7}));
    MPI_Group empty;
    ASSERT_EQ(MPI_Group_difference(a, a, &empty), MPI_SUCCESS);
    EXPECT_EQ(empty, MPI_GROUP_EMPTY);
    MPI_Group same;
    ASSERT_EQ(MPI_Group_union(a, MPI_GROUP_EMPTY, &same), MPI_SUCCESS);
    EXPECT_EQ(members(same), members(a));
    EXPECT_EQ(MPI_Group_union(a, MPI_GROUP_NULL, &same), MPI_ERR_GROUP);
    EXPECT_EQ(MPI_Group_intersection(a, b, nullptr), MPI_ERR_ARG);
    for (MPI_Group* g : {&a, &b, &u, &i, &d, &same}) ASSERT_EQ(MPI_Group_free(g), MPI_SUCCESS);
}

TEST(Group, TranslateRanksIncludingProcNullAndAbsentMembers) {
    MPI_Group a = make({5, 1, 3, 7});
    MPI_Group b = make({3, 5});
    const int in[] = {0, 1, 2, MPI_PROC_NULL, 3};
    int out[5] = {};
    ASSERT_EQ(MPI_Group_translate_ranks(a, 5, in, b, out), MPI_SUCCESS);
    EXPECT_EQ(out[0], 1);
    EXPECT_EQ(out[1], MPI_UNDEFINED);
    EXPECT_EQ(out[2], 0);
    EXPECT_EQ(out[3], MPI_PROC_NULL);
    EXPECT_EQ(out[4], MPI_UNDEFINED);
    const int bad[] = {4};
    EXPECT_EQ(MPI_Group_translate_ranks(a, 1, bad, b, out), MPI_ERR_RANK);
    EXPECT_EQ(MPI_Group_translate_ranks(a, -1, bad, b, out), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Group_translate_ranks(a, 1, bad, MPI_GROUP_NULL, out), MPI_ERR_GROUP);
    EXPECT_EQ(MPI_Group_translate_ranks(a, 0, nullptr, b, nullptr), MPI_SUCCESS);
    MPI_Group_free(&a);
    MPI_Group_free(&b);
}

TEST(Group, CompareIdentSimilarUnequal) {
    MPI_Group a = make({1, 2, 3});
    MPI_Group a2 = make({1, 2, 3});
    MPI_Group shuffled = make({3, 1, 2});
    MPI_Group other = make({1, 2, 4});
    MPI_Group shorter = make({1, 2});
    int result = -1;
    ASSERT_EQ(MPI_Group_compare(a, a2, &result), MPI_SUCCESS);
    EXPECT_EQ(result, MPI_IDENT);
    ASSERT_EQ(MPI_Group_compare(a, shuffled, &result), MPI_SUCCESS);
    EXPECT_EQ(result, MPI_SIMILAR);
    ASSERT_EQ(MPI_Group_compare(a, other, &result), MPI_SUCCESS);
    EXPECT_EQ(result, MPI_UNEQUAL);
    ASSERT_EQ(MPI_Group_compare(a, shorter, &result), MPI_SUCCESS);
    EXPECT_EQ(result, MPI_UNEQUAL);
    ASSERT_EQ(MPI_Group_compare(MPI_GROUP_EMPTY, MPI_GROUP_EMPTY, &result), MPI_SUCCESS);
    EXPECT_EQ(result, MPI_IDENT);
    EXPECT_EQ(MPI_Group_compare(a, MPI_COMM_WORLD, &result), MPI_ERR_GROUP);
    for (MPI_Group* g : {&a, &a2, &shuffled, &other, &shorter}) ASSERT_EQ(MPI_Group_free(g), MPI_SUCCESS);
}

TEST(Group, ReferenceCountsKeepARetainedGroupAlive) {
    MPI_Group g = make({4, 2});
    const MPI_Group held = g;
    lwmpi::group_retain(held);  // as a communicator built on it would
    ASSERT_EQ(MPI_Group_free(&g), MPI_SUCCESS);
    EXPECT_EQ(lwmpi::group_check(held), MPI_SUCCESS);
    EXPECT_EQ(lwmpi::group_rank_of_world(held, 2), 1);
    lwmpi::group_release(held);
    EXPECT_EQ(lwmpi::group_check(held), MPI_ERR_GROUP);
    MPI_Group stale = held;
    EXPECT_EQ(MPI_Group_free(&stale), MPI_ERR_GROUP);
    int size = 0;
    EXPECT_EQ(MPI_Group_size(stale, &size), MPI_ERR_GROUP);
    EXPECT_EQ(MPI_Group_free(nullptr), MPI_ERR_ARG);
}

TEST(Group, LargeGroupsLookUpEveryMember) {
    std::vector<int> world;
    for (int i = 0; i < 1000; i++) world.push_back((i * 7919) % 1000);  // a permutation
    MPI_Group g = make(world);
    for (int i = 0; i < 1000; i++) ASSERT_EQ(lwmpi::group_rank_of_world(g, world[static_cast<size_t>(i)]), i);
    EXPECT_EQ(lwmpi::group_rank_of_world(g, 1000), MPI_UNDEFINED);
    EXPECT_EQ(lwmpi::group_rank_of_world(g, -1), MPI_UNDEFINED);
    MPI_Group_free(&g);
}

}  // namespace

namespace {

TEST(Group, FinalizeDestroysEveryGroup) {
    MPI_Group a = make({1, 2});
    MPI_Group b = make({3});
    lwmpi::group_retain(a);
    lwmpi::group_finalize();  // leak-checked by the sanitizer
    EXPECT_EQ(lwmpi::group_check(a), MPI_ERR_GROUP);
    EXPECT_EQ(lwmpi::group_check(b), MPI_ERR_GROUP);
    lwmpi::group_release(a);  // a no-op now
    EXPECT_EQ(lwmpi::group_check(MPI_GROUP_EMPTY), MPI_SUCCESS);
    MPI_Group c = make({5, 6});
    EXPECT_EQ(members(c), (std::vector<int>{5, 6}));
    MPI_Group_free(&c);
}

}  // namespace
