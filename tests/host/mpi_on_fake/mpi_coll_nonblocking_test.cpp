// Nonblocking collectives over the host fake transport: several outstanding at once on one
// communicator and on several, started in the same order everywhere but completed in
// different orders; the schedules' tags; the schedule of a barrier; scratch bounds.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "libmpi/coll.hpp"
#include "libmpi/coll_engine.hpp"
#include "libmpi/comm.hpp"
#include "tests/host/support/mpi_world.hpp"

namespace {

using mpi_world::Placement;

class Nonblocking : public testing::TestWithParam<Placement> {};

std::string name_of(const testing::TestParamInfo<Placement>& info)
{
    return std::to_string(info.param.ranks) + "ranks_" + std::to_string(info.param.per_cluster) +
           (info.param.compact ? "_compact" : "_scatter");
}

TEST(ScheduleTags, FollowTheSequenceAndNeverUseTheExchangeTag)
{
    EXPECT_EQ(lwmpi::schedule_tag(0), 1);
    EXPECT_EQ(lwmpi::schedule_tag(1), 2);
    EXPECT_NE(lwmpi::schedule_tag(5), lwmpi::schedule_tag(6));
    // Wrapping around stays positive and away from tag 0.
    for (uint32_t s : {lwmpi::kScheduleTags - 1, lwmpi::kScheduleTags, 0xffffffffu}) {
        EXPECT_GT(lwmpi::schedule_tag(s), lwmpi::kCollTag);
        EXPECT_LE(lwmpi::schedule_tag(s), static_cast<int>(lwmpi::kScheduleTags));
    }
}

TEST_P(Nonblocking, OutstandingOnOneCommunicatorCompleteInAnyOrder)
{
    mpi_world::run(GetParam(), [](int rank) {
        int n;
        MPI_Comm_size(MPI_COMM_WORLD, &n);
        std::vector<MPI_Request> reqs(n + 2);
        std::vector<int> roots(n);
        for (int root = 0; root < n; root++) {
            roots[root] = rank == root ? root * 10 : -1;
            ASSERT_EQ(MPI_Ibcast(&roots[root], 1, MPI_INT, root, MPI_COMM_WORLD, &reqs[root]),
                      MPI_SUCCESS);
        }
        int one = rank + 1, sum = 0, prefix = 0;
        MPI_Iallreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[n]);
        MPI_Iscan(&one, &prefix, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[n + 1]);
        // Odd ranks wait last to first, even ranks first to last.
        for (int i = 0; i < n + 2; i++) {
            int k = rank % 2 ? n + 1 - i : i;
            MPI_Status st;
            ASSERT_EQ(MPI_Wait(&reqs[k], &st), MPI_SUCCESS);
            EXPECT_EQ(st.MPI_SOURCE, MPI_ANY_SOURCE);
            EXPECT_EQ(reqs[k], MPI_REQUEST_NULL);
        }
        for (int root = 0; root < n; root++)
            EXPECT_EQ(roots[root], root * 10);
        EXPECT_EQ(sum, n * (n + 1) / 2);
        EXPECT_EQ(prefix, (rank + 1) * (rank + 2) / 2);
    });
}

TEST_P(Nonblocking, ProgressWhileWaitingOnPointToPoint)
{
    // Each rank waits on a receive that its left neighbour posts only after its own Ibarrier
    // completed: the barrier must progress inside the blocking receive.
    mpi_world::run(GetParam(), [](int rank) {
        int n;
        MPI_Comm_size(MPI_COMM_WORLD, &n);
        MPI_Request barrier;
        MPI_Ibarrier(MPI_COMM_WORLD, &barrier);
        int token = -1;
        MPI_Request recv;
        MPI_Irecv(&token, 1, MPI_INT, (rank + n - 1) % n, 3, MPI_COMM_WORLD, &recv);
        int flag = 0;
        MPI_Test(&barrier, &flag, MPI_STATUS_IGNORE);
        if (!flag)
            MPI_Wait(&barrier, MPI_STATUS_IGNORE);
        MPI_Send(&rank, 1, MPI_INT, (rank + 1) % n, 3, MPI_COMM_WORLD);
        MPI_Wait(&recv, MPI_STATUS_IGNORE);
        EXPECT_EQ(token, (rank + n - 1) % n);
    });
}

TEST_P(Nonblocking, SeveralCommunicatorsAtOnceAndAFreedRequest)
{
    mpi_world::run(GetParam(), [](int rank) {
        MPI_Comm dup, half;
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
        int n, hn;
        MPI_Comm_size(MPI_COMM_WORLD, &n);
        MPI_Comm_size(half, &hn);
        int one = 1, a = 0, b = 0, c = 0;
        MPI_Request reqs[3];
        MPI_Iallreduce(&one, &a, 1, MPI_INT, MPI_SUM, half, &reqs[0]);
        MPI_Iallreduce(&one, &b, 1, MPI_INT, MPI_SUM, dup, &reqs[1]);
        MPI_Iallreduce(&one, &c, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[2]);
        int blocking = 0;
        MPI_Allreduce(&one, &blocking, 1, MPI_INT, MPI_SUM, dup);
        MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE);
        EXPECT_EQ(a, hn);
        EXPECT_EQ(b, n);
        EXPECT_EQ(c, n);
        EXPECT_EQ(blocking, n);
        // A freed request's buffer may be written until the operation ends, which nothing
        // tells this rank (MPI_Finalize waits for it): it must outlive this function, and
        // the calls after it must still match their own partners.
        static thread_local int v;
        v = rank == 0 ? 77 : 0;
        MPI_Request freed;
        MPI_Ibcast(&v, 1, MPI_INT, 0, dup, &freed);
        EXPECT_EQ(MPI_Request_free(&freed), MPI_SUCCESS);
        EXPECT_EQ(freed, MPI_REQUEST_NULL);
        MPI_Barrier(dup);
        int root_value = rank == 0 ? 78 : 0;
        MPI_Bcast(&root_value, 1, MPI_INT, 0, dup);
        EXPECT_EQ(root_value, 78);
        MPI_Comm_free(&dup);
        MPI_Comm_free(&half);
    });
}

