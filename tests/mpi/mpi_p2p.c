/* Point-to-point on the board: status fields, wildcards, ordering, truncation, self-sends,
 * MPI_PROC_NULL, hundreds of outstanding requests, sizes from 0 B to 64 KiB around a ring
 * and one large message from rank 0 to rank 1 (argument: its size, default 1 MiB; eager and
 * rendezvous, local and remote depending on the mapping), the completion calls, persistent
 * requests, Cancel, probes, Sendrecv(_replace), non-contiguous types. Any rank count >= 2.
 * Globals are shared by the ranks of a cluster: per-rank state is _Thread_local. */
#include <stdlib.h>
#include <string.h>

#include "mpi_check.h"

static _Thread_local int rank, size;

static unsigned char pattern(int source, size_t i) { return (unsigned char)(source * 37 + i * 11 + 5); }

/* Rank r sends to r+1 (a ring), at every size, and checks what it gets from r-1; then rank
 * 0 sends one `big` message to rank 1. */
static void sizes(int big)
{
    static const int lengths[] = {0, 1, 64, 200, 4096, 65536, -1};
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (unsigned k = 0; k < sizeof lengths / sizeof lengths[0]; k++) {
        int n = lengths[k];
        if (n < 0) {  /* the large one: rank 0 to rank 1 only (memory per cluster is small) */
            if (rank > 1)
                break;
            n = big;
            right = left = rank == 0 ? 1 : 0;
        }
        unsigned char *out = malloc(n + 1), *in = malloc(n + 8);
        CHECK(out && in);
        if (!out || !in)
            return;
        for (int i = 0; i < n; i++)
            out[i] = pattern(rank, i);
        memset(in, 0xee, n + 8);
        MPI_Request r;
        MPI_Status st;
        MPI_Irecv(in, rank == 1 || lengths[k] >= 0 ? n : 0, MPI_BYTE, left, k, MPI_COMM_WORLD, &r);
        if (rank == 0 || lengths[k] >= 0)
            CHECK_EQ(MPI_Send(out, n, MPI_BYTE, right, k, MPI_COMM_WORLD), MPI_SUCCESS);
        else
            MPI_Send(out, 0, MPI_BYTE, right, k, MPI_COMM_WORLD);
        CHECK_EQ(MPI_Wait(&r, &st), MPI_SUCCESS);
        if (lengths[k] < 0 && rank == 0) {
            free(out);
            free(in);
            break;
        }
        int count = -1, bad = 0;
        MPI_Get_count(&st, MPI_BYTE, &count);
        CHECK_EQ(count, n);
        CHECK_EQ(st.MPI_SOURCE, left);
        for (int i = 0; i < n; i++)
            bad += in[i] != pattern(left, i);
        CHECK_EQ(bad, 0);
        CHECK_EQ(in[n], 0xee);
        free(out);
        free(in);
    }
}

