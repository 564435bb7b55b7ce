/* Alltoall while rank 0 has taken nearly all of its cluster's heap, leaving room for small
 * allocations only. MPI_Ialltoall must end on every rank the same way: delivered, or
 * MPI_ERR_NO_MEM everywhere (no rank waiting for ever); the blocking MPI_Alltoall must
 * deliver; once the memory is back MPI_Ialltoall works again. With the argument
 * `expect-no-mem` the MPI_Ialltoall must fail: LWMPI's opt variant with ranks spread over
 * several clusters, some holding two or more, stages the blocks of a cluster at its leader
 * (the blocking call then goes through a schedule that stages nothing). */
#include <stdlib.h>
#include <string.h>

#include "nbc.h"

enum { kInts = 1024 };  /* 4 KiB blocks: a leader of 3 ranks of 9 stages 2 x 108 KiB */
enum { kLeftFree = 48 * 1024 };

/* Allocates everything the heap has, then gives back about kLeftFree bytes. */
static int hog(void **held, int max)
{
    static size_t sizes[4096];
    int n = 0;
    for (size_t size = 1 << 20; size >= 256 && n < max;) {
        void *p = malloc(size);
        if (p) {
            sizes[n] = size;
            held[n++] = p;
        } else {
            size /= 2;
        }
    }
    for (size_t back = 0; n > 0 && back < kLeftFree;) {  /* the smallest pieces came last */
        back += sizes[--n];
        free(held[n]);
    }
    return n;
}

static void fill(int *out, int rank, int n)
{
    for (int d = 0; d < n; d++)
        for (int i = 0; i < kInts; i++)
            out[d * kInts + i] = rank * 100000 + d * 10 + (i & 7);
}

static int wrong(const int *in, int rank, int n)
{
    int bad = 0;
    for (int s = 0; s < n; s++)
        for (int i = 0; i < kInts; i++)
            bad += in[s * kInts + i] != s * 100000 + rank * 10 + (i & 7);
    return bad;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int expect_no_mem = argc > 1 && strcmp(argv[1], "expect-no-mem") == 0;
    int *out = malloc((size_t)n * kInts * sizeof(int)), *in = malloc((size_t)n * kInts * sizeof(int));
    fill(out, rank, n);

    MPI_Barrier(MPI_COMM_WORLD);  /* every rank has its buffers before rank 0 takes the rest */
    static void *held[4096];
    int holding = rank == 0 ? hog(held, 4096) : 0;
    MPI_Barrier(MPI_COMM_WORLD);

    MPI_Request req;
    int err = MPI_Ialltoall(out, kInts, MPI_INT, in, kInts, MPI_INT, MPI_COMM_WORLD, &req);
    if (err == MPI_SUCCESS)
        err = MPI_Wait(&req, MPI_STATUS_IGNORE);
    int failed = nbc_class(err) == MPI_ERR_NO_MEM, delivered = err == MPI_SUCCESS && wrong(in, rank, n) == 0;
    SUITE_CHECK(failed || delivered, "Ialltoall short of memory: class %d, %d wrong", nbc_class(err), wrong(in, rank, n));
    int all_failed = 0, any_failed = 0;
    MPI_Allreduce(&failed, &all_failed, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    SUITE_CHECK(all_failed == any_failed, "Ialltoall short of memory failed on some ranks only");
    if (expect_no_mem)
        SUITE_CHECK(failed, "Ialltoall without staging: class %d, expected MPI_ERR_NO_MEM", nbc_class(err));

    for (int i = 0; i < n * kInts; i++)
        in[i] = -1;
    err = MPI_Alltoall(out, kInts, MPI_INT, in, kInts, MPI_INT, MPI_COMM_WORLD);
    SUITE_CHECK(err == MPI_SUCCESS, "Alltoall without staging failed (class %d)", nbc_class(err));
    SUITE_CHECK(wrong(in, rank, n) == 0, "Alltoall without staging: %d wrong", wrong(in, rank, n));

    while (holding > 0)
        free(held[--holding]);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < n * kInts; i++)
        in[i] = -1;
    err = MPI_Ialltoall(out, kInts, MPI_INT, in, kInts, MPI_INT, MPI_COMM_WORLD, &req);
    if (err == MPI_SUCCESS)
        err = MPI_Wait(&req, MPI_STATUS_IGNORE);
    SUITE_CHECK(err == MPI_SUCCESS, "Ialltoall with the memory back failed (class %d)", nbc_class(err));
    SUITE_CHECK(wrong(in, rank, n) == 0, "Ialltoall with the memory back: %d wrong", wrong(in, rank, n));

    free(out);
    free(in);
    return suite_finalize();
}