TEST_P(Nonblocking, ErrorsAreReportedAtTheCall)
{
    mpi_world::run(GetParam(), [](int rank) {
        (void)rank;
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        int x = 0, y = 0;
        MPI_Request req = MPI_REQUEST_NULL;
        EXPECT_EQ(MPI_Ibarrier(MPI_COMM_WORLD, nullptr), MPI_ERR_ARG);
        EXPECT_EQ(MPI_Iallreduce(&x, &y, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req), MPI_ERR_COUNT);
        EXPECT_EQ(req, MPI_REQUEST_NULL);
        EXPECT_EQ(MPI_Ireduce(&x, &y, 1, MPI_INT, MPI_SUM, 1000, MPI_COMM_WORLD, &req), MPI_ERR_ROOT);
        EXPECT_EQ(MPI_Iallreduce(&x, &y, 1, MPI_INT, MPI_REPLACE, MPI_COMM_WORLD, &req), MPI_ERR_OP);
        ASSERT_EQ(MPI_Iallreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req), MPI_SUCCESS);
        EXPECT_EQ(MPI_Cancel(&req), MPI_ERR_REQUEST);
        EXPECT_EQ(MPI_Wait(&req, MPI_STATUS_IGNORE), MPI_SUCCESS);
    });
}

INSTANTIATE_TEST_SUITE_P(Placements, Nonblocking, testing::ValuesIn(mpi_world::sweep()), name_of);

// The steps a schedule holds, built on a rank's communicator (after MPI_Init on a fake world).
TEST(ScheduleBuild, BarrierIsUpThenDownTheTree)
{
    mpi_world::run({5, 2, true}, [](int rank) {
        lwmpi::Comm* c = lwmpi::comm_get(MPI_COMM_WORLD);
        ASSERT_NE(c, nullptr);
        uint32_t before = c->coll_sequence;
        lwmpi::Schedule* s = lwmpi::Schedule::create(*c);
        ASSERT_NE(s, nullptr);
        EXPECT_EQ(c->coll_sequence, before + 1);  // blocking and nonblocking share it
        lwmpi::build_barrier(*s);
        EXPECT_EQ(s->ready(), MPI_SUCCESS);
        lwmpi::TreeNode node;
        lwmpi::tree_node(c->layout, 0, rank, &node);
        // Rounds: receives from the children; the parent both ways; sends to the children.
        EXPECT_EQ(s->capacity_ops(), std::max(node.children, node.parent >= 0 ? 2 : 0));
        EXPECT_EQ(lwmpi::schedule_run(s), MPI_SUCCESS);
    });
}

// Scratch memory of the reductions, per rank (the operand is `span` bytes): leaves of the
// tree take none, Allreduce at most one operand, Reduce two at inner ranks, one at the root.
TEST(ScheduleBuild, ReductionsTakeAtMostTheirOperandsOfScratch)
{
    for (Placement p : {Placement{8, 4, true}, Placement{13, 5, false}}) {
        mpi_world::run(p, [](int rank) {
            lwmpi::Comm* c = lwmpi::comm_get(MPI_COMM_WORLD);
            ASSERT_NE(c, nullptr);
            std::vector<double> in(1000, rank), out(1000);
            lwmpi::ReduceShape shape;
            ASSERT_EQ(lwmpi::reduce_shape(MPI_DOUBLE, 1000, MPI_SUM, &shape), MPI_SUCCESS);
            lwmpi::TreeNode node;
            lwmpi::tree_node(c->layout, 0, rank, &node);

            lwmpi::Schedule* s = lwmpi::Schedule::create(*c);
            lwmpi::build_allreduce(*s, in.data(), out.data(), shape, MPI_SUM);
            EXPECT_EQ(s->scratch_bytes(), node.children > 0 ? shape.span : 0) << "rank " << rank;
            EXPECT_EQ(lwmpi::schedule_run(s), MPI_SUCCESS);
            EXPECT_EQ(out[999], c->size * (c->size - 1) / 2.0);

            s = lwmpi::Schedule::create(*c);
            lwmpi::build_reduce(*s, in.data(), out.data(), shape, MPI_SUM, 0);
            size_t most = rank == 0 ? shape.span : node.children > 1 ? 2 * shape.span
                                                  : node.children * shape.span;
            EXPECT_EQ(s->scratch_bytes(), most) << "rank " << rank;
            EXPECT_EQ(lwmpi::schedule_run(s), MPI_SUCCESS);

            s = lwmpi::Schedule::create(*c);
            lwmpi::build_scan(*s, in.data(), out.data(), shape, MPI_SUM, true);
            EXPECT_LE(s->scratch_bytes(), 2 * shape.span);
            EXPECT_EQ(lwmpi::schedule_run(s), MPI_SUCCESS);
            if (rank > 0) {
                EXPECT_EQ(out[0], rank * (rank - 1) / 2.0);
            }
        });
    }
}

}  // namespace
