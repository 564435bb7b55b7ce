/* Matched probes (MPI 3.1 sections 3.8.2, 3.8.3): MPI_Mprobe / MPI_Improbe take a message out
 * of matching, so later probes and receives see the next one; MPI_Mrecv / MPI_Imrecv receive
 * exactly the matched message, for every protocol (small, medium past eager and local cells,
 * large over several portal transfers, synchronous), with wildcards, truncation and derived
 * types; MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC; misuse returns the standard's classes. */
#include <stdlib.h>
#include <string.h>

#include "suite.h"

static const int sizes[] = {3, 700, 6000}; /* ints: eager/cell, rendezvous, several pieces */
enum { KINDS = 3 };

/* Two messages of one tag, the first one larger: the matched probe takes the first; a probe
 * and a receive after it see only the second; Mrecv then gets the first. */
static void takes_out_of_matching(int rank, int size, int synchronous)
{
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (int k = 0; k < KINDS; k++) {
        const int n = sizes[k], tag = 10 + k;
        int *a = malloc(sizeof(int) * n), *b = malloc(sizeof(int) * n);
        int *ra = malloc(sizeof(int) * n), *rb = malloc(sizeof(int) * n);
        suite_fill(a, n, rank * 10 + k);
        suite_fill(b, n - 1, rank * 10 + k + 5);
        MPI_Request sends[2];
        if (synchronous) {
            MPI_Issend(a, n, MPI_INT, right, tag, MPI_COMM_WORLD, &sends[0]);
            MPI_Issend(b, n - 1, MPI_INT, right, tag, MPI_COMM_WORLD, &sends[1]);
        } else {
            MPI_Isend(a, n, MPI_INT, right, tag, MPI_COMM_WORLD, &sends[0]);
            MPI_Isend(b, n - 1, MPI_INT, right, tag, MPI_COMM_WORLD, &sends[1]);
        }
        MPI_Message msg = MPI_MESSAGE_NULL;
        MPI_Status st;
        MPI_Mprobe(left, tag, MPI_COMM_WORLD, &msg, &st);
        int count = -1;
        MPI_Get_count(&st, MPI_INT, &count);
        SUITE_CHECK(msg != MPI_MESSAGE_NULL && msg != MPI_MESSAGE_NO_PROC, "Mprobe gave no message");
        SUITE_CHECK(st.MPI_SOURCE == left && st.MPI_TAG == tag && count == n,
                    "Mprobe status %d/%d/%d, expected %d/%d/%d", st.MPI_SOURCE, st.MPI_TAG, count, left, tag, n);
        MPI_Probe(left, tag, MPI_COMM_WORLD, &st); /* sees the second message only */
        MPI_Get_count(&st, MPI_INT, &count);
        SUITE_CHECK(count == n - 1, "probe after Mprobe saw %d ints, expected the second message's %d", count, n - 1);
        MPI_Recv(rb, n, MPI_INT, left, tag, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_INT, &count);
        SUITE_CHECK(count == n - 1 && suite_filled(rb, n - 1, left * 10 + k + 5),
                    "receive after Mprobe got %d ints, not the second message", count);
        memset(ra, 0, sizeof(int) * n);
        if (k % 2 == 0) {
            MPI_Mrecv(ra, n, MPI_INT, &msg, &st);
        } else {
            MPI_Request r;
            MPI_Imrecv(ra, n, MPI_INT, &msg, &r);
            MPI_Wait(&r, &st);
        }
        SUITE_CHECK(msg == MPI_MESSAGE_NULL, "the message handle is spent after its receive");
        MPI_Get_count(&st, MPI_INT, &count);
        SUITE_CHECK(count == n && st.MPI_SOURCE == left && st.MPI_TAG == tag && suite_filled(ra, n, left * 10 + k),
                    "size %d: matched receive got %d ints from %d", n, count, st.MPI_SOURCE);
        MPI_Waitall(2, sends, MPI_STATUSES_IGNORE);
        free(a);
        free(b);
        free(ra);
        free(rb);
    }
}

/* Wildcards on a communicator of its own. */
static void wildcards(int rank, int size)
{
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    const int right = (rank + 1) % size;
    int out[4] = {rank, rank + 1, rank + 2, rank + 3}, in[4] = {0};
    MPI_Request send;
    MPI_Isend(out, 4, MPI_INT, right, rank + 100, comm, &send);
    /* A blocking probe first: once it saw the message, Improbe finds it without polling
     * (spinning ranks would only slow the board's deterministic turns). */
    MPI_Status st;
    MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &st);
    int flag = 0;
    MPI_Message msg = MPI_MESSAGE_NULL;
    MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &flag, &msg, &st);
    const int left = (rank + size - 1) % size;
    SUITE_CHECK(flag && st.MPI_SOURCE == left && st.MPI_TAG == left + 100, "Improbe: flag %d, status %d/%d", flag,
                st.MPI_SOURCE, st.MPI_TAG);
    int nothing = 1;
    MPI_Message none = MPI_MESSAGE_NULL;
    MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm, &nothing, &none, MPI_STATUS_IGNORE);
    SUITE_CHECK(!nothing && none == MPI_MESSAGE_NULL, "a second Improbe found the matched message again");
    MPI_Request r;
    MPI_Imrecv(in, 4, MPI_INT, &msg, &r);
    MPI_Wait(&r, &st);
    SUITE_CHECK(in[0] == left && in[3] == left + 3 && st.MPI_SOURCE == left, "wildcard Imrecv data %d", in[0]);
    MPI_Wait(&send, MPI_STATUS_IGNORE);
    MPI_Comm_free(&comm);
}

