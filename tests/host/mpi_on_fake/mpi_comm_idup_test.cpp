// MPI_Comm_idup over the host fake transport, whose rank threads really run at once: many
// duplications outstanding on two communicators, interleaved differently on every rank (each
// communicator's own order is the same everywhere) and completed in any order; every member
// of a duplicate holds the same context id, from the idup range, and no rank holds one id
// twice.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "libmpi/comm.hpp"
#include "libmpi/config.hpp"
#include "tests/host/support/mpi_world.hpp"

namespace {

using mpi_world::Placement;

class CommIdup : public testing::TestWithParam<Placement> {};

std::string name_of(const testing::TestParamInfo<Placement>& info)
{
    return std::to_string(info.param.ranks) + "ranks_" + std::to_string(info.param.per_cluster) +
           (info.param.compact ? "_compact" : "_scatter");
}

int context_of(MPI_Comm comm) { return lwmpi::comm_get(comm)->context_id; }

TEST_P(CommIdup, OutstandingOnTwoCommunicatorsGetDistinctAgreedIds)
{
    mpi_world::run(GetParam(), [](int rank) {
        constexpr int kEach = 6;
        MPI_Comm a, b;
        ASSERT_EQ(MPI_Comm_dup(MPI_COMM_WORLD, &a), MPI_SUCCESS);
        ASSERT_EQ(MPI_Comm_dup(MPI_COMM_WORLD, &b), MPI_SUCCESS);
        std::vector<MPI_Comm> dups(2 * kEach);
        std::vector<MPI_Request> reqs(2 * kEach);
        // Rank r starts r % (kEach + 1) of a's before b's, then alternates.
        int next_a = 0, next_b = 0, lead = rank % (kEach + 1);
        for (int k = 0; k < 2 * kEach; k++) {
            bool take_a = next_b == kEach || (next_a < kEach && (next_a < lead || k % 2 == 0));
            int i = take_a ? next_a++ : kEach + next_b++;
            ASSERT_EQ(MPI_Comm_idup(take_a ? a : b, &dups[i], &reqs[i]), MPI_SUCCESS);
        }
        for (int k = 0; k < 2 * kEach; k++) {
            int index;
            ASSERT_EQ(MPI_Waitany(2 * kEach, reqs.data(), &index, MPI_STATUS_IGNORE), MPI_SUCCESS);
        }
        int n;
        MPI_Comm_size(MPI_COMM_WORLD, &n);
        std::set<int> mine = {context_of(MPI_COMM_WORLD), context_of(a), context_of(b)};
        for (int i = 0; i < 2 * kEach; i++) {
            int id = context_of(dups[i]);
            EXPECT_GE(id, lwmpi::kIdupContextFirst);
            EXPECT_TRUE(mine.insert(id).second) << "rank " << rank << " holds id " << id << " twice";
            // Every member agreed on it.
            int low = id, high = id;
            MPI_Allreduce(MPI_IN_PLACE, &low, 1, MPI_INT, MPI_MIN, dups[i]);
            MPI_Allreduce(MPI_IN_PLACE, &high, 1, MPI_INT, MPI_MAX, dups[i]);
            EXPECT_EQ(low, id);
            EXPECT_EQ(high, id);
            int size;
            MPI_Comm_size(dups[i], &size);
            EXPECT_EQ(size, n);
        }
        for (MPI_Comm& d : dups)
            MPI_Comm_free(&d);
        MPI_Comm_free(&a);
        MPI_Comm_free(&b);
    });
}

TEST(CommIdupErrors, Classes)
{
    mpi_world::run(2, [](int) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        MPI_Comm out;
        MPI_Request req;
        EXPECT_EQ(MPI_Comm_idup(MPI_COMM_NULL, &out, &req), MPI_ERR_COMM);
        EXPECT_EQ(MPI_Comm_idup(MPI_COMM_WORLD, nullptr, &req), MPI_ERR_ARG);
        EXPECT_EQ(MPI_Comm_idup(MPI_COMM_WORLD, &out, nullptr), MPI_ERR_ARG);
    });
}

INSTANTIATE_TEST_SUITE_P(Placements, CommIdup, testing::ValuesIn(mpi_world::sweep()), name_of);

}  // namespace
