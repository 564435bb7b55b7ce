/* LWMPI gives back what it takes. Its memory is read from the allocator (heap in use,
 * newlib's mallinfo through <nvx/memory.h>) by the first rank of each cluster while the
 * cluster's other ranks wait, since ranks of a cluster share one heap.
 * The reading must see no message or collective in flight: a blocking collective keeps its
 * schedule on the heap while it runs, and a message arriving at a cluster takes an entry
 * there, so ranks that went on to a barrier while the reader read made the level differ by
 * what they held (and by how the heap's chunks lay under it). The cluster's ranks wait on a
 * plain barrier of the cluster instead, and the clusters read one after another, each let
 * go by the one before, so nothing is sent to a cluster while it reads.
 *  1. One round of the workload first, and once what step 3 does on MPI_COMM_SELF: it
 *     starts what LWMPI keeps by design (output mailboxes and portals stay open; a
 *     communicator builds its schedules on first use); the level is read after.
 *  2. Many rounds of collectives (barrier, bcast, reduce, allreduce, allgather, alltoall,
 *     scan) and of unexpected messages (each rank sends a burst to its neighbour before it
 *     posts a receive: eager and local-cell sizes and rendezvous sizes), then the heap in
 *     use must be back at that level, to the byte.
 *  3. Exhaustion: rank 0 takes every byte of its cluster's heap while the others wait in
 *     a receive posted before (so nothing else on the cluster needs memory meanwhile);
 *     then MPI_Comm_dup(MPI_COMM_SELF) and MPI_Isend to itself must return MPI_ERR_NO_MEM,
 *     and succeed once the memory is given back. Twice: the second time leaves the heap in
 *     use where the first left it (a failed call keeps nothing; the first may leave a few
 *     bytes that the heap's layout after the hoard holds, 16 measured in the opt build). */
#include <mpi.h>
#include <nvx/memory.h>
#include <nvx/sync.h>
#include <stdlib.h>
#include <string.h>

#include "suite.h"
#include "heap_exhaust.h"

enum { ROUNDS = 12, BURST = 8, COLL_COUNT = 256 };
static const int burst_bytes[] = {8, 200, 1000, 3000};  /* eager/cell, then rendezvous */

/* Who reads: each cluster's first rank (a reader), in world-rank order. */
struct readers {
    int node_rank;
    int prev, next; /* the readers before and after this rank's cluster, or MPI_PROC_NULL */
    int last;       /* the last reader, which lets every rank go */
};

static nvx_barrier_t *cluster_quiet; /* the cluster's ranks: in the heap, which they share */

static struct readers find_readers(int rank, int size, MPI_Comm node)
{
    struct readers r;
    int node_size;
    MPI_Comm_rank(node, &r.node_rank);
    MPI_Comm_size(node, &node_size);
    uint64_t quiet = 0;
    if (r.node_rank == 0) {
        cluster_quiet = malloc(sizeof *cluster_quiet);
        nvx_barrier_init(cluster_quiet, (unsigned)node_size);
        quiet = (uint64_t)(uintptr_t)cluster_quiet;
    }
    MPI_Bcast(&quiet, 1, MPI_UINT64_T, 0, node);
    cluster_quiet = (nvx_barrier_t *)(uintptr_t)quiet;
    int *first = malloc(sizeof(int) * (size_t)size);
    MPI_Allgather(&r.node_rank, 1, MPI_INT, first, 1, MPI_INT, MPI_COMM_WORLD);
    r.prev = r.next = MPI_PROC_NULL;
    r.last = 0;
    for (int i = 0; i < size; i++) {
        if (first[i] != 0) continue;
        if (i < rank) r.prev = i;
        if (i > rank && r.next == MPI_PROC_NULL) r.next = i;
        r.last = i;
    }
    free(first);
    return r;
}

/* The heap in use, read by the cluster's first rank while no rank sends or runs a
 * collective: the work is done (the barrier), the cluster's ranks wait on cluster_quiet,
 * the previous cluster's reader lets this one read, and the last reader lets everyone go. */
