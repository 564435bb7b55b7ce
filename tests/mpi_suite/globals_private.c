/* Every rank has its own copy of the program's globals, as if it were a process: a global
 * counter, a static inside a function, getopt's state, what a thread the rank starts sees,
 * and global arrays used as the buffers of every kind of transfer (point-to-point of each
 * protocol's size, nonblocking with global requests, collectives). Run with arguments "-n 5 -v name extra".
 * Linked with -shared-globals (globals_shared), the same program checks that the ranks of
 * a cluster share them instead: they see one counter. */
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <nvx/private_globals.h>
#include <nvx/thread.h>

#include "suite.h"

#define MAX_INTS 2048 /* 8 KiB: beyond the cells, the direct-copy size and the eager size */

int g_counter = 100;
int g_send[MAX_INTS];
int g_recv[MAX_INTS];
int g_all[64];
MPI_Request g_requests[2];
MPI_Status g_statuses[2];
static int g_option_n;
static const char *g_option_v;

static int g_seen_by_thread;

/* A thread a rank starts sees the rank's copy. */
static void *thread_of_rank(void *arg)
{
    g_seen_by_thread = g_counter + *(int *)arg;
    return NULL;
}

static int calls_so_far(void)
{
    static int calls;
    return ++calls;
}

static void parse_options(int argc, char **argv)
{
    int c;
    while ((c = getopt(argc, argv, "n:v:")) != -1) {
        if (c == 'n')
            g_option_n = atoi(optarg);
        else if (c == 'v')
            g_option_v = optarg;
        else
            SUITE_FAIL("getopt returned '%c'", c);
    }
    SUITE_CHECK(g_option_n == 5, "-n parsed as %d, expected 5", g_option_n);
    SUITE_CHECK(g_option_v != NULL && strcmp(g_option_v, "name") == 0, "-v parsed as %s", g_option_v ? g_option_v : "(none)");
    SUITE_CHECK(optind == argc - 1 && strcmp(argv[optind], "extra") == 0, "optind %d of %d", optind, argc);
}

/* A ring through global buffers: from the left neighbour into g_recv, n ints. */
static void ring(int rank, int size, int n, int blocking)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    suite_fill(g_send, n, rank * 7 + n);
    memset(g_recv, 0xff, sizeof(int) * (size_t)n);
    if (blocking) {
        MPI_Sendrecv(g_send, n, MPI_INT, right, n, g_recv, n, MPI_INT, left, n, MPI_COMM_WORLD, &g_statuses[0]);
    } else {
        MPI_Irecv(g_recv, n, MPI_INT, left, n, MPI_COMM_WORLD, &g_requests[0]);
        MPI_Isend(g_send, n, MPI_INT, right, n, MPI_COMM_WORLD, &g_requests[1]);
        MPI_Waitall(2, g_requests, g_statuses);
    }
    SUITE_CHECK(suite_filled(g_recv, n, left * 7 + n), "%s ring of %d ints: wrong data from rank %d",
                blocking ? "blocking" : "nonblocking", n, left);
    SUITE_CHECK(g_statuses[0].MPI_SOURCE == left, "status source %d, expected %d", g_statuses[0].MPI_SOURCE, left);
}

