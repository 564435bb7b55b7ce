// Intercommunicators over many placements: groups of every size split (one rank against the
// rest, uneven halves), all-pairs traffic, collectives with MPI_ROOT/MPI_PROC_NULL, merge,
// and context ids returned by MPI_Comm_free (many create/free rounds never run out).
#include <gtest/gtest.h>

#include <vector>

#include "tests/host/support/mpi_world.hpp"

namespace {

// The world split as ranks < cut (group 0) and the rest, joined over MPI_COMM_WORLD.
struct Split {
    int group;
    int size[2];
    MPI_Comm half;
    MPI_Comm inter;
};

Split make(int rank, int world, int cut)
{
    Split s;
    s.group = rank >= cut;
    s.size[0] = cut;
    s.size[1] = world - cut;
    EXPECT_EQ(MPI_Comm_split(MPI_COMM_WORLD, s.group, rank, &s.half), MPI_SUCCESS);
    int remote_leader = s.group == 0 ? cut : 0;
    EXPECT_EQ(MPI_Intercomm_create(s.half, 0, MPI_COMM_WORLD, remote_leader, 9, &s.inter), MPI_SUCCESS);
    return s;
}

void release(Split& s)
{
    MPI_Comm_free(&s.inter);
    MPI_Comm_free(&s.half);
}

int world_of(const Split& s, int g, int r) { return g == 0 ? r : s.size[0] + r; }

TEST(Intercomm, EveryCutOfEveryPlacement)
{
    for (const auto& p : mpi_world::sweep()) {
        if (p.ranks < 2)
            continue;
        for (int cut = 1; cut < p.ranks; cut++) {
            mpi_world::run(p, [&](int rank) {
                Split s = make(rank, p.ranks, cut);
                int me = s.group, other = 1 - me, local_rank, remote_size;
                MPI_Comm_rank(s.inter, &local_rank);
                MPI_Comm_remote_size(s.inter, &remote_size);
                ASSERT_EQ(remote_size, s.size[other]);

                // Alltoall: block j from remote j names both ends.
                std::vector<int> out(remote_size), in(remote_size, -1);
                for (int j = 0; j < remote_size; j++)
                    out[j] = rank * 1000 + world_of(s, other, j);
                MPI_Alltoall(out.data(), 1, MPI_INT, in.data(), 1, MPI_INT, s.inter);
                for (int j = 0; j < remote_size; j++)
                    EXPECT_EQ(in[j], world_of(s, other, j) * 1000 + rank);

                // Bcast from the last member of group 1.
                int root = s.size[1] - 1, value = me == 1 && local_rank == root ? 4242 : -1;
                int arg = me == 0 ? root : local_rank == root ? MPI_ROOT : MPI_PROC_NULL;
                MPI_Bcast(&value, 1, MPI_INT, arg, s.inter);
                EXPECT_EQ(value, arg == MPI_PROC_NULL ? -1 : 4242);

                // Allreduce: the other group's sum of world ranks.
                int sum = -1, expect = 0;
                for (int j = 0; j < remote_size; j++)
                    expect += world_of(s, other, j);
                MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, s.inter);
                EXPECT_EQ(sum, expect);

                // Merge with group 0 high: group 1 comes first.
                MPI_Comm merged;
                ASSERT_EQ(MPI_Intercomm_merge(s.inter, me == 0, &merged), MPI_SUCCESS);
                int merged_rank;
                MPI_Comm_rank(merged, &merged_rank);
                EXPECT_EQ(merged_rank, me == 1 ? local_rank : s.size[1] + local_rank);
                MPI_Barrier(merged);
                MPI_Comm_free(&merged);
                MPI_Barrier(s.inter);
                release(s);
            });
        }
    }
}

TEST(Intercomm, ContextIdsComeBackAfterFree)
{
    mpi_world::run({6, 2, false}, [](int rank) {
        // Far more rounds than there are context ids.
        for (int round = 0; round < 5000; round++) {
            Split s = make(rank, 6, 1 + round % 5);
            MPI_Comm dup;
            ASSERT_EQ(MPI_Comm_dup(s.inter, &dup), MPI_SUCCESS);
            MPI_Comm_free(&dup);
            release(s);
        }
    });
}

TEST(Intercomm, NestedSplitThenMerge)
{
    mpi_world::run({9, 3, true}, [](int rank) {
        Split s = make(rank, 9, 4);
        int local_rank;
        MPI_Comm_rank(s.inter, &local_rank);
        // Three colors by local rank: each is present in both groups (4 and 5 members).
        MPI_Comm part;
        int color = local_rank % 3;
        ASSERT_EQ(MPI_Comm_split(s.inter, color, 0, &part), MPI_SUCCESS);
        ASSERT_NE(part, MPI_COMM_NULL);
        MPI_Comm merged;
        ASSERT_EQ(MPI_Intercomm_merge(part, s.group, &merged), MPI_SUCCESS);
        int size, sum = 0;
        MPI_Comm_size(merged, &size);
        // Colors 0, 1, 2 have (2, 1, 1) members in group 0 and (2, 2, 1) in group 1.
        const int expect[3] = {4, 3, 2};
        EXPECT_EQ(size, expect[color]);
        MPI_Allreduce(&color, &sum, 1, MPI_INT, MPI_SUM, merged);
        EXPECT_EQ(sum, color * size);
        MPI_Comm_free(&merged);
        MPI_Comm_free(&part);
        release(s);
    });
}

}  // namespace
