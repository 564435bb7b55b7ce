/* A rank inside a blocking collective's shared-memory phase (libmpi/coll_shm.hpp) keeps
 * progressing its other operations, as MPI's progress rule asks: each phase below is a valid
 * program that deadlocks when a rank waiting there sleeps without progressing them.
 *  - MPI_Ibarrier / MPI_Ibcast completed by a Wait before the blocking collective on some
 *    ranks and after it on the others (which of them alternates from phase to phase), with
 *    every blocking collective that has a shared-memory phase;
 *  - a pending MPI_Irecv (or MPI_Isend) of a rendezvous-sized message whose peer completes
 *    its blocking side before entering the Barrier the receiver (sender) is already in, with
 *    the peers on different clusters under a compact mapping (the other half of the ranks);
 *  - a nonblocking collective on another communicator started before, completed after. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "suite.h"

enum { BIG = 1024 };  /* ints: a rendezvous message between clusters */

static int rank, size;

/* The blocking collectives that go through the shared memory, one per kind. */
enum { BARRIER, ALLREDUCE, BCAST, REDUCE, ALLTOALL, KINDS };

static void blocking(int kind, MPI_Comm comm)
{
    int me, n;
    MPI_Comm_rank(comm, &me);
    MPI_Comm_size(comm, &n);
    int one = me + 1, sum = -1;
    int* out = malloc(sizeof(int) * (size_t)n);
    int* in = malloc(sizeof(int) * (size_t)n);
    if (!out || !in) {
        SUITE_FAIL("no memory");
        free(out);
        free(in);
        return;
    }
    switch (kind) {
    case BARRIER:
        MPI_Barrier(comm);
        break;
    case ALLREDUCE:
        MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, comm);
        SUITE_CHECK(sum == n * (n + 1) / 2, "allreduce: %d, want %d", sum, n * (n + 1) / 2);
        break;
    case BCAST:
        sum = me == n - 1 ? 4242 : 0;
        MPI_Bcast(&sum, 1, MPI_INT, n - 1, comm);
        SUITE_CHECK(sum == 4242, "bcast: %d", sum);
        break;
    case REDUCE:
        MPI_Reduce(&one, &sum, 1, MPI_INT, MPI_SUM, n / 2, comm);
        SUITE_CHECK(me != n / 2 || sum == n * (n + 1) / 2, "reduce: %d, want %d", sum, n * (n + 1) / 2);
        break;
    default:
        for (int i = 0; i < n; i++)
            out[i] = me * 1000 + i;
        MPI_Alltoall(out, 1, MPI_INT, in, 1, MPI_INT, comm);
        for (int i = 0; i < n; i++)
            SUITE_CHECK(in[i] == i * 1000 + me, "alltoall: [%d] %d", i, in[i]);
        break;
    }
    free(out);
    free(in);
}

/* Whether this rank waits for its nonblocking collective before the blocking one in
 * phase `phase` (the others wait after it). */
static int waits_first(int phase)
{
    switch (phase % 3) {
    case 0: return rank % 2;
    case 1: return rank < size / 2;
    default: return rank % 3 != 0;
    }
}

static void ibarrier_around(int kind, int phase)
{
    MPI_Request req;
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    if (waits_first(phase))
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    blocking(kind, MPI_COMM_WORLD);
    if (!waits_first(phase))
        MPI_Wait(&req, MPI_STATUS_IGNORE);
}

static void ibcast_around(int kind, int phase)
{
    int data[4] = {0, 0, 0, 0};
    if (rank == 0)
        suite_fill(data, 4, 77);
    MPI_Request req;
    MPI_Ibcast(data, 4, MPI_INT, 0, MPI_COMM_WORLD, &req);
    if (waits_first(phase))
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    blocking(kind, MPI_COMM_WORLD);
    if (!waits_first(phase))
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    SUITE_CHECK(suite_filled(data, 4, 77), "ibcast: wrong data");
}

/* Ranks r and r + size/2 pair up (odd size: the last rank sits out): the receiver posts an
 * Irecv and enters the collective; the sender's blocking Send completes only once the
 * receiver answered the rendezvous, which a receiver asleep in the collective never does.
 * `reverse`: the sender posts an Isend and enters, the receiver runs a blocking Recv. */
static void pending_p2p_around(int kind, int reverse)
{
    int half = size / 2;
    int* buf = malloc(sizeof(int) * BIG);
    if (!buf) {
        SUITE_FAIL("no memory");
        return;
    }
    int lower = rank < half;
    int peer = lower ? rank + half : rank - half;
    int receives = lower != reverse;
    int pending = lower;  /* the lower rank of a pair is the one inside the collective */
    if (rank >= 2 * half) {
        blocking(kind, MPI_COMM_WORLD);
        free(buf);
        return;
    }
    if (receives)
        memset(buf, 0, sizeof(int) * BIG);
    else
        suite_fill(buf, BIG, peer);
    if (pending) {
        MPI_Request req;
        if (receives)
            MPI_Irecv(buf, BIG, MPI_INT, peer, 9, MPI_COMM_WORLD, &req);
        else
            MPI_Isend(buf, BIG, MPI_INT, peer, 9, MPI_COMM_WORLD, &req);
        blocking(kind, MPI_COMM_WORLD);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else {
        if (receives)
            MPI_Recv(buf, BIG, MPI_INT, peer, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        else
            MPI_Send(buf, BIG, MPI_INT, peer, 9, MPI_COMM_WORLD);
        blocking(kind, MPI_COMM_WORLD);
    }
    if (receives)
        SUITE_CHECK(suite_filled(buf, BIG, rank), "pending %s: wrong data", reverse ? "isend" : "irecv");
    free(buf);
}

/* An Iallreduce on a duplicate, started by everyone, finished by half of the ranks before
 * a blocking collective on MPI_COMM_WORLD and by the others after it. */
static void other_comm_around(int kind, MPI_Comm dup, int phase)
{
    int one = 1, sum = 0;
    MPI_Request req;
    MPI_Iallreduce(&one, &sum, 1, MPI_INT, MPI_SUM, dup, &req);
    if (waits_first(phase))
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    blocking(kind, MPI_COMM_WORLD);
    if (!waits_first(phase))
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    SUITE_CHECK(sum == size, "iallreduce: %d, want %d", sum, size);
}

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    blocking(BARRIER, MPI_COMM_WORLD);  /* the communicator decides on its shared phase */
    for (int phase = 0; phase < 3; phase++) {
        for (int kind = 0; kind < KINDS; kind++) {
            ibarrier_around(kind, phase);
            ibcast_around(kind, phase + 1);
            other_comm_around(kind, dup, phase + 2);
        }
    }
    for (int kind = 0; kind < KINDS; kind++) {
        pending_p2p_around(kind, 0);
        pending_p2p_around(kind, 1);
    }
    MPI_Comm_free(&dup);
    return suite_finalize();
}
