/* MPI_Abort ends the whole run with its error code, while the other ranks wait in a
 * receive that nothing will match: the launcher must report status 3, never hang. */
#include "mpi_check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, v;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == size - 1)
        MPI_Abort(MPI_COMM_WORLD, 3);
    MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("FAIL rank %d: returned from a receive that nothing matches\n", rank);
    MPI_Finalize();
    return 1;
}
