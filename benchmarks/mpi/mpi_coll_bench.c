/* LWMPI collective times on MPI_COMM_WORLD: Barrier, Allreduce (one double and 1 KiB of
 * doubles, MPI_SUM) and Alltoall (64 B per pair). Each is timed over several calls after a
 * warm-up; the reported time per call is the slowest rank's average. One row per operation:
 *   coll <variant> <ranks> <operation> <bytes> <iterations> <us_per_call> */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BARRIER, ALLREDUCE_8, ALLREDUCE_1K, ALLTOALL_64 };
static const char *const names[] = {"barrier", "allreduce", "allreduce", "alltoall"};
static const int bytes_of[] = {0, 8, 1024, 64};

static void run(int op, double *a, double *b, char *s, char *r)
{
    switch (op) {
    case BARRIER: MPI_Barrier(MPI_COMM_WORLD); break;
    case ALLREDUCE_8: MPI_Allreduce(a, b, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); break;
    case ALLREDUCE_1K: MPI_Allreduce(a, b, 128, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); break;
    default: MPI_Alltoall(s, 64, MPI_BYTE, r, 64, MPI_BYTE, MPI_COMM_WORLD); break;
    }
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
    double *a = calloc(128, sizeof(double)), *b = calloc(128, sizeof(double));
    char *s = calloc(size, 64), *r = calloc(size, 64);
    if (!a || !b || !s || !r) {
        printf("mpi_coll_bench: rank %d: no memory\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (rank == 0)
        printf("%-4s %-7s %6s %-10s %6s %6s %12s\n", "coll", "variant", "ranks", "operation", "bytes", "iters", "us_per_call");
    for (int op = BARRIER; op <= ALLTOALL_64; op++) {
        run(op, a, b, s, r);  /* warm-up: first contacts */
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < iterations; i++)
            run(op, a, b, s, r);
        double mine = (MPI_Wtime() - t0) / iterations, slowest = 0;
        MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (rank == 0)
            printf("%-4s %-7s %6d %-10s %6d %6d %12.1f\n", "coll", variant, size, names[op], bytes_of[op], iterations,
                   slowest * 1e6);
    }
    free(a), free(b), free(s), free(r);
    MPI_Finalize();
    return 0;
}