static void collectives(int rank, int size)
{
    g_send[0] = rank;
    MPI_Allgather(g_send, 1, MPI_INT, g_all, 1, MPI_INT, MPI_COMM_WORLD);
    for (int r = 0; r < size && r < 64; r++)
        SUITE_CHECK(g_all[r] == r, "allgather: element %d is %d", r, g_all[r]);
    suite_fill(g_send, 1024, rank);
    MPI_Allreduce(MPI_IN_PLACE, g_send, 1024, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    SUITE_CHECK(suite_filled(g_send, 1024, size - 1), "allreduce in place into a global array");
    if (rank == 0)
        suite_fill(g_recv, MAX_INTS, 77);
    MPI_Bcast(g_recv, MAX_INTS, MPI_INT, 0, MPI_COMM_WORLD);
    SUITE_CHECK(suite_filled(g_recv, MAX_INTS, 77), "bcast into a global array");
    /* Nonblocking collectives progress from global buffers and global requests. */
    suite_fill(g_send, MAX_INTS, rank);
    if (rank == size - 1)
        suite_fill(g_recv, MAX_INTS, 55);
    MPI_Iallreduce(MPI_IN_PLACE, g_send, MAX_INTS, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &g_requests[0]);
    MPI_Ibcast(g_recv, MAX_INTS, MPI_INT, size - 1, MPI_COMM_WORLD, &g_requests[1]);
    MPI_Waitall(2, g_requests, g_statuses);
    SUITE_CHECK(suite_filled(g_send, MAX_INTS, size - 1), "iallreduce in place into a global array");
    SUITE_CHECK(suite_filled(g_recv, MAX_INTS, 55), "ibcast into a global array");
}

/* The shared address of a global reaches the sender's copy from another rank of its
 * cluster; its plain address reaches the reader's own. */
static void addresses(int rank)
{
    MPI_Comm local;
    int local_rank, local_size;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local);
    MPI_Comm_rank(local, &local_rank);
    MPI_Comm_size(local, &local_size);
    if (local_size >= 2 && local_rank < 2) {
        g_counter = 1000 + rank;
        uint64_t mine[2] = {(uint64_t)(uintptr_t)&g_counter, (uint64_t)(uintptr_t)nvx_shared_address(&g_counter)};
        uint64_t theirs[2];
        int peer = 1 - local_rank, peer_rank = 0;
        MPI_Sendrecv(mine, 2, MPI_UINT64_T, peer, 99, theirs, 2, MPI_UINT64_T, peer, 99, local, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&rank, 1, MPI_INT, peer, 98, &peer_rank, 1, MPI_INT, peer, 98, local, MPI_STATUS_IGNORE);
        SUITE_CHECK(theirs[0] == mine[0], "the same global has the same address in every rank");
        SUITE_CHECK(theirs[1] != mine[1], "each copy has a shared address of its own");
        SUITE_CHECK(*(volatile int *)(uintptr_t)theirs[0] == 1000 + rank, "a plain address reaches the reader's own copy");
        SUITE_CHECK(*(volatile int *)(uintptr_t)theirs[1] == 1000 + peer_rank, "the shared address reaches the peer's copy");
    }
    MPI_Comm_free(&local);
}

static void check_private(int rank, int size)
{
    g_counter += rank;
    for (int i = 0; i < rank + 1; i++)
        calls_so_far();
    MPI_Barrier(MPI_COMM_WORLD);
    SUITE_CHECK(g_counter == 100 + rank, "counter %d, expected %d: another rank wrote it", g_counter, 100 + rank);
    SUITE_CHECK(calls_so_far() == rank + 2, "a function's static counts other ranks' calls");
    nvx_thread_t helper;
    int one = 1;
    SUITE_CHECK(nvx_thread_create(&helper, NULL, thread_of_rank, &one) == 0, "cannot start a thread");
    nvx_thread_join(helper, NULL);
    SUITE_CHECK(g_seen_by_thread == 101 + rank, "the rank's thread saw %d, expected %d", g_seen_by_thread, 101 + rank);
    SUITE_CHECK(nvx_private_globals_size() > sizeof g_send + sizeof g_recv, "private region of %zu bytes",
                nvx_private_globals_size());
    for (int n = 1; n <= MAX_INTS; n *= 4) {
        ring(rank, size, n, 1);
        ring(rank, size, n, 0);
    }
    collectives(rank, size);
    MPI_Barrier(MPI_COMM_WORLD);
    addresses(rank);
}

/* -shared-globals: the ranks of a cluster add into one counter. */
static void check_shared(int rank)
{
    MPI_Comm local;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local);
    int rank_sum = 0;
    MPI_Allreduce(&rank, &rank_sum, 1, MPI_INT, MPI_SUM, local);
    __atomic_fetch_add(&g_counter, rank, __ATOMIC_RELAXED);
    MPI_Barrier(local);
    SUITE_CHECK(__atomic_load_n(&g_counter, __ATOMIC_RELAXED) == 100 + rank_sum,
                "shared counter %d, expected %d", g_counter, 100 + rank_sum);
    SUITE_CHECK(nvx_private_globals_size() == 0, "no private region when linked -shared-globals");
    MPI_Comm_free(&local);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (nvx_private_globals_size() != 0) {
        parse_options(argc, argv);
        check_private(rank, size);
    } else {
        check_shared(rank);
    }
    return suite_finalize();
}
