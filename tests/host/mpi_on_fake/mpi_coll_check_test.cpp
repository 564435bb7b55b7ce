// Argument checks of the collectives with MPI_ERRORS_RETURN, over the host fake transport:
// every rank gets the class (MPI_ERR_OP for MPI_REPLACE and MPI_NO_OP, MPI_ERR_BUFFER for
// null and aliased buffers and misplaced MPI_IN_PLACE), nobody hangs, and the communicator
// still works afterwards. The overlap helper on its own.
#include <gtest/gtest.h>

#include <vector>

#include "libmpi/coll_check.hpp"
#include "tests/host/support/mpi_world.hpp"

namespace {

// A correct Allreduce after the errors: the communicator still works.
void expect_working(int n)
{
    int one = 1, sum = 0;
    EXPECT_EQ(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_SUCCESS);
    EXPECT_EQ(sum, n);
}

int size_of_world()
{
    int n;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    return n;
}

TEST(CollCheck, OneSidedOpsAreRefusedByEveryReduction)
{
    mpi_world::run(5, [](int) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        const int n = size_of_world();
        std::vector<int> in(n, 1), out(n, 0), counts(n, 1);
        for (MPI_Op op : {MPI_REPLACE, MPI_NO_OP, MPI_OP_NULL}) {
            EXPECT_EQ(MPI_Reduce(in.data(), out.data(), 1, MPI_INT, op, 0, MPI_COMM_WORLD), MPI_ERR_OP);
            EXPECT_EQ(MPI_Allreduce(in.data(), out.data(), 1, MPI_INT, op, MPI_COMM_WORLD), MPI_ERR_OP);
            EXPECT_EQ(MPI_Scan(in.data(), out.data(), 1, MPI_INT, op, MPI_COMM_WORLD), MPI_ERR_OP);
            EXPECT_EQ(MPI_Exscan(in.data(), out.data(), 1, MPI_INT, op, MPI_COMM_WORLD), MPI_ERR_OP);
            EXPECT_EQ(MPI_Reduce_scatter(in.data(), out.data(), counts.data(), MPI_INT, op,
                                         MPI_COMM_WORLD),
                      MPI_ERR_OP);
            EXPECT_EQ(MPI_Reduce_scatter_block(in.data(), out.data(), 1, MPI_INT, op, MPI_COMM_WORLD),
                      MPI_ERR_OP);
        }
        expect_working(n);
    });
}

