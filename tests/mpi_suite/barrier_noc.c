/* MPI_Barrier on MPI_COMM_WORLD, whose cluster leaders meet on the NoC's sync registers
 * (libmpi/coll_noc_barrier.cpp) in the opt library when clusters hold several ranks:
 *  - no rank leaves a barrier before the last one entered it, in virtual time: each round
 *    one rank (every rank in turn: leaders, the root's cluster, the others) computes for a
 *    while first, and every rank's exit is after that rank's entry;
 *  - long runs of barriers with nothing between them (a register holds one signal per node:
 *    none may be lost or counted twice);
 *  - the barrier keeps the progress rule: a rendezvous-sized send that another cluster's
 *    leader only receives after its barrier completes while its peer waits in the barrier;
 *  - who holds sync register 3 of a leader's node after the first barrier: the library
 *    (the program's own create fails with EADDRINUSE), or nobody when it fell back to
 *    messages.
 *   barrier_noc [--expect-sync 0|1] [--take-register]
 * --take-register: rank 0 takes register 3 of its node first, so the library must fall back
 * to the message barrier (then --expect-sync 0). */
#include <errno.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <nvx/clock.h>
#include <nvx/ikc.h>
#include <nvx/syscall.h>

#include "suite.h"

enum { SYNC_PORT = 3, BURST = 400, BIG = 4096 };

static int rank, size;

/* Work of about `n` thousand instructions that the compiler cannot drop. */
static unsigned spin(unsigned n)
{
    volatile unsigned x = 1;
    for (unsigned i = 0; i < n * 250u; i++) x = x * 1103515245u + 12345u;
    return x;
}

static void late_rounds(void)
{
    int rounds = 2 * size;
    /* Rank 0 alone gathers every rank's times (12 ranks share a cluster's 2 MiB). */
    size_t gathered = rank == 0 ? (size_t)rounds * (size_t)size : 1;
    double *entry = calloc((size_t)rounds, sizeof *entry), *exit_at = calloc((size_t)rounds, sizeof *exit_at);
    double *all = malloc(sizeof(double) * gathered), *late_entry = malloc(sizeof(double) * gathered);
    if (!entry || !exit_at || !all || !late_entry) {
        SUITE_FAIL("no memory");
        return;
    }
    for (int k = 0; k < rounds; k++) {
        if (k % size == rank) spin(400);
        entry[k] = MPI_Wtime();
        MPI_Barrier(MPI_COMM_WORLD);
        exit_at[k] = MPI_Wtime();
    }
    /* Every rank's exits against the late ranks' entries, at rank 0. */
    MPI_Gather(exit_at, rounds, MPI_DOUBLE, all, rounds, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Gather(entry, rounds, MPI_DOUBLE, late_entry, rounds, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0)
        for (int k = 0; k < rounds; k++) {
            int late = k % size;
            for (int r = 0; r < size; r++)
                SUITE_CHECK(all[r * rounds + k] >= late_entry[late * rounds + k],
                            "round %d: rank %d left at %.9f s, before rank %d entered at %.9f s", k, r,
                            all[r * rounds + k], late, late_entry[late * rounds + k]);
        }
    free(entry);
    free(exit_at);
    free(all);
    free(late_entry);
}

static void bursts(void)
{
    for (int i = 0; i < BURST; i++)
        SUITE_CHECK(MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS, "barrier %d failed", i);
    int one = 1, total = 0;
    MPI_Allreduce(&one, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    SUITE_CHECK(total == size, "after %d barriers the sum is %d, not %d", BURST, total, size);
}

/* The last rank sends a rendezvous-sized message to rank 0 (another cluster when the
 * placement puts them apart) before the barrier, and rank 0 completes its receive only
 * after it: the send ends only if rank 0 keeps progressing while it waits in the barrier. */
static void progress_inside(void)
{
    int *buf = rank == 0 || rank == size - 1 ? malloc(sizeof(int) * BIG) : NULL;
    if ((rank == 0 || rank == size - 1) && !buf) {
        SUITE_FAIL("no memory");
        return;
    }
    MPI_Request req = MPI_REQUEST_NULL;
    if (rank == 0) {
        MPI_Irecv(buf, BIG, MPI_INT, size - 1, 7, MPI_COMM_WORLD, &req);
    } else if (rank == size - 1) {
        suite_fill(buf, BIG, 7);
        MPI_Send(buf, BIG, MPI_INT, 0, 7, MPI_COMM_WORLD);  /* before the barrier */
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        SUITE_CHECK(suite_filled(buf, BIG, 7), "the message crossed the barrier damaged");
    }
    free(buf);
}

/* Whether the library holds register 3 of this leader's node: 1, 0, or -1 (not a leader of
 * another cluster than rank 0's, nothing to say). */
static int library_holds_register(uint32_t root_node)
{
    MPI_Comm local;
    int local_rank;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local);
    MPI_Comm_rank(local, &local_rank);
    MPI_Comm_free(&local);
    struct nvx_info info;
    nvx_sys_info(&info);
    if (local_rank != 0 || info.node == root_node) return -1;
    uint32_t nodes[2] = {info.node, root_node};
    long id = nvx_sync_create(SYNC_PORT, nodes, 2, NVX_SYNC_ALL_TO_ONE);
    if (id >= 0) {
        nvx_sync_unlink(id);
        return 0;
    }
    SUITE_CHECK(id == -EADDRINUSE, "sync_create on register %d: %ld, not -EADDRINUSE", SYNC_PORT, id);
    return 1;
}

int main(int argc, char **argv)
{
    int expect_sync = -1, take = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--expect-sync") == 0 && i + 1 < argc) expect_sync = atoi(argv[++i]);
        else if (strcmp(argv[i], "--take-register") == 0) take = 1;
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    struct nvx_info info;
    nvx_sys_info(&info);
    long taken = -1;
    if (take && rank == 0) {
        uint32_t nodes[2] = {info.node, info.node == 0 ? 1u : 0u};
        taken = nvx_sync_create(SYNC_PORT, nodes, 2, NVX_SYNC_ALL_TO_ONE);
        SUITE_CHECK(taken >= 0, "rank 0 could not take register %d first: %ld", SYNC_PORT, taken);
    }
    uint32_t root_node = info.node;
    MPI_Bcast(&root_node, 1, MPI_UINT32_T, 0, MPI_COMM_WORLD);

    late_rounds();
    bursts();
    progress_inside();

    int holds = library_holds_register(root_node);
    if (holds >= 0 && expect_sync >= 0)
        SUITE_CHECK(holds == expect_sync, "register %d of this leader's node is %sthe library's", SYNC_PORT,
                    holds ? "" : "not ");
    if (taken >= 0) nvx_sync_unlink(taken);
    return suite_finalize();
}
