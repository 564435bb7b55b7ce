/* Nonblocking patterns of ordinary codes: rings completed with Waitall, an all-to-all
 * drained with Waitsome, Testany mixed with Waitany, persistent requests restarted many
 * times, zero-byte messages, cancelled receives, completion calls on null requests, the
 * status fields the calls must leave alone, and sends freed with MPI_Request_free that are
 * still in flight at MPI_Finalize. Any rank count. */
#include <stdlib.h>
#include <string.h>

#include "../mpi/mpi_check.h"

static _Thread_local int rank, size;

static int val(int from, int round, int i) { return from * 100003 + round * 1009 + i; }

static void rings(void)
{
    static const int lens[] = {0, 1, 7, 18, 100, 2000, 9000};
    int right = (rank + 1) % size, left = (rank + size - 1) % size, bad = 0;
    for (int k = 0; k < (int)(sizeof lens / sizeof lens[0]); k++) {
        int n = lens[k];
        int *out = malloc((n + 1) * sizeof(int)), *in = malloc((n + 1) * sizeof(int));
        int *out2 = malloc((n + 1) * sizeof(int)), *in2 = malloc((n + 1) * sizeof(int));
        for (int i = 0; i < n; i++) {
            out[i] = val(rank, k, i);
            out2[i] = -val(rank, k, i);
        }
        MPI_Request rq[4];
        MPI_Status st[4];
        /* Both directions at once, receives posted after the sends. */
        MPI_Isend(out, n, MPI_INT, right, k, MPI_COMM_WORLD, &rq[0]);
        MPI_Isend(out2, n, MPI_INT, left, k + 100, MPI_COMM_WORLD, &rq[1]);
        MPI_Irecv(in, n, MPI_INT, left, k, MPI_COMM_WORLD, &rq[2]);
        MPI_Irecv(in2, n, MPI_INT, right, MPI_ANY_TAG, MPI_COMM_WORLD, &rq[3]);
        CHECK_EQ(MPI_Waitall(4, rq, st), MPI_SUCCESS);
        for (int i = 0; i < 4; i++)
            CHECK_EQ(rq[i], MPI_REQUEST_NULL);
        int c2 = -1, c3 = -1;
        MPI_Get_count(&st[2], MPI_INT, &c2);
        MPI_Get_count(&st[3], MPI_INT, &c3);
        CHECK_EQ(c2, n);
        CHECK_EQ(c3, n);
        CHECK_EQ(st[2].MPI_SOURCE, left);
        CHECK_EQ(st[3].MPI_SOURCE, right);
        CHECK_EQ(st[3].MPI_TAG, k + 100);
        for (int i = 0; i < n; i++)
            bad += in[i] != val(left, k, i) || in2[i] != -val(right, k, i);
        free(out);
        free(in);
        free(out2);
        free(in2);
    }
    CHECK_EQ(bad, 0);
}

/* Everyone sends one message to everyone (itself too); receives drain with Waitsome. */
static void all_to_all_waitsome(void)
{
    int *in = malloc(size * 4 * sizeof(int)), *out = malloc(size * 4 * sizeof(int));
    MPI_Request *rq = malloc(2 * size * sizeof(MPI_Request));
    int *idx = malloc(2 * size * sizeof(int)), *hits = calloc(2 * size, sizeof(int));
    MPI_Status *st = malloc(2 * size * sizeof(MPI_Status));
    for (int p = 0; p < size; p++) {
        MPI_Irecv(&in[4 * p], 4, MPI_INT, p, 7, MPI_COMM_WORLD, &rq[p]);
        for (int i = 0; i < 4; i++)
            out[4 * p + i] = val(rank, p, i);
    }
    for (int p = 0; p < size; p++)
        MPI_Isend(&out[4 * p], 4, MPI_INT, p, 7, MPI_COMM_WORLD, &rq[size + p]);
    int rounds = 0, got = 0, bad = 0;
    for (;;) {
        int outcount = -5;
        CHECK_EQ(MPI_Waitsome(2 * size, rq, &outcount, idx, st), MPI_SUCCESS);
        if (outcount == MPI_UNDEFINED)
            break;
        CHECK(outcount >= 1);
        for (int j = 0; j < outcount; j++) {
            int i = idx[j];
            hits[i]++;
            bad += rq[i] != MPI_REQUEST_NULL;
            if (i < size) {
                bad += st[j].MPI_SOURCE != i || st[j].MPI_TAG != 7;
                for (int e = 0; e < 4; e++)
                    bad += in[4 * i + e] != val(i, rank, e);
            }
            got++;
        }
        rounds++;
    }
    CHECK_EQ(got, 2 * size);
    CHECK_EQ(bad, 0);
    int twice = 0;
    for (int i = 0; i < 2 * size; i++)
        twice += hits[i] != 1;
    CHECK_EQ(twice, 0);
    free(in);
    free(out);
    free(rq);
    free(idx);
    free(hits);
    free(st);
}

