/* A rank that ends between MPI_Init and MPI_Finalize (argument: "return" from main,
 * "exit0" or "exit5") while the others wait for it in a collective: the run ends at once
 * with a report naming it and a non-zero status (exit's own, or 1 for 0), never a hang. */
#include <stdlib.h>
#include <string.h>

#include "mpi_check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *how = argc > 1 ? argv[1] : "return";
    if (rank == size - 1) {
        if (strcmp(how, "exit0") == 0)
            exit(0);
        if (strcmp(how, "exit5") == 0)
            exit(5);
        return 0;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    printf("FAIL rank %d: passed a barrier that an ended rank never entered\n", rank);
    MPI_Finalize();
    return 1;
}
