/* The nonblocking and persistent forms of every send mode (MPI 3.1 sections 3.7.2, 3.9):
 * MPI_Irsend, MPI_Ssend_init, MPI_Rsend_init (with MPI_Send_init and MPI_Bsend_init for
 * comparison), restarted many times, small and large messages, MPI_PROC_NULL, and misuse. */
#include <stdlib.h>

#include "suite.h"

enum { ROUNDS = 6, LARGE = 2500 };

static int right_of(int rank, int size) { return (rank + 1) % size; }
static int left_of(int rank, int size) { return (rank + size - 1) % size; }

/* Ready mode: every receive is posted before a barrier, the ready sends start after it. */
static void ready_sends(int rank, int size, int n)
{
    int *out = malloc(sizeof(int) * n), *in = malloc(sizeof(int) * n);
    const int right = right_of(rank, size), left = left_of(rank, size);
    MPI_Request recv, send;
    for (int round = 0; round < ROUNDS; round++) {
        for (int i = 0; i < n; i++)
            out[i] = rank * 1000 + round * 10 + i;
        MPI_Irecv(in, n, MPI_INT, left, round, MPI_COMM_WORLD, &recv);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Irsend(out, n, MPI_INT, right, round, MPI_COMM_WORLD, &send);
        MPI_Status st;
        MPI_Wait(&recv, &st);
        MPI_Wait(&send, MPI_STATUS_IGNORE);
        int ok = st.MPI_SOURCE == left && st.MPI_TAG == round;
        for (int i = 0; i < n; i++)
            ok &= in[i] == left * 1000 + round * 10 + i;
        SUITE_CHECK(ok, "Irsend of %d ints, round %d", n, round);
    }
    free(out);
    free(in);
}

/* Persistent sends of each mode against one persistent receive, started together. */
static void persistent_modes(int rank, int size, int n)
{
    int *out = malloc(sizeof(int) * n), *in = malloc(sizeof(int) * n);
    const int right = right_of(rank, size), left = left_of(rank, size);
    int attach_bytes = n * (int)sizeof(int) + MPI_BSEND_OVERHEAD;
    char *attached = malloc(attach_bytes);
    MPI_Buffer_attach(attached, attach_bytes);
    MPI_Request sends[4], recv;
    MPI_Send_init(out, n, MPI_INT, right, 7, MPI_COMM_WORLD, &sends[0]);
    MPI_Ssend_init(out, n, MPI_INT, right, 7, MPI_COMM_WORLD, &sends[1]);
    MPI_Rsend_init(out, n, MPI_INT, right, 7, MPI_COMM_WORLD, &sends[2]);
    MPI_Bsend_init(out, n, MPI_INT, right, 7, MPI_COMM_WORLD, &sends[3]);
    MPI_Recv_init(in, n, MPI_INT, left, 7, MPI_COMM_WORLD, &recv);
    for (int round = 0; round < ROUNDS * 4; round++) {
        const int mode = round % 4;
        for (int i = 0; i < n; i++)
            out[i] = rank * 100 + round + i;
        MPI_Start(&recv);
        if (mode == 2)
            MPI_Barrier(MPI_COMM_WORLD); /* ready mode: the receive is posted everywhere */
        MPI_Start(&sends[mode]);
        MPI_Wait(&recv, MPI_STATUS_IGNORE);
        MPI_Wait(&sends[mode], MPI_STATUS_IGNORE);
        SUITE_CHECK(sends[mode] != MPI_REQUEST_NULL, "a persistent request stays allocated");
        int ok = 1;
        for (int i = 0; i < n; i++)
            ok &= in[i] == left * 100 + round + i;
        SUITE_CHECK(ok, "persistent mode %d, %d ints, round %d", mode, n, round);
    }
    for (int m = 0; m < 4; m++)
        MPI_Request_free(&sends[m]);
    MPI_Request_free(&recv);
    void *back;
    int back_size;
    MPI_Buffer_detach(&back, &back_size);
    free(attached);
    free(out);
    free(in);
}

static void proc_null_and_errors(int size)
{
    int v = 1, err;
    MPI_Request r;
    MPI_Status st;
    MPI_Irsend(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, &st);
    SUITE_CHECK(r == MPI_REQUEST_NULL, "Irsend to MPI_PROC_NULL completes");
    MPI_Ssend_init(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r);
    for (int i = 0; i < 3; i++) {
        MPI_Start(&r);
        MPI_Wait(&r, &st);
    }
    MPI_Request_free(&r);
    MPI_Rsend_init(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r);
    MPI_Start(&r);
    MPI_Wait(&r, &st);
    MPI_Request_free(&r);
    err = MPI_Irsend(&v, 1, MPI_INT, size, 0, MPI_COMM_WORLD, &r);
    SUITE_CHECK(err == MPI_ERR_RANK, "Irsend to rank %d returned %d", size, err);
    err = MPI_Ssend_init(&v, 1, MPI_INT, 0, -2, MPI_COMM_WORLD, &r);
    SUITE_CHECK(err == MPI_ERR_TAG, "Ssend_init with tag -2 returned %d", err);
    err = MPI_Rsend_init(&v, -3, MPI_INT, 0, 0, MPI_COMM_WORLD, &r);
    SUITE_CHECK(err == MPI_ERR_COUNT, "Rsend_init of count -3 returned %d", err);
    err = MPI_Rsend_init(&v, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD, &r);
    SUITE_CHECK(err == MPI_ERR_TYPE, "Rsend_init of MPI_DATATYPE_NULL returned %d", err);
    err = MPI_Ssend_init(&v, 1, MPI_INT, 0, 0, MPI_COMM_NULL, &r);
    SUITE_CHECK(err == MPI_ERR_COMM, "Ssend_init on MPI_COMM_NULL returned %d", err);
    err = MPI_Irsend(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, NULL);
    SUITE_CHECK(err == MPI_ERR_ARG, "Irsend without a request returned %d", err);
    /* A persistent buffered send without a buffer fails when started. */
    MPI_Bsend_init(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &r);
    err = MPI_Start(&r);
    SUITE_CHECK(err == MPI_ERR_BUFFER, "Start of Bsend_init without a buffer returned %d", err);
    MPI_Request_free(&r);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    proc_null_and_errors(size);
    ready_sends(rank, size, 5);
    ready_sends(rank, size, LARGE);
    persistent_modes(rank, size, 5);
    persistent_modes(rank, size, LARGE);
    return suite_finalize();
}
