/* LWMPI collective times on MPI_COMM_WORLD: Barrier, Allreduce (one double and 1 KiB of
 * doubles, MPI_SUM), Alltoall (64 B per pair), Bcast (one double, from rank 0) and Reduce
 * (one double, MPI_SUM, to rank 0). Each is timed over several calls after a warm-up; the
 * reported time per call is the slowest rank's average. Each operation runs twice: as the
 * program calls it (through the cluster's shared memory in the opt variant,
 * libmpi/coll_shm.hpp) and on the trees every blocking call took before (rows "i..."): the
 * nonblocking form completed at once by MPI_Wait, which builds the same schedule, or for
 * Reduce ("reduce_u") the blocking call with a commutative program operation (a sum), whose
 * path also spreads the root's verdict first. One row per operation:
 *   coll <variant> <ranks> <operation> <bytes> <iterations> <us_per_call> */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BARRIER, ALLREDUCE_8, ALLREDUCE_1K, ALLTOALL_64, BCAST_8, REDUCE_8, OPS };
static const char *const names[] = {"barrier", "allreduce", "allreduce", "alltoall", "bcast", "reduce"};
static const char *const tree_names[] = {"ibarrier", "iallreduce", "iallreduce", "ialltoall", "ibcast", "reduce_u"};
static MPI_Op user_sum;

static void sum_doubles(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; i++)
        ((double *)inout)[i] += ((double *)in)[i];
}
static const int bytes_of[] = {0, 8, 1024, 64, 8, 8};

static void run(int op, int tree, double *a, double *b, char *s, char *r)
{
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Request *q = tree ? &req : NULL;
    MPI_Comm w = MPI_COMM_WORLD;
    switch (op) {
    case BARRIER: q ? MPI_Ibarrier(w, q) : MPI_Barrier(w); break;
    case ALLREDUCE_8: q ? MPI_Iallreduce(a, b, 1, MPI_DOUBLE, MPI_SUM, w, q) : MPI_Allreduce(a, b, 1, MPI_DOUBLE, MPI_SUM, w); break;
    case ALLREDUCE_1K: q ? MPI_Iallreduce(a, b, 128, MPI_DOUBLE, MPI_SUM, w, q) : MPI_Allreduce(a, b, 128, MPI_DOUBLE, MPI_SUM, w); break;
    case ALLTOALL_64: q ? MPI_Ialltoall(s, 64, MPI_BYTE, r, 64, MPI_BYTE, w, q) : MPI_Alltoall(s, 64, MPI_BYTE, r, 64, MPI_BYTE, w); break;
    case BCAST_8: q ? MPI_Ibcast(a, 1, MPI_DOUBLE, 0, w, q) : MPI_Bcast(a, 1, MPI_DOUBLE, 0, w); break;
    default: MPI_Reduce(a, b, 1, MPI_DOUBLE, tree ? user_sum : MPI_SUM, 0, w); break;
    }
    MPI_Wait(&req, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, len;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    MPI_Get_library_version(lib, &len);
    const char *variant = strstr(lib, "variant ") ? strstr(lib, "variant ") + 8 : "?";
    int iterations = argc > 1 ? atoi(argv[1]) : 10;
    MPI_Op_create(sum_doubles, 1, &user_sum);
    double *a = calloc(128, sizeof(double)), *b = calloc(128, sizeof(double));
    char *s = calloc(size, 64), *r = calloc(size, 64);
    if (!a || !b || !s || !r) {
        printf("mpi_coll_bench: rank %d: no memory\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (rank == 0)
        printf("%-4s %-7s %6s %-10s %6s %6s %12s\n", "coll", "variant", "ranks", "operation", "bytes", "iters", "us_per_call");
    for (int op = BARRIER; op < OPS; op++) {
        for (int tree = 0; tree <= 1; tree++) {
            run(op, tree, a, b, s, r);  /* warm-up: first contacts */
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            for (int i = 0; i < iterations; i++)
                run(op, tree, a, b, s, r);
            double mine = (MPI_Wtime() - t0) / iterations, slowest = 0;
            MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
            if (rank == 0)
                printf("%-4s %-7s %6d %-10s %6d %6d %12.1f\n", "coll", variant, size,
                       (tree ? tree_names : names)[op], bytes_of[op], iterations, slowest * 1e6);
        }
    }
    MPI_Op_free(&user_sum);
    free(a), free(b), free(s), free(r);
    MPI_Finalize();
    return 0;
}
