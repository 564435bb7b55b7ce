/* Hello, ring and reduce: every rank says hello with its processor name, a token goes once
 * around the ring (each rank adds its rank), and a reduction of rank^2 is checked against
 * the closed form n(n-1)(2n-1)/6. Exit status 0 when both results are right.
 *
 *   scripts/mpicc examples/mpi/hello_ring_reduce.c -o hello.elf
 *   scripts/nvx-run --board mppa256 -np 192 --map-by compact hello.elf */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, len;
    char name[MPI_MAX_PROCESSOR_NAME];
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Get_processor_name(name, &len);
    printf("hello from rank %d of %d on %s\n", rank, size, name);

    /* The ring: rank 0 starts the token, every rank adds its rank and passes it on. */
    long token = 0;
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    if (rank == 0) {
        MPI_Send(&token, 1, MPI_LONG, next, 0, MPI_COMM_WORLD);
        MPI_Recv(&token, 1, MPI_LONG, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(&token, 1, MPI_LONG, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        token += rank;
        MPI_Send(&token, 1, MPI_LONG, next, 0, MPI_COMM_WORLD);
    }

    long square = (long)rank * rank, sum = 0;
    MPI_Reduce(&square, &sum, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    int ok = 1;
    if (rank == 0) {
        long n = size, ring_want = n * (n - 1) / 2, sum_want = n * (n - 1) * (2 * n - 1) / 6;
        ok = token == ring_want && sum == sum_want;
        printf("ring: token %ld after %d ranks (expected %ld)\n", token, size, ring_want);
        printf("reduce: sum of rank^2 = %ld (expected %ld): %s\n", sum, sum_want, ok ? "ok" : "WRONG");
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return ok ? 0 : 1;
}
