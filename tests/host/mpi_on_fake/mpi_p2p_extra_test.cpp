// Matched probes, buffered mode, added error classes and the status setters of libmpi over
// the host fake transport (the guest programs in tests/mpi_suite run the same on the board).
#include <gtest/gtest.h>

#include <vector>

#include "tests/host/support/mpi_world.hpp"

namespace {

TEST(MatchedProbe, TakesTheMessageOutOfMatching)
{
    mpi_world::run(2, [](int rank) {
        if (rank == 0) {
            int a[3] = {1, 2, 3}, b[2] = {4, 5};
            MPI_Send(a, 3, MPI_INT, 1, 7, MPI_COMM_WORLD);
            MPI_Send(b, 2, MPI_INT, 1, 7, MPI_COMM_WORLD);
            return;
        }
        MPI_Message msg = MPI_MESSAGE_NULL;
        MPI_Status st;
        ASSERT_EQ(MPI_Mprobe(0, 7, MPI_COMM_WORLD, &msg, &st), MPI_SUCCESS);
        int count = -1;
        MPI_Get_count(&st, MPI_INT, &count);
        EXPECT_EQ(count, 3);
        int b[3] = {};
        MPI_Recv(b, 3, MPI_INT, 0, 7, MPI_COMM_WORLD, &st);  // the second message
        MPI_Get_count(&st, MPI_INT, &count);
        EXPECT_EQ(count, 2);
        EXPECT_EQ(b[0], 4);
        int flag = 1;
        MPI_Message none = MPI_MESSAGE_NULL;
        MPI_Improbe(0, 7, MPI_COMM_WORLD, &flag, &none, MPI_STATUS_IGNORE);
        EXPECT_EQ(flag, 0);
        int a[3] = {};
        EXPECT_EQ(MPI_Mrecv(a, 3, MPI_INT, &msg, &st), MPI_SUCCESS);
        EXPECT_EQ(msg, MPI_MESSAGE_NULL);
        EXPECT_EQ(a[0] + a[1] + a[2], 6);
        EXPECT_EQ(st.MPI_SOURCE, 0);
    });
    EXPECT_EQ(fake_mputil::pending_operations(), 0);
}

TEST(MatchedProbe, ProcNullAndMisuse)
{
    mpi_world::run(2, [](int) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        MPI_Message msg = MPI_MESSAGE_NULL;
        MPI_Status st;
        ASSERT_EQ(MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &msg, &st), MPI_SUCCESS);
        EXPECT_EQ(msg, MPI_MESSAGE_NO_PROC);
        EXPECT_EQ(st.MPI_SOURCE, MPI_PROC_NULL);
        MPI_Request r;
        int v = 0;
        ASSERT_EQ(MPI_Imrecv(&v, 1, MPI_INT, &msg, &r), MPI_SUCCESS);
        MPI_Wait(&r, &st);
        EXPECT_EQ(st.MPI_SOURCE, MPI_PROC_NULL);
        EXPECT_EQ(msg, MPI_MESSAGE_NULL);
        EXPECT_EQ(MPI_Mrecv(&v, 1, MPI_INT, &msg, &st), MPI_ERR_REQUEST);
        EXPECT_EQ(MPI_Mprobe(5, 0, MPI_COMM_WORLD, &msg, &st), MPI_ERR_RANK);
    });
}

TEST(Bsend, NeedsRoomInTheAttachedBuffer)
{
    mpi_world::run(2, [](int rank) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        int v[16] = {rank};
        EXPECT_EQ(MPI_Bsend(v, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
        std::vector<char> buffer(sizeof(int) + MPI_BSEND_OVERHEAD);
        ASSERT_EQ(MPI_Buffer_attach(buffer.data(), static_cast<int>(buffer.size())), MPI_SUCCESS);
        EXPECT_EQ(MPI_Buffer_attach(buffer.data(), static_cast<int>(buffer.size())), MPI_ERR_BUFFER);
        EXPECT_EQ(MPI_Bsend(v, 16, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
        for (int i = 0; i < 3; i++)  // delivered at once by the fake: the room comes back
            EXPECT_EQ(MPI_Bsend(v, 1, MPI_INT, 1 - rank, i, MPI_COMM_WORLD), MPI_SUCCESS);
        for (int i = 0; i < 3; i++) {
            int got = -1;
            MPI_Recv(&got, 1, MPI_INT, 1 - rank, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            EXPECT_EQ(got, 1 - rank);
        }
        void* back = nullptr;
        int size = 0;
        EXPECT_EQ(MPI_Buffer_detach(&back, &size), MPI_SUCCESS);
        EXPECT_EQ(back, buffer.data());
        EXPECT_EQ(size, static_cast<int>(buffer.size()));
    });
}

TEST(ErrorCodes, AddedClassesArePerRank)
{
    mpi_world::run(3, [](int rank) {
        int cls = -1;
        for (int i = 0; i <= rank; i++)
            MPI_Add_error_class(&cls);
        EXPECT_EQ(cls, MPI_ERR_LASTCODE + 1 + rank);
        int code = -1, found = -1;
        ASSERT_EQ(MPI_Add_error_code(cls, &code), MPI_SUCCESS);
        MPI_Error_class(code, &found);
        EXPECT_EQ(found, cls);
        int* last = nullptr;
        int flag = 0;
        MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag);
        ASSERT_TRUE(flag);
        EXPECT_EQ(*last, code);
    });
}

TEST(StatusSet, ElementsAndCancelled)
{
    mpi_world::run(1, [](int) {
        MPI_Status st;
        MPI_Status_set_elements(&st, MPI_INT, 4);
        int count = -1, flag = -1;
        MPI_Get_count(&st, MPI_INT, &count);
        EXPECT_EQ(count, 4);
        MPI_Status_set_cancelled(&st, 1);
        MPI_Test_cancelled(&st, &flag);
        EXPECT_EQ(flag, 1);
        int in[2] = {1, 2}, inout[2] = {3, 4};
        EXPECT_EQ(MPI_Reduce_local(in, inout, 2, MPI_INT, MPI_MAX), MPI_SUCCESS);
        EXPECT_EQ(inout[0], 3);
        EXPECT_EQ(inout[1], 4);
    });
}

}  // namespace