/* A receive from the left and a send to the right, completed by Testany then Waitany. */
static void testany_waitany(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int got = -1, mine = rank * 3, seen[2] = {0, 0}, tests = 0;
    MPI_Request rq[3] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Irecv(&got, 1, MPI_INT, left, 9, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(&mine, 1, MPI_INT, right, 9, MPI_COMM_WORLD, &rq[2]);
    for (int done = 0; done < 2;) {
        int index = -7, flag = -1;
        MPI_Status st;
        CHECK_EQ(MPI_Testany(3, rq, &index, &flag, &st), MPI_SUCCESS);
        tests++;
        if (!flag) {
            CHECK_EQ(index, MPI_UNDEFINED);
            CHECK_EQ(MPI_Waitany(3, rq, &index, &st), MPI_SUCCESS);
        }
        CHECK(index == 0 || index == 2);
        if (index == 0 || index == 2) {
            seen[index / 2]++;
            CHECK_EQ(rq[index], MPI_REQUEST_NULL);
            if (index == 0)
                CHECK_EQ(st.MPI_SOURCE, left);
        }
        done++;
    }
    CHECK_EQ(seen[0], 1);
    CHECK_EQ(seen[1], 1);
    CHECK_EQ(got, left * 3);
    /* All null now: Testany says complete with MPI_UNDEFINED, Waitany the same. */
    int index = -7, flag = 0;
    MPI_Status st;
    CHECK_EQ(MPI_Testany(3, rq, &index, &flag, &st), MPI_SUCCESS);
    CHECK_EQ(flag, 1);
    CHECK_EQ(index, MPI_UNDEFINED);
    index = -7;
    CHECK_EQ(MPI_Waitany(3, rq, &index, &st), MPI_SUCCESS);
    CHECK_EQ(index, MPI_UNDEFINED);
    CHECK_EQ(MPI_Testall(3, rq, &flag, MPI_STATUSES_IGNORE), MPI_SUCCESS);
    CHECK_EQ(flag, 1);
    int outcount = -7, idx[3];
    CHECK_EQ(MPI_Testsome(3, rq, &outcount, idx, MPI_STATUSES_IGNORE), MPI_SUCCESS);
    CHECK_EQ(outcount, MPI_UNDEFINED);
    /* Wait on a null request: an empty status. */
    MPI_Request none = MPI_REQUEST_NULL;
    st.MPI_SOURCE = st.MPI_TAG = 12345;
    CHECK_EQ(MPI_Wait(&none, &st), MPI_SUCCESS);
    CHECK_EQ(st.MPI_SOURCE, MPI_ANY_SOURCE);
    CHECK_EQ(st.MPI_TAG, MPI_ANY_TAG);
    int c = -1;
    MPI_Get_count(&st, MPI_INT, &c);
    CHECK_EQ(c, 0);
    MPI_Test_cancelled(&st, &flag);
    CHECK_EQ(flag, 0);
}

/* Persistent sends and receives around the ring, restarted many times with new data. */
static void persistent(void)
{
    enum { N = 33, ROUNDS = 60 };
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    double *out = malloc(N * sizeof(double)), *in = malloc(N * sizeof(double));
    MPI_Request rq[2];
    CHECK_EQ(MPI_Recv_init(in, N, MPI_DOUBLE, left, 5, MPI_COMM_WORLD, &rq[0]), MPI_SUCCESS);
    CHECK_EQ(MPI_Send_init(out, N, MPI_DOUBLE, right, 5, MPI_COMM_WORLD, &rq[1]), MPI_SUCCESS);
    /* An inactive persistent request completes at once with an empty status. */
    int flag = 0;
    MPI_Status st;
    CHECK_EQ(MPI_Test(&rq[0], &flag, &st), MPI_SUCCESS);
    CHECK_EQ(flag, 1);
    CHECK(rq[0] != MPI_REQUEST_NULL);
    CHECK_EQ(st.MPI_SOURCE, MPI_ANY_SOURCE);
    int bad = 0;
    for (int r = 0; r < ROUNDS; r++) {
        for (int i = 0; i < N; i++)
            out[i] = rank + r * 0.5 + i * 0.25;
        CHECK_EQ(MPI_Startall(2, rq), MPI_SUCCESS);
        MPI_Status sts[2];
        MPI_Waitall(2, rq, sts);
        bad += rq[0] == MPI_REQUEST_NULL || rq[1] == MPI_REQUEST_NULL;
        bad += sts[0].MPI_SOURCE != left || sts[0].MPI_TAG != 5;
        for (int i = 0; i < N; i++)
            bad += in[i] != left + r * 0.5 + i * 0.25;
    }
    CHECK_EQ(bad, 0);
    /* One more round with Start and Wait on each. */
    MPI_Start(&rq[0]);
    MPI_Start(&rq[1]);
    MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
    MPI_Wait(&rq[0], &st);
    CHECK_EQ(st.MPI_SOURCE, left);
    CHECK_EQ(MPI_Request_free(&rq[0]), MPI_SUCCESS);
    CHECK_EQ(MPI_Request_free(&rq[1]), MPI_SUCCESS);
    CHECK_EQ(rq[0], MPI_REQUEST_NULL);
    free(out);
    free(in);
}

/* Zero-byte messages: null buffers, counts, status. */
static void zero_bytes(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Request r;
    MPI_Status st;
    MPI_Irecv(NULL, 0, MPI_DOUBLE, MPI_ANY_SOURCE, 77, MPI_COMM_WORLD, &r);
    CHECK_EQ(MPI_Send(NULL, 0, MPI_DOUBLE, right, 77, MPI_COMM_WORLD), MPI_SUCCESS);
    CHECK_EQ(MPI_Wait(&r, &st), MPI_SUCCESS);
    int c = -1;
    MPI_Get_count(&st, MPI_DOUBLE, &c);
    CHECK_EQ(c, 0);
    CHECK_EQ(st.MPI_SOURCE, left);
    CHECK_EQ(st.MPI_TAG, 77);
    /* A zero-count receive also matches a zero-count Ssend. */
    MPI_Irecv(NULL, 0, MPI_INT, left, 78, MPI_COMM_WORLD, &r);
    CHECK_EQ(MPI_Ssend(NULL, 0, MPI_INT, right, 78, MPI_COMM_WORLD), MPI_SUCCESS);
    CHECK_EQ(MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_SUCCESS);
}

/* Cancelled receives, and the messages they did not take going to the next receive. */
static void cancel(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int never = -1, x = -1, y = -1;
    MPI_Request r;
    MPI_Status st;
    CHECK_EQ(MPI_Irecv(&never, 1, MPI_INT, MPI_ANY_SOURCE, 4242, MPI_COMM_WORLD, &r), MPI_SUCCESS);
    CHECK_EQ(MPI_Cancel(&r), MPI_SUCCESS);
    CHECK(r != MPI_REQUEST_NULL); /* Cancel marks the request; Wait completes it */
    CHECK_EQ(MPI_Wait(&r, &st), MPI_SUCCESS);
    int flag = 0;
    MPI_Test_cancelled(&st, &flag);
    CHECK_EQ(flag, 1);
    CHECK_EQ(never, -1);
    /* Cancel one of two receives for the same message: the other gets it. */
    MPI_Request a, b;
    MPI_Irecv(&x, 1, MPI_INT, left, 43, MPI_COMM_WORLD, &a);
    MPI_Irecv(&y, 1, MPI_INT, left, 43, MPI_COMM_WORLD, &b);
    MPI_Cancel(&a);
    MPI_Barrier(MPI_COMM_WORLD); /* so no message can have matched `a` before its cancel */
    int v = rank + 1000;
    MPI_Send(&v, 1, MPI_INT, right, 43, MPI_COMM_WORLD);
    MPI_Wait(&b, &st);
    CHECK_EQ(y, left + 1000);
    MPI_Wait(&a, &st);
    MPI_Test_cancelled(&st, &flag);
    CHECK_EQ(flag, 1);
    CHECK_EQ(x, -1);
    /* Cancel then Request_free: allowed, nothing arrives. */
    MPI_Irecv(&never, 1, MPI_INT, left, 4243, MPI_COMM_WORLD, &r);
    MPI_Cancel(&r);
    CHECK_EQ(MPI_Request_free(&r), MPI_SUCCESS);
    CHECK_EQ(r, MPI_REQUEST_NULL);
}

/* Single-completion calls and MPI_Probe do not modify MPI_ERROR (3.2.5). */
static void status_error_field(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size, v = rank, w = -1;
    MPI_Status st;
    st.MPI_ERROR = 4321;
    MPI_Send(&v, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD);
    MPI_Recv(&w, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st);
    CHECK_EQ(st.MPI_SOURCE, MPI_PROC_NULL);
    CHECK_EQ(st.MPI_ERROR, 4321);
    st.MPI_ERROR = 4321;
    MPI_Probe(MPI_PROC_NULL, 1, MPI_COMM_WORLD, &st);
    CHECK_EQ(st.MPI_SOURCE, MPI_PROC_NULL);
    CHECK_EQ(st.MPI_ERROR, 4321);
    MPI_Request r;
    MPI_Isend(&v, 1, MPI_INT, right, 2, MPI_COMM_WORLD, &r);
    st.MPI_ERROR = 4321;
    MPI_Probe(left, 2, MPI_COMM_WORLD, &st);
    CHECK_EQ(st.MPI_ERROR, 4321);
    int flag = 0;
    st.MPI_ERROR = 4321;
    MPI_Iprobe(left, 2, MPI_COMM_WORLD, &flag, &st);
    CHECK_EQ(flag, 1);
    CHECK_EQ(st.MPI_ERROR, 4321);
    st.MPI_ERROR = 4321;
    MPI_Recv(&w, 1, MPI_INT, left, 2, MPI_COMM_WORLD, &st);
    CHECK_EQ(st.MPI_ERROR, 4321);
    st.MPI_ERROR = 4321;
    MPI_Wait(&r, &st);
    CHECK_EQ(st.MPI_ERROR, 4321);
    CHECK_EQ(w, left);
    /* The array calls write MPI_ERROR only when they return MPI_ERR_IN_STATUS. */
    MPI_Request rq[2];
    MPI_Status sts[2];
    int outcount = 0, idx[2];
    sts[0].MPI_ERROR = sts[1].MPI_ERROR = 4321;
    MPI_Irecv(&w, 1, MPI_INT, left, 3, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(&v, 1, MPI_INT, right, 3, MPI_COMM_WORLD, &rq[1]);
    CHECK_EQ(MPI_Waitall(2, rq, sts), MPI_SUCCESS);
    CHECK_EQ(sts[0].MPI_ERROR, 4321);
    CHECK_EQ(sts[1].MPI_ERROR, 4321);
    MPI_Irecv(&w, 1, MPI_INT, left, 4, MPI_COMM_WORLD, &rq[0]);
    MPI_Send(&v, 1, MPI_INT, right, 4, MPI_COMM_WORLD);
    CHECK_EQ(MPI_Waitsome(1, rq, &outcount, idx, sts), MPI_SUCCESS);
    CHECK_EQ(outcount, 1);
    CHECK_EQ(sts[0].MPI_ERROR, 4321);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    rings();
    all_to_all_waitsome();
    testany_waitany();
    persistent();
    zero_bytes();
    cancel();
    status_error_field();
    MPI_Barrier(MPI_COMM_WORLD);
    /* Freed sends in flight at MPI_Finalize: a small and a large one to the right, which
     * the right neighbour receives only after a barrier. */
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int small = rank * 7;
    int *big = malloc(20000 * sizeof(int)), *in = malloc(20000 * sizeof(int));
    for (int i = 0; i < 20000; i++)
        big[i] = rank ^ i;
    MPI_Request r;
    MPI_Isend(&small, 1, MPI_INT, right, 90, MPI_COMM_WORLD, &r);
    CHECK_EQ(MPI_Request_free(&r), MPI_SUCCESS);
    MPI_Isend(big, 20000, MPI_INT, right, 91, MPI_COMM_WORLD, &r);
    CHECK_EQ(MPI_Request_free(&r), MPI_SUCCESS);
    CHECK_EQ(r, MPI_REQUEST_NULL);
    MPI_Barrier(MPI_COMM_WORLD);
    int got = -1, bad = 0;
    MPI_Recv(&got, 1, MPI_INT, left, 90, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(in, 20000, MPI_INT, left, 91, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK_EQ(got, left * 7);
    for (int i = 0; i < 20000; i++)
        bad += in[i] != (left ^ i);
    CHECK_EQ(bad, 0);
    /* And one whose receive is posted by nobody until after this rank's Finalize began:
     * the left neighbour's send to us arrives whenever; we receive it here last. */
    MPI_Isend(&small, 1, MPI_INT, right, 92, MPI_COMM_WORLD, &r);
    MPI_Request_free(&r);
    MPI_Recv(&got, 1, MPI_INT, left, 92, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK_EQ(got, left * 7);
    int rc = check_finish("mu_nonblocking");
    MPI_Finalize();
    free(big); /* the freed send's buffer may be reused only after Finalize */
    free(in);
    return rc;
}
