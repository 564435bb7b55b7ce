/* A rank that crashes (a store to address 0) ends the run with a report and a non-zero
 * status while the others wait for it in a collective: never a hang. */
#include "mpi_check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == size / 2)
        *(volatile int *)0 = rank;
    MPI_Barrier(MPI_COMM_WORLD);
    printf("FAIL rank %d: passed a barrier that a crashed rank never entered\n", rank);
    MPI_Finalize();
    return 1;
}
