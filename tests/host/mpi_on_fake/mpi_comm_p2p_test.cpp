// Point-to-point calls of libmpi over the host fake transport: status fields, wildcards,
// ordering, truncation, self-sends, MPI_PROC_NULL, many outstanding requests, the
// completion calls, persistent requests, Cancel, probes, non-contiguous types.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "tests/host/support/mpi_world.hpp"

namespace {

TEST(P2p, StatusCarriesSourceTagAndCount)
{
    mpi_world::run(3, [](int rank) {
        if (rank != 0) {
            int data[4] = {rank, rank, rank, rank};
            EXPECT_EQ(MPI_Send(data, rank + 1, MPI_INT, 0, 10 + rank, MPI_COMM_WORLD), MPI_SUCCESS);
            return;
        }
        for (int i = 0; i < 2; i++) {
            int data[4] = {};
            MPI_Status st;
            EXPECT_EQ(MPI_Recv(data, 4, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st),
                      MPI_SUCCESS);
            int count = -1;
            MPI_Get_count(&st, MPI_INT, &count);
            EXPECT_EQ(st.MPI_TAG, 10 + st.MPI_SOURCE);
            EXPECT_EQ(count, st.MPI_SOURCE + 1);
            EXPECT_EQ(data[0], st.MPI_SOURCE);
        }
    });
}

TEST(P2p, MessagesOfOnePairNeverOvertake)
{
    mpi_world::run({2, 1, true}, [](int rank) {
        const int n = 200;
        if (rank == 0) {
            for (int i = 0; i < n; i++)
                MPI_Send(&i, 1, MPI_INT, 1, i % 3, MPI_COMM_WORLD);
        } else {
            for (int i = 0; i < n; i++) {
                int v = -1;
                MPI_Recv(&v, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                EXPECT_EQ(v, i);
            }
        }
    });
}

TEST(P2p, TruncationWritesNothingPastTheBuffer)
{
    mpi_world::run(2, [](int rank) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        if (rank == 0) {
            int data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
            MPI_Send(data, 8, MPI_INT, 1, 0, MPI_COMM_WORLD);
        } else {
            int buf[6] = {0, 0, 0, 0, -7, -7};
            MPI_Status st;
            EXPECT_EQ(MPI_Recv(buf, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, &st), MPI_ERR_TRUNCATE);
            EXPECT_EQ(buf[3], 4);
            EXPECT_EQ(buf[4], -7);
            EXPECT_EQ(buf[5], -7);
        }
    });
}

TEST(P2p, SelfSendAndProcNull)
{
    mpi_world::run(1, [](int) {
        int out = 42, in = 0;
        MPI_Request r;
        EXPECT_EQ(MPI_Isend(&out, 1, MPI_INT, 0, 3, MPI_COMM_SELF, &r), MPI_SUCCESS);
        EXPECT_EQ(MPI_Recv(&in, 1, MPI_INT, 0, 3, MPI_COMM_SELF, MPI_STATUS_IGNORE), MPI_SUCCESS);
        EXPECT_EQ(MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_SUCCESS);
        EXPECT_EQ(r, MPI_REQUEST_NULL);
        EXPECT_EQ(in, 42);
        MPI_Status st;
        EXPECT_EQ(MPI_Recv(&in, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st), MPI_SUCCESS);
        EXPECT_EQ(st.MPI_SOURCE, MPI_PROC_NULL);
        EXPECT_EQ(st.MPI_TAG, MPI_ANY_TAG);
        int count = -1;
        MPI_Get_count(&st, MPI_INT, &count);
        EXPECT_EQ(count, 0);
        EXPECT_EQ(MPI_Send(&out, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD), MPI_SUCCESS);
    });
}

TEST(P2p, HundredsOfOutstandingRequests)
{
    mpi_world::run({2, 1, true}, [](int rank) {
        const int n = 400;
        std::vector<int> buf(n);
        std::vector<MPI_Request> reqs(n);
        for (int i = 0; i < n; i++)
            buf[i] = rank == 0 ? i * 7 : -1;
        for (int i = 0; i < n; i++) {
            if (rank == 0)
                MPI_Isend(&buf[i], 1, MPI_INT, 1, i, MPI_COMM_WORLD, &reqs[i]);
            else  // posted in reverse tag order: matching is by tag
                MPI_Irecv(&buf[n - 1 - i], 1, MPI_INT, 0, n - 1 - i, MPI_COMM_WORLD, &reqs[i]);
        }
        std::vector<MPI_Status> st(n);
        EXPECT_EQ(MPI_Waitall(n, reqs.data(), st.data()), MPI_SUCCESS);
        for (int i = 0; i < n; i++) {
            EXPECT_EQ(reqs[i], MPI_REQUEST_NULL);
            if (rank == 1) {
                EXPECT_EQ(buf[i], i * 7);
            }
        }
    });
}

TEST(P2p, WaitanyWaitsomeTestanyTestsome)
{
    mpi_world::run(3, [](int rank) {
        if (rank != 0) {
            MPI_Barrier(MPI_COMM_WORLD);
            MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
            MPI_Send(&rank, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
            return;
        }
        int v[4] = {};
        MPI_Request r[4];
        MPI_Irecv(&v[0], 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(&v[1], 1, MPI_INT, 2, 0, MPI_COMM_WORLD, &r[1]);
        int flag = 1, index = 0;
        EXPECT_EQ(MPI_Testany(2, r, &index, &flag, MPI_STATUS_IGNORE), MPI_SUCCESS);
        EXPECT_EQ(flag, 0);  // nothing was sent before the barrier
        EXPECT_EQ(index, MPI_UNDEFINED);
        int out = -1, idx[2];
        EXPECT_EQ(MPI_Testsome(2, r, &out, idx, MPI_STATUSES_IGNORE), MPI_SUCCESS);
        EXPECT_EQ(out, 0);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Status st;
        EXPECT_EQ(MPI_Waitany(2, r, &index, &st), MPI_SUCCESS);
        EXPECT_EQ(st.MPI_SOURCE, index + 1);
        EXPECT_EQ(r[index], MPI_REQUEST_NULL);
        int got = 0;
        while (got < 1) {
            EXPECT_EQ(MPI_Waitsome(2, r, &out, idx, MPI_STATUSES_IGNORE), MPI_SUCCESS);
            got += out;
        }
        EXPECT_EQ(MPI_Waitsome(2, r, &out, idx, MPI_STATUSES_IGNORE), MPI_SUCCESS);
        EXPECT_EQ(out, MPI_UNDEFINED);  // every request is null now
        EXPECT_EQ(v[0], 1);
        EXPECT_EQ(v[1], 2);
        MPI_Irecv(&v[2], 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &r[2]);
        MPI_Irecv(&v[3], 1, MPI_INT, 2, 1, MPI_COMM_WORLD, &r[3]);
        flag = 0;
        while (!flag)
            EXPECT_EQ(MPI_Testall(2, &r[2], &flag, MPI_STATUSES_IGNORE), MPI_SUCCESS);
        EXPECT_EQ(r[2], MPI_REQUEST_NULL);
        EXPECT_EQ(v[3], 2);
    });
}

TEST(P2p, ErrInStatusForMultiCompletion)
{
    mpi_world::run(2, [](int rank) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        int big[4] = {1, 2, 3, 4};
        if (rank == 0) {
            MPI_Send(big, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
            MPI_Send(big, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
            return;
        }
        int a[2], b[2];
        MPI_Request r[2];
        MPI_Irecv(a, 2, MPI_INT, 0, 0, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(b, 2, MPI_INT, 0, 1, MPI_COMM_WORLD, &r[1]);
        MPI_Status st[2];
        EXPECT_EQ(MPI_Waitall(2, r, st), MPI_ERR_IN_STATUS);
        EXPECT_EQ(st[0].MPI_ERROR, MPI_ERR_TRUNCATE);
        EXPECT_EQ(st[1].MPI_ERROR, MPI_SUCCESS);
        EXPECT_EQ(b[0], 1);
    });
}

TEST(P2p, PersistentRequestsRestart)
{
    mpi_world::run(2, [](int rank) {
        int v = 0;
        MPI_Request r;
        if (rank == 0)
            MPI_Send_init(&v, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &r);
        else
            MPI_Recv_init(&v, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, &r);
        for (int i = 0; i < 5; i++) {
            if (rank == 0)
                v = i * i;
            EXPECT_EQ(MPI_Start(&r), MPI_SUCCESS);
            EXPECT_EQ(MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_SUCCESS);
            EXPECT_NE(r, MPI_REQUEST_NULL);  // persistent: inactive, not freed
            if (rank == 1) {
                EXPECT_EQ(v, i * i);
            }
        }
        MPI_Status st;
        EXPECT_EQ(MPI_Wait(&r, &st), MPI_SUCCESS);  // inactive: empty status at once
        EXPECT_EQ(st.MPI_SOURCE, MPI_ANY_SOURCE);
        EXPECT_EQ(MPI_Request_free(&r), MPI_SUCCESS);
        EXPECT_EQ(r, MPI_REQUEST_NULL);
    });
}

TEST(P2p, CancelOfAnUnmatchedReceive)
{
    mpi_world::run(1, [](int) {
        int v;
        MPI_Request r;
        MPI_Irecv(&v, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, &r);
        EXPECT_EQ(MPI_Cancel(&r), MPI_SUCCESS);
        MPI_Status st;
        EXPECT_EQ(MPI_Wait(&r, &st), MPI_SUCCESS);
        int flag = 0;
        MPI_Test_cancelled(&st, &flag);
        EXPECT_EQ(flag, 1);
        // A later message on that tag is not swallowed by the cancelled receive.
        int out = 3;
        MPI_Send(&out, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
        MPI_Recv(&v, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, &st);
        MPI_Test_cancelled(&st, &flag);
        EXPECT_EQ(flag, 0);
        EXPECT_EQ(v, 3);
    });
}

TEST(P2p, SendrecvAndReplaceRotateARing)
{
    mpi_world::run({5, 2, false}, [](int rank) {
        int right = (rank + 1) % 5, left = (rank + 4) % 5, got = -1;
        MPI_Status st;
        EXPECT_EQ(MPI_Sendrecv(&rank, 1, MPI_INT, right, 1, &got, 1, MPI_INT, left, 1, MPI_COMM_WORLD, &st),
                  MPI_SUCCESS);
        EXPECT_EQ(got, left);
        EXPECT_EQ(st.MPI_SOURCE, left);
        int v[2] = {rank, rank * 10};
        EXPECT_EQ(MPI_Sendrecv_replace(v, 2, MPI_INT, right, 2, left, 2, MPI_COMM_WORLD, &st), MPI_SUCCESS);
        EXPECT_EQ(v[0], left);
        EXPECT_EQ(v[1], left * 10);
    });
}

TEST(P2p, ProbeThenReceiveTheAnnouncedSize)
{
    mpi_world::run(2, [](int rank) {
        if (rank == 0) {
            double d[3] = {1.5, 2.5, 3.5};
            MPI_Ssend(d, 3, MPI_DOUBLE, 1, 4, MPI_COMM_WORLD);
            return;
        }
        MPI_Status st;
        EXPECT_EQ(MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st), MPI_SUCCESS);
        int count = 0;
        MPI_Get_count(&st, MPI_DOUBLE, &count);
        EXPECT_EQ(count, 3);
        EXPECT_EQ(st.MPI_TAG, 4);
        int flag = 0;
        MPI_Iprobe(0, 4, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        EXPECT_EQ(flag, 1);
        MPI_Iprobe(0, 5, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        EXPECT_EQ(flag, 0);
        std::vector<double> d(count);
        MPI_Recv(d.data(), count, MPI_DOUBLE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        EXPECT_EQ(d[2], 3.5);
        MPI_Get_count(&st, MPI_LONG_DOUBLE, &count);
        EXPECT_EQ(count, MPI_UNDEFINED);  // 24 bytes are not a whole number of long doubles
    });
}

TEST(P2p, NonContiguousTypesArePackedAndUnpacked)
{
    mpi_world::run(2, [](int rank) {
        MPI_Datatype column;
        MPI_Type_vector(4, 1, 4, MPI_INT, &column);  // one column of a 4x4 matrix
        MPI_Type_commit(&column);
        int m[16];
        for (int i = 0; i < 16; i++)
            m[i] = rank == 0 ? i : -1;
        if (rank == 0) {
            MPI_Send(&m[1], 1, column, 1, 0, MPI_COMM_WORLD);
        } else {
            MPI_Recv(&m[2], 1, column, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (int r = 0; r < 4; r++)
                for (int c = 0; c < 4; c++) {
                    EXPECT_EQ(m[r * 4 + c], c == 2 ? r * 4 + 1 : -1);
                }
        }
        MPI_Type_free(&column);
    });
}

TEST(P2p, RequestFreeOfAnActiveSendStillDelivers)
{
    mpi_world::run(2, [](int rank) {
        int v = 77;
        if (rank == 0) {
            MPI_Request r;
            MPI_Issend(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r);
            EXPECT_EQ(MPI_Request_free(&r), MPI_SUCCESS);
            EXPECT_EQ(r, MPI_REQUEST_NULL);
        } else {
            int got = 0;
            MPI_Request r;
            MPI_Irecv(&got, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &r);
            int flag = 0;
            MPI_Status st;
            while (!flag)
                MPI_Request_get_status(r, &flag, &st);
            EXPECT_NE(r, MPI_REQUEST_NULL);  // get_status leaves the request alone
            EXPECT_EQ(MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_SUCCESS);
            EXPECT_EQ(got, 77);
        }
    });
}

TEST(P2p, LargeMessagesArriveIntact)
{
    mpi_world::run(2, [](int rank) {
        const int n = 3 << 20;  // 3 MiB
        std::vector<unsigned char> buf(n);
        if (rank == 0) {
            for (int i = 0; i < n; i++)
                buf[i] = static_cast<unsigned char>(i * 31);
            MPI_Send(buf.data(), n, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        } else {
            MPI_Recv(buf.data(), n, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            int bad = 0;
            for (int i = 0; i < n; i++)
                bad += buf[i] != static_cast<unsigned char>(i * 31);
            EXPECT_EQ(bad, 0);
        }
    });
}

}  // namespace