static uint64_t cluster_heap(int rank, int size, const struct readers *r)
{
    uint64_t in_use = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    nvx_barrier_wait(cluster_quiet);
    if (r->node_rank == 0) {
        int token = 0;
        MPI_Recv(&token, 1, MPI_INT, r->prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        struct nvx_memory m;
        nvx_memory_get(&m);
        in_use = m.heap_in_use;
        MPI_Send(&token, 1, MPI_INT, r->next, 0, MPI_COMM_WORLD);
    }
    nvx_barrier_wait(cluster_quiet);
    int go = 0;
    if (rank == r->last) {
        for (int i = 0; i < size; i++)
            if (i != rank) MPI_Send(&go, 1, MPI_INT, i, 1, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&go, 1, MPI_INT, r->last, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    return in_use;
}

static void collectives(int rank, int size)
{
    int a[COLL_COUNT], b[COLL_COUNT];
    for (int i = 0; i < COLL_COUNT; i++) a[i] = rank + i;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Bcast(a, COLL_COUNT, MPI_INT, size - 1, MPI_COMM_WORLD);
    MPI_Reduce(a, b, COLL_COUNT, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Allreduce(a, b, COLL_COUNT, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    SUITE_CHECK(b[1] == a[1], "allreduce max %d, expected %d", b[1], a[1]);
    int *all = malloc(sizeof(int) * 4 * size), *got = malloc(sizeof(int) * 4 * size);
    for (int i = 0; i < 4 * size; i++) all[i] = rank * 1000 + i;
    MPI_Allgather(all, 4, MPI_INT, got, 4, MPI_INT, MPI_COMM_WORLD);
    MPI_Alltoall(all, 4, MPI_INT, got, 4, MPI_INT, MPI_COMM_WORLD);
    SUITE_CHECK(got[4 * (size - 1)] == (size - 1) * 1000 + 4 * rank, "alltoall got %d", got[4 * (size - 1)]);
    free(all);
    free(got);
    int x = rank + 1, sum = 0;
    MPI_Scan(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    SUITE_CHECK(sum == (rank + 1) * (rank + 2) / 2, "scan %d", sum);
}

/* A burst to the next rank before the previous one's is received: all unexpected. */
static void unexpected_burst(int rank, int size, int bytes)
{
    int to = (rank + 1) % size, from = (rank + size - 1) % size;
    char *out = malloc((size_t)bytes * BURST), *in = malloc((size_t)bytes);
    MPI_Request req[BURST];
    for (int i = 0; i < BURST; i++) {
        memset(out + (size_t)i * bytes, rank + i, (size_t)bytes);
        MPI_Isend(out + (size_t)i * bytes, bytes, MPI_CHAR, to, i, MPI_COMM_WORLD, &req[i]);
    }
    MPI_Barrier(MPI_COMM_WORLD);  /* every burst is out before any receive is posted */
    for (int i = 0; i < BURST; i++) {
        MPI_Recv(in, bytes, MPI_CHAR, from, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        SUITE_CHECK(in[bytes - 1] == (char)(from + i), "message %d from %d carried %d", i, from, in[bytes - 1]);
    }
    MPI_Waitall(BURST, req, MPI_STATUSES_IGNORE);
    free(out);
    free(in);
}

static void round_of_work(int rank, int size)
{
    collectives(rank, size);
    for (unsigned k = 0; k < sizeof burst_bytes / sizeof burst_bytes[0]; k++)
        unexpected_burst(rank, size, burst_bytes[k]);
}

/* What rank 0 does on MPI_COMM_SELF once memory is back: a dup, a message to itself. */
static void self_calls(void)
{
    MPI_Comm dup = MPI_COMM_NULL;
    int err = MPI_Comm_dup(MPI_COMM_SELF, &dup);
    SUITE_CHECK(err == MPI_SUCCESS, "MPI_Comm_dup: %d", err);
    if (err == MPI_SUCCESS) MPI_Comm_free(&dup);
    int value = 7, back = 0;
    MPI_Request req = MPI_REQUEST_NULL;
    err = MPI_Isend(&value, 1, MPI_INT, 0, 3, MPI_COMM_SELF, &req);
    SUITE_CHECK(err == MPI_SUCCESS, "MPI_Isend to itself: %d", err);
    if (err == MPI_SUCCESS) {
        MPI_Recv(&back, 1, MPI_INT, 0, 3, MPI_COMM_SELF, MPI_STATUS_IGNORE);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        SUITE_CHECK(back == 7, "received %d from itself", back);
    }
}

static void exhaustion(int rank, int size)
{
    int go = 0;
    MPI_Request wait_for_rank0 = MPI_REQUEST_NULL;
    if (rank != 0) MPI_Irecv(&go, 1, MPI_INT, 0, 99, MPI_COMM_WORLD, &wait_for_rank0);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        struct block *hoard = take_all_memory();
        MPI_Comm dup = MPI_COMM_NULL;
        int err = MPI_Comm_dup(MPI_COMM_SELF, &dup);
        int cls = MPI_SUCCESS;
        MPI_Error_class(err, &cls);
        SUITE_CHECK(cls == MPI_ERR_NO_MEM, "MPI_Comm_dup with no memory: class %d, expected MPI_ERR_NO_MEM", cls);
        int value = 7;
        MPI_Request req = MPI_REQUEST_NULL;
        err = MPI_Isend(&value, 1, MPI_INT, 0, 3, MPI_COMM_SELF, &req);
        MPI_Error_class(err, &cls);
        SUITE_CHECK(cls == MPI_ERR_NO_MEM, "MPI_Isend with no memory: class %d, expected MPI_ERR_NO_MEM", cls);
        give_back(hoard);
        self_calls();  /* the same calls succeed once memory is back */
        for (int r = 1; r < size; r++) MPI_Send(&value, 1, MPI_INT, r, 99, MPI_COMM_WORLD);
    } else {
        MPI_Wait(&wait_for_rank0, MPI_STATUS_IGNORE);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    struct readers readers = find_readers(rank, size, node);
    int node_rank = readers.node_rank;

    round_of_work(rank, size);
    if (rank == 0) self_calls();
    uint64_t level = cluster_heap(rank, size, &readers);
    for (int r = 0; r < ROUNDS; r++) round_of_work(rank, size);
    uint64_t after = cluster_heap(rank, size, &readers);
    if (node_rank == 0)
        SUITE_CHECK(after == level, "heap in use %llu bytes after %d rounds, %llu before", (unsigned long long)after,
                    ROUNDS, (unsigned long long)level);

    exhaustion(rank, size);
    uint64_t once = cluster_heap(rank, size, &readers);
    exhaustion(rank, size);
    uint64_t twice = cluster_heap(rank, size, &readers);
    if (node_rank == 0) {
        SUITE_CHECK(once - level <= 64, "heap in use %llu bytes after an exhaustion, %llu before",
                    (unsigned long long)once, (unsigned long long)level);
        SUITE_CHECK(twice == once, "heap in use %llu bytes after a second exhaustion, %llu after the first",
                    (unsigned long long)twice, (unsigned long long)once);
    }
    MPI_Comm_free(&node);
    return suite_finalize();
}