/* A derived receive type, and truncation. */
static void types_and_truncation(int rank, int size)
{
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out[6], grid[12];
    for (int i = 0; i < 6; i++)
        out[i] = rank * 100 + i;
    MPI_Request send[2];
    MPI_Isend(out, 6, MPI_INT, right, 40, MPI_COMM_WORLD, &send[0]);
    MPI_Isend(out, 6, MPI_INT, right, 41, MPI_COMM_WORLD, &send[1]);
    MPI_Datatype every_other;
    MPI_Type_vector(6, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    MPI_Message msg;
    MPI_Status st;
    MPI_Mprobe(left, 40, MPI_COMM_WORLD, &msg, &st);
    memset(grid, 0, sizeof grid);
    MPI_Mrecv(grid, 1, every_other, &msg, &st);
    for (int i = 0; i < 6; i++)
        SUITE_CHECK(grid[2 * i] == left * 100 + i && grid[2 * i + 1] == 0, "vector slot %d", i);
    MPI_Type_free(&every_other);
    int small[2];
    MPI_Mprobe(left, 41, MPI_COMM_WORLD, &msg, &st);
    int err = MPI_Mrecv(small, 2, MPI_INT, &msg, &st);
    SUITE_CHECK(err == MPI_ERR_TRUNCATE, "Mrecv into 2 ints of 6 returned %d", err);
    SUITE_CHECK(small[0] == left * 100 && small[1] == left * 100 + 1, "truncated data");
    MPI_Waitall(2, send, MPI_STATUSES_IGNORE);
}

static void proc_null(void)
{
    MPI_Message msg = MPI_MESSAGE_NULL;
    MPI_Status st;
    st.MPI_SOURCE = 12345;
    MPI_Mprobe(MPI_PROC_NULL, 3, MPI_COMM_WORLD, &msg, &st);
    int count = -1;
    MPI_Get_count(&st, MPI_INT, &count);
    SUITE_CHECK(msg == MPI_MESSAGE_NO_PROC && st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG &&
                    count == 0, "Mprobe of MPI_PROC_NULL");
    int buf = 7;
    MPI_Mrecv(&buf, 1, MPI_INT, &msg, &st);
    SUITE_CHECK(msg == MPI_MESSAGE_NULL && st.MPI_SOURCE == MPI_PROC_NULL && buf == 7, "Mrecv of MPI_MESSAGE_NO_PROC");
    int flag = 0;
    MPI_Improbe(MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &st);
    SUITE_CHECK(flag && msg == MPI_MESSAGE_NO_PROC, "Improbe of MPI_PROC_NULL");
    MPI_Request r;
    MPI_Imrecv(&buf, 1, MPI_INT, &msg, &r);
    MPI_Wait(&r, &st);
    SUITE_CHECK(msg == MPI_MESSAGE_NULL && st.MPI_SOURCE == MPI_PROC_NULL && r == MPI_REQUEST_NULL, "Imrecv of NO_PROC");
}

static void errors(int size)
{
    MPI_Message msg = MPI_MESSAGE_NULL;
    int buf, flag, err;
    err = MPI_Mrecv(&buf, 1, MPI_INT, &msg, MPI_STATUS_IGNORE);
    SUITE_CHECK(err == MPI_ERR_REQUEST, "Mrecv of MPI_MESSAGE_NULL returned %d", err);
    MPI_Request r;
    err = MPI_Imrecv(&buf, 1, MPI_INT, &msg, &r);
    SUITE_CHECK(err == MPI_ERR_REQUEST, "Imrecv of MPI_MESSAGE_NULL returned %d", err);
    err = MPI_Mrecv(&buf, 1, MPI_INT, NULL, MPI_STATUS_IGNORE);
    SUITE_CHECK(err == MPI_ERR_ARG, "Mrecv of no handle returned %d", err);
    err = MPI_Mprobe(size, 0, MPI_COMM_WORLD, &msg, MPI_STATUS_IGNORE);
    SUITE_CHECK(err == MPI_ERR_RANK, "Mprobe of rank %d returned %d", size, err);
    err = MPI_Improbe(0, -7, MPI_COMM_WORLD, &flag, &msg, MPI_STATUS_IGNORE);
    SUITE_CHECK(err == MPI_ERR_TAG, "Improbe of tag -7 returned %d", err);
    err = MPI_Improbe(0, 0, MPI_COMM_NULL, &flag, &msg, MPI_STATUS_IGNORE);
    SUITE_CHECK(err == MPI_ERR_COMM, "Improbe on MPI_COMM_NULL returned %d", err);
    err = MPI_Improbe(0, 0, MPI_COMM_WORLD, NULL, &msg, MPI_STATUS_IGNORE);
    SUITE_CHECK(err == MPI_ERR_ARG, "Improbe without flag returned %d", err);
    err = MPI_Mprobe(0, 0, MPI_COMM_WORLD, NULL, MPI_STATUS_IGNORE);
    SUITE_CHECK(err == MPI_ERR_ARG, "Mprobe without message returned %d", err);
    msg = MPI_MESSAGE_NO_PROC;
    err = MPI_Mrecv(&buf, -1, MPI_INT, &msg, MPI_STATUS_IGNORE);
    SUITE_CHECK(err == MPI_ERR_COUNT, "Mrecv of count -1 returned %d", err);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    errors(size);
    proc_null();
    takes_out_of_matching(rank, size, 0);
    takes_out_of_matching(rank, size, 1);
    wildcards(rank, size);
    types_and_truncation(rank, size);
    return suite_finalize();
}
