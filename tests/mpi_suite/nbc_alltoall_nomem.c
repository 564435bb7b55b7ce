/* Alltoall whose cluster leader cannot allocate its staging (opt: the leaders' schedule and
 * the blocking call's shared memory both stage the cluster's blocks there). Rank 0 takes
 * nearly all of its cluster's heap, leaving room for small allocations only:
 * MPI_Ialltoall must then end on every rank with MPI_ERR_NO_MEM (no rank waiting for
 * ever), the blocking MPI_Alltoall must still deliver (through a schedule that stages
 * nothing), and once the memory is back MPI_Ialltoall works again. Run with ranks spread
 * over several clusters, some holding two or more. */
#include <stdlib.h>

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
    SUITE_CHECK(nbc_class(err) == MPI_ERR_NO_MEM, "Ialltoall without staging: class %d, expected MPI_ERR_NO_MEM",
                nbc_class(err));

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
