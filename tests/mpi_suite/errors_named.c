/* Fatal errors name the call the program made (MPI 3.1 section 8.3: MPI_ERRORS_ARE_FATAL),
 * never a call LWMPI made on its behalf, and calls outside MPI_Init..MPI_Finalize are errors
 * (section 8.7). The argument picks the error; each run ends with the error's class as its
 * status and prints "LWMPI: rank R: CALL: CLASS ...", checked by its line in cases.txt:
 *   replace   MPI_Sendrecv_replace to a rank outside the communicator (it sends through
 *             LWMPI's own Sendrecv, whose name must not appear)
 *   startall  MPI_Start on a request that is not persistent (LWMPI starts it as a set of one)
 *   before    MPI_Send before MPI_Init
 *   init2     MPI_Init twice
 *   twice     MPI_Finalize twice
 *   reinit    MPI_Init after MPI_Finalize */
#include <string.h>

#include "suite.h"

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    int v = 0;
    if (strcmp(what, "before") == 0)
        MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    MPI_Init(&argc, &argv);
    if (strcmp(what, "init2") == 0)
        MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (strcmp(what, "replace") == 0 && rank == 0)
        MPI_Sendrecv_replace(&v, 1, MPI_INT, size, 0, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (strcmp(what, "startall") == 0 && rank == 0) {
        MPI_Request r;
        MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_SELF, &r);
        MPI_Start(&r);
    }
    if (strcmp(what, "twice") == 0 || strcmp(what, "reinit") == 0) {
        MPI_Finalize();
        if (strcmp(what, "twice") == 0)
            MPI_Finalize();
        else
            MPI_Init(&argc, &argv);
        printf("FAIL rank %d: the run went on after an error\n", rank);
        return 1;
    }
    MPI_Barrier(MPI_COMM_WORLD);  /* rank 0 never comes: its error ends the run */
    printf("FAIL rank %d: the run went on after an error\n", rank);
    MPI_Finalize();
    return 1;
}