TEST(CollCheck, SameBufferInAndOutIsRefusedByEveryReduction)
{
    mpi_world::run(4, [](int) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        const int n = size_of_world();
        std::vector<int> buf(2 * n, 1), counts(n, 1);
        int* b = buf.data();
        EXPECT_EQ(MPI_Reduce(b, b, 2, MPI_INT, MPI_SUM, 1, MPI_COMM_WORLD), MPI_ERR_BUFFER);
        EXPECT_EQ(MPI_Allreduce(b, b, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER);
        EXPECT_EQ(MPI_Allreduce(b, b + 1, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER);
        EXPECT_EQ(MPI_Scan(b, b, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER);
        EXPECT_EQ(MPI_Exscan(b, b, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER);
        EXPECT_EQ(MPI_Reduce_scatter(b, b, counts.data(), MPI_INT, MPI_SUM, MPI_COMM_WORLD),
                  MPI_ERR_BUFFER);
        EXPECT_EQ(MPI_Reduce_scatter_block(b, b + n - 1, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
                  MPI_ERR_BUFFER);
        // Adjacent, not overlapping: fine.
        EXPECT_EQ(MPI_Allreduce(b, b + 2, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_SUCCESS);
        expect_working(n);
    });
}

TEST(CollCheck, NullBuffersWithDataAreRefusedEverywhere)
{
    mpi_world::run(3, [](int) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        const int n = size_of_world();
        std::vector<int> buf(4 * n, 1), out(4 * n, 0), counts(n, 2), displs(n, 0);
        for (int r = 0; r < n; r++)
            displs[r] = 2 * r;
        int* b = buf.data();
        int* o = out.data();
        EXPECT_EQ(MPI_Reduce_scatter(nullptr, o, counts.data(), MPI_INT, MPI_SUM, MPI_COMM_WORLD),
                  MPI_ERR_BUFFER);
        EXPECT_EQ(MPI_Reduce_scatter(b, nullptr, counts.data(), MPI_INT, MPI_SUM, MPI_COMM_WORLD),
                  MPI_ERR_BUFFER);
        EXPECT_EQ(MPI_Reduce_scatter_block(nullptr, o, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
                  MPI_ERR_BUFFER);
        EXPECT_EQ(MPI_Scan(nullptr, o, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER);
        EXPECT_EQ(MPI_Bcast(nullptr, 1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
        // Only the root's receive buffer matters: its error reaches every rank.
        EXPECT_EQ(MPI_Reduce(b, nullptr, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
        EXPECT_EQ(MPI_Gather(b, 2, MPI_INT, nullptr, 2, MPI_INT, 1, MPI_COMM_WORLD), MPI_ERR_BUFFER);
        EXPECT_EQ(MPI_Gatherv(b, 2, MPI_INT, nullptr, counts.data(), displs.data(), MPI_INT, 1,
                              MPI_COMM_WORLD),
                  MPI_ERR_BUFFER);
        EXPECT_EQ(MPI_Scatterv(nullptr, counts.data(), displs.data(), MPI_INT, o, 2, MPI_INT, 2,
                               MPI_COMM_WORLD),
                  MPI_ERR_BUFFER);
        EXPECT_EQ(MPI_Allgatherv(b, 2, MPI_INT, nullptr, counts.data(), displs.data(), MPI_INT,
                                 MPI_COMM_WORLD),
                  MPI_ERR_BUFFER);
        EXPECT_EQ(MPI_Alltoall(nullptr, 1, MPI_INT, o, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER);
        // A null buffer with nothing in it is fine.
        EXPECT_EQ(MPI_Allreduce(nullptr, nullptr, 0, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_SUCCESS);
        expect_working(n);
    });
}

TEST(CollCheck, AliasedAndMisplacedInPlaceBuffersOfTheDataMovers)
{
    mpi_world::run(4, [](int) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        const int n = size_of_world();
        std::vector<int> buf(4 * n, 1), counts(n, 1), displs(n, 0);
        for (int r = 0; r < n; r++)
            displs[r] = 2 * r;  // every other int
        int* b = buf.data();
        EXPECT_EQ(MPI_Gather(b, 1, MPI_INT, b, 1, MPI_INT, 2, MPI_COMM_WORLD), MPI_ERR_BUFFER);
        EXPECT_EQ(MPI_Scatter(b, 1, MPI_INT, b + n - 1, 1, MPI_INT, 0, MPI_COMM_WORLD),
                  MPI_ERR_BUFFER);
        EXPECT_EQ(MPI_Allgather(b + 1, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER);
        EXPECT_EQ(MPI_Alltoall(b, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER);
        EXPECT_EQ(MPI_Alltoallv(b, counts.data(), displs.data(), MPI_INT, b, counts.data(),
                                displs.data(), MPI_INT, MPI_COMM_WORLD),
                  MPI_ERR_BUFFER);
        // The send block in a gap between the v-form's receive blocks does not overlap.
        EXPECT_EQ(MPI_Gatherv(b + 1, 1, MPI_INT, b, counts.data(), displs.data(), MPI_INT, 0,
                              MPI_COMM_WORLD),
                  MPI_SUCCESS);
        // MPI_IN_PLACE where the standard does not allow it.
        EXPECT_EQ(MPI_Bcast(MPI_IN_PLACE, 1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
        EXPECT_EQ(MPI_Allreduce(b, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER);
        EXPECT_EQ(MPI_Scatter(MPI_IN_PLACE, 1, MPI_INT, b, 1, MPI_INT, 0, MPI_COMM_WORLD),
                  MPI_ERR_BUFFER);
        EXPECT_EQ(MPI_Alltoall(b, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, MPI_COMM_WORLD),
                  MPI_ERR_BUFFER);
        // The root's receive buffer in place is refused, and the root's verdict reaches all.
        EXPECT_EQ(MPI_Gather(b, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, 3, MPI_COMM_WORLD),
                  MPI_ERR_BUFFER);
        expect_working(n);
    });
}

TEST(CollCheck, OverlapIsExactForDenseLayoutsOnly)
{
    mpi_world::run(1, [](int) {
        int buf[8] = {};
        EXPECT_TRUE(lwmpi::aliased(buf, 4, MPI_INT, buf + 3, 4, MPI_INT));
        EXPECT_FALSE(lwmpi::aliased(buf, 4, MPI_INT, buf + 4, 4, MPI_INT));
        EXPECT_FALSE(lwmpi::aliased(buf, 0, MPI_INT, buf, 4, MPI_INT));
        EXPECT_FALSE(lwmpi::aliased(MPI_IN_PLACE, 4, MPI_INT, buf, 4, MPI_INT));
        // Every other int, starting at buf and at buf + 1: interleaved, legal.
        MPI_Datatype every_other;
        MPI_Type_vector(4, 1, 2, MPI_INT, &every_other);
        MPI_Type_commit(&every_other);
        EXPECT_FALSE(lwmpi::aliased(buf, 1, every_other, buf + 1, 1, every_other));
        EXPECT_TRUE(lwmpi::aliased(buf, 1, every_other, buf, 1, every_other));
        MPI_Type_free(&every_other);
    });
}

}  // namespace
