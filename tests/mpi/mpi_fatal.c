/* The default error handler is MPI_ERRORS_ARE_FATAL: a bad rank in MPI_Send prints the
 * call and the error class and ends the run with status MPI_ERR_RANK (6). */
#include "mpi_check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, v = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0)
        MPI_Send(&v, 1, MPI_INT, size, 0, MPI_COMM_WORLD);
    MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("FAIL rank %d: the run went on after a fatal error\n", rank);
    MPI_Finalize();
    return 1;
}