static void wildcards_and_order(void)
{
    /* Every rank sends 20 numbered messages to rank 0, which takes them with wildcards:
     * per source they arrive in order, and statuses name source and tag. */
    const int n = 20;
    if (rank != 0) {
        for (int i = 0; i < n; i++) {
            int v[2] = {rank, i};
            MPI_Send(v, 2, MPI_INT, 0, 100 + i % 4, MPI_COMM_WORLD);
        }
        return;
    }
    int *next = calloc(size, sizeof(int));
    for (int m = 0; m < n * (size - 1); m++) {
        int v[2];
        MPI_Status st;
        MPI_Recv(v, 2, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        CHECK_EQ(st.MPI_SOURCE, v[0]);
        CHECK_EQ(v[1], next[v[0]]);
        CHECK_EQ(st.MPI_TAG, 100 + v[1] % 4);
        next[v[0]]++;
    }
    free(next);
}

static void truncation_self_and_proc_null(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int out[8] = {1, 2, 3, 4, 5, 6, 7, 8}, in[6] = {0, 0, 0, 0, -7, -7};
    MPI_Request r;
    MPI_Isend(out, 8, MPI_INT, rank, 1, MPI_COMM_WORLD, &r);
    MPI_Status st;
    CHECK_EQ(MPI_Recv(in, 4, MPI_INT, rank, 1, MPI_COMM_WORLD, &st), MPI_ERR_TRUNCATE);
    CHECK_EQ(in[3], 4);
    CHECK_EQ(in[4], -7);
    CHECK_EQ(MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_SUCCESS);
    /* Truncation between ranks, 2000 bytes into 1000: nothing written past the buffer. */
    unsigned char *big = malloc(2000), *small = malloc(1100);
    memset(big, 3, 2000);
    memset(small, 9, 1100);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Irecv(small, 1000, MPI_BYTE, left, 2, MPI_COMM_WORLD, &r);
    MPI_Send(big, 2000, MPI_BYTE, right, 2, MPI_COMM_WORLD);
    CHECK_EQ(MPI_Wait(&r, &st), MPI_ERR_TRUNCATE);
    CHECK_EQ(small[999], 3);
    CHECK_EQ(small[1000], 9);
    free(big);
    free(small);
    CHECK_EQ(MPI_Send(out, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD), MPI_SUCCESS);
    CHECK_EQ(MPI_Recv(in, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &st), MPI_SUCCESS);
    CHECK_EQ(st.MPI_SOURCE, MPI_PROC_NULL);
    CHECK_EQ(st.MPI_TAG, MPI_ANY_TAG);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static void many_outstanding(void)
{
    const int n = 300;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int *out = malloc(n * sizeof(int)), *in = malloc(n * sizeof(int));
    MPI_Request *r = malloc(2 * n * sizeof(MPI_Request));
    for (int i = 0; i < n; i++) {
        out[i] = rank * 1000 + i;
        in[i] = -1;
        MPI_Irecv(&in[i], 1, MPI_INT, left, i, MPI_COMM_WORLD, &r[i]);
    }
    for (int i = 0; i < n; i++)
        MPI_Isend(&out[n - 1 - i], 1, MPI_INT, right, n - 1 - i, MPI_COMM_WORLD, &r[n + i]);
    CHECK_EQ(MPI_Waitall(2 * n, r, MPI_STATUSES_IGNORE), MPI_SUCCESS);
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += in[i] != left * 1000 + i || r[i] != MPI_REQUEST_NULL;
    CHECK_EQ(bad, 0);
    free(out);
    free(in);
    free(r);
}

static void completion_calls(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int v[3] = {-1, -1, -1}, o[3] = {rank, rank + 1, rank + 2};
    MPI_Request r[3];
    for (int i = 0; i < 3; i++)
        MPI_Irecv(&v[i], 1, MPI_INT, left, 50 + i, MPI_COMM_WORLD, &r[i]);
    MPI_Barrier(MPI_COMM_WORLD);  /* nothing sent yet: nothing can be complete */
    int flag = 1, index = 0, outcount = -1, idx[3];
    CHECK_EQ(MPI_Testany(3, r, &index, &flag, MPI_STATUS_IGNORE), MPI_SUCCESS);
    CHECK_EQ(flag, 0);
    CHECK_EQ(MPI_Testsome(3, r, &outcount, idx, MPI_STATUSES_IGNORE), MPI_SUCCESS);
    CHECK_EQ(outcount, 0);
    CHECK_EQ(MPI_Testall(3, r, &flag, MPI_STATUSES_IGNORE), MPI_SUCCESS);
    CHECK_EQ(flag, 0);
    for (int i = 0; i < 3; i++)
        MPI_Send(&o[i], 1, MPI_INT, right, 50 + i, MPI_COMM_WORLD);
    MPI_Status st;
    CHECK_EQ(MPI_Waitany(3, r, &index, &st), MPI_SUCCESS);
    CHECK(index >= 0 && index < 3);
    CHECK_EQ(st.MPI_TAG, 50 + index);
    CHECK_EQ(r[index], MPI_REQUEST_NULL);
    int done = 1;
    while (done < 3) {
        CHECK_EQ(MPI_Waitsome(3, r, &outcount, idx, MPI_STATUSES_IGNORE), MPI_SUCCESS);
        done += outcount;
    }
    CHECK_EQ(MPI_Waitsome(3, r, &outcount, idx, MPI_STATUSES_IGNORE), MPI_SUCCESS);
    CHECK_EQ(outcount, MPI_UNDEFINED);
    for (int i = 0; i < 3; i++)
        CHECK_EQ(v[i], left + i);
    /* Request_get_status leaves the request; Test then frees it. */
    MPI_Irecv(&v[0], 1, MPI_INT, left, 60, MPI_COMM_WORLD, &r[0]);
    MPI_Send(&o[0], 1, MPI_INT, right, 60, MPI_COMM_WORLD);
    flag = 0;
    MPI_Wait(&r[0], &st);
    CHECK_EQ(v[0], left);
}

static void persistent_cancel_probe(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out = 0, in = -1;
    MPI_Request rr[2];
    MPI_Send_init(&out, 1, MPI_INT, right, 7, MPI_COMM_WORLD, &rr[0]);
    MPI_Recv_init(&in, 1, MPI_INT, left, 7, MPI_COMM_WORLD, &rr[1]);
    for (int i = 0; i < 4; i++) {
        out = rank * 10 + i;
        CHECK_EQ(MPI_Startall(2, rr), MPI_SUCCESS);
        CHECK_EQ(MPI_Waitall(2, rr, MPI_STATUSES_IGNORE), MPI_SUCCESS);
        CHECK_EQ(in, left * 10 + i);
        CHECK(rr[0] != MPI_REQUEST_NULL);
    }
    MPI_Request_free(&rr[0]);
    MPI_Request_free(&rr[1]);
    /* Cancel of a receive that nothing matches. */
    MPI_Request r;
    MPI_Status st;
    MPI_Irecv(&in, 1, MPI_INT, MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &r);
    CHECK_EQ(MPI_Cancel(&r), MPI_SUCCESS);
    CHECK_EQ(MPI_Wait(&r, &st), MPI_SUCCESS);
    int flag = 0;
    MPI_Test_cancelled(&st, &flag);
    CHECK_EQ(flag, 1);
    /* Probe announces source, tag and size before the receive. */
    double d[5] = {1, 2, 3, 4, 5};
    MPI_Isend(d, 5, MPI_DOUBLE, right, 8, MPI_COMM_WORLD, &r);
    CHECK_EQ(MPI_Probe(left, MPI_ANY_TAG, MPI_COMM_WORLD, &st), MPI_SUCCESS);
    int count = 0;
    MPI_Get_count(&st, MPI_DOUBLE, &count);
    CHECK_EQ(count, 5);
    CHECK_EQ(st.MPI_TAG, 8);
    MPI_Iprobe(left, 8, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    CHECK_EQ(flag, 1);
    double got[5];
    MPI_Recv(got, count, MPI_DOUBLE, left, 8, MPI_COMM_WORLD, &st);
    CHECK(got[4] == 5.0);
    MPI_Test_cancelled(&st, &flag);
    CHECK_EQ(flag, 0);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    /* Synchronous send. */
    MPI_Request sr;
    MPI_Irecv(&in, 1, MPI_INT, left, 9, MPI_COMM_WORLD, &sr);
    CHECK_EQ(MPI_Ssend(&rank, 1, MPI_INT, right, 9, MPI_COMM_WORLD), MPI_SUCCESS);
    MPI_Wait(&sr, MPI_STATUS_IGNORE);
    CHECK_EQ(in, left);
}

static void sendrecv_and_types(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size, got = -1;
    MPI_Status st;
    CHECK_EQ(MPI_Sendrecv(&rank, 1, MPI_INT, right, 3, &got, 1, MPI_INT, left, 3, MPI_COMM_WORLD, &st),
             MPI_SUCCESS);
    CHECK_EQ(got, left);
    int v[2] = {rank, -rank};
    CHECK_EQ(MPI_Sendrecv_replace(v, 2, MPI_INT, right, 4, left, 4, MPI_COMM_WORLD, &st), MPI_SUCCESS);
    CHECK_EQ(v[0], left);
    CHECK_EQ(v[1], -left);
    /* A column of an 8x8 matrix goes to a row of the receiver's matrix. */
    MPI_Datatype column;
    MPI_Type_vector(8, 1, 8, MPI_DOUBLE, &column);
    MPI_Type_commit(&column);
    double *m = malloc(64 * sizeof(double)), *row = malloc(8 * sizeof(double));
    for (int i = 0; i < 64; i++)
        m[i] = rank * 100 + i;
    MPI_Sendrecv(m + 3, 1, column, right, 5, row, 8, MPI_DOUBLE, left, 5, MPI_COMM_WORLD, &st);
    int bad = 0;
    for (int i = 0; i < 8; i++)
        bad += row[i] != left * 100 + i * 8 + 3;
    CHECK_EQ(bad, 0);
    int elements = 0;
    MPI_Get_elements(&st, MPI_DOUBLE, &elements);
    CHECK_EQ(elements, 8);
    free(m);
    free(row);
    MPI_Type_free(&column);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    sizes(argc > 1 ? atoi(argv[1]) : 1 << 20);
    wildcards_and_order();
    truncation_self_and_proc_null();
    many_outstanding();
    completion_calls();
    persistent_cancel_probe();
    sendrecv_and_types();
    int status = mpi_check_finish("mpi_p2p");
    MPI_Finalize();
    return status;
}
