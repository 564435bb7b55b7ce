// Communicator constructors and queries: dup, split, split_type, create, compare, group,
// free; messages on different communicators never match; context ids are reused.
#include <gtest/gtest.h>

#include <vector>

#include "tests/host/support/mpi_world.hpp"

namespace {

TEST(Comm, DupIsCongruentAndSeparatesTraffic)
{
    mpi_world::run(2, [](int rank) {
        MPI_Comm dup;
        ASSERT_EQ(MPI_Comm_dup(MPI_COMM_WORLD, &dup), MPI_SUCCESS);
        int result;
        MPI_Comm_compare(MPI_COMM_WORLD, dup, &result);
        EXPECT_EQ(result, MPI_CONGRUENT);
        MPI_Comm_compare(dup, dup, &result);
        EXPECT_EQ(result, MPI_IDENT);
        if (rank == 0) {
            int a = 1, b = 2;
            MPI_Send(&a, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
            MPI_Send(&b, 1, MPI_INT, 1, 0, dup);
        } else {
            int v = 0;
            MPI_Recv(&v, 1, MPI_INT, 0, 0, dup, MPI_STATUS_IGNORE);  // the world's message waits
            EXPECT_EQ(v, 2);
            MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            EXPECT_EQ(v, 1);
        }
        EXPECT_EQ(MPI_Comm_free(&dup), MPI_SUCCESS);
        EXPECT_EQ(dup, MPI_COMM_NULL);
    });
}

TEST(Comm, SplitOrdersByKeyThenRank)
{
    mpi_world::run({7, 3, false}, [](int rank) {
        MPI_Comm half;
        // Odd and even ranks, in reverse order of rank; rank 6 stays out.
        int color = rank == 6 ? MPI_UNDEFINED : rank % 2;
        ASSERT_EQ(MPI_Comm_split(MPI_COMM_WORLD, color, -rank, &half), MPI_SUCCESS);
        if (rank == 6) {
            EXPECT_EQ(half, MPI_COMM_NULL);
        } else {
            int size, me;
            MPI_Comm_size(half, &size);
            MPI_Comm_rank(half, &me);
            EXPECT_EQ(size, 3);
            int top = color == 0 ? 4 : 5;
            EXPECT_EQ(me, (top - rank) / 2);
            int sum = 0;
            MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, half);
            EXPECT_EQ(sum, color == 0 ? 0 + 2 + 4 : 1 + 3 + 5);
            int result;
            MPI_Comm_compare(MPI_COMM_WORLD, half, &result);
            EXPECT_EQ(result, MPI_UNEQUAL);
            MPI_Comm_free(&half);
        }
    });
}

TEST(Comm, SplitTypeSharedGivesTheRanksOfOneCluster)
{
    mpi_world::run({8, 3, false}, [](int rank) {
        MPI_Comm node;
        ASSERT_EQ(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node),
                  MPI_SUCCESS);
        int size;
        MPI_Comm_size(node, &size);
        // Scatter over 3 clusters: clusters 0 and 1 hold 3 ranks, cluster 2 holds 2.
        EXPECT_EQ(size, rank % 3 == 2 ? 2 : 3);
        std::vector<int> members(size);
        MPI_Allgather(&rank, 1, MPI_INT, members.data(), 1, MPI_INT, node);
        for (int m : members)
            EXPECT_EQ(m % 3, rank % 3);
        MPI_Comm_free(&node);
    });
}

TEST(Comm, CreateFromAGroupAndCompareGroups)
{
    mpi_world::run(5, [](int rank) {
        MPI_Group world, evens;
        MPI_Comm_group(MPI_COMM_WORLD, &world);
        int ranks[3] = {4, 2, 0};
        MPI_Group_incl(world, 3, ranks, &evens);
        MPI_Comm c;
        ASSERT_EQ(MPI_Comm_create(MPI_COMM_WORLD, evens, &c), MPI_SUCCESS);
        if (rank % 2) {
            EXPECT_EQ(c, MPI_COMM_NULL);
        } else {
            int me;
            MPI_Comm_rank(c, &me);
            EXPECT_EQ(me, (4 - rank) / 2);
            MPI_Group g;
            MPI_Comm_group(c, &g);
            int result;
            MPI_Group_compare(g, evens, &result);
            EXPECT_EQ(result, MPI_IDENT);
            MPI_Group_free(&g);
            int token = me == 0 ? 99 : -1;
            MPI_Bcast(&token, 1, MPI_INT, 0, c);
            EXPECT_EQ(token, 99);
            MPI_Comm_free(&c);
        }
        MPI_Group_free(&evens);
        MPI_Group_free(&world);
    });
}

TEST(Comm, ContextIdsAreReusedAfterFree)
{
    mpi_world::run(3, [](int) {
        for (int i = 0; i < 5000; i++) {  // more than there are context ids
            MPI_Comm c;
            ASSERT_EQ(MPI_Comm_dup(MPI_COMM_WORLD, &c), MPI_SUCCESS);
            ASSERT_EQ(MPI_Comm_free(&c), MPI_SUCCESS);
        }
    });
}

TEST(Comm, SelfIsAOneRankCommunicator)
{
    mpi_world::run(3, [](int rank) {
        int size, me;
        MPI_Comm_size(MPI_COMM_SELF, &size);
        MPI_Comm_rank(MPI_COMM_SELF, &me);
        EXPECT_EQ(size, 1);
        EXPECT_EQ(me, 0);
        int sum = 0;
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF);
        EXPECT_EQ(sum, rank);
    });
}

}  // namespace
