/* Two ranks that each wait in MPI_Recv for a message the other never sends: the board
 * must report the deadlock at once (each rank's receive, peer and tag) and end the run
 * with NVX_EXIT_DEADLOCK (125), not at the launcher's timeout. */
#include <stdio.h>

#include <mpi.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, v;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) MPI_Recv(&v, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else if (rank == 1) MPI_Recv(&v, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("FAIL rank %d: returned from a receive nothing matches\n", rank);
    MPI_Finalize();
    return 1;
}
