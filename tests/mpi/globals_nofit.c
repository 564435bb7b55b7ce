/* A program whose globals take 256 KiB per rank: with 2 ranks on a cluster it runs; with
 * 12 on one mppa256 cluster (2 MiB) the copies do not fit, and the run is refused before
 * any rank starts, with the sizes (status 122), not ended by a fault later. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static char g_big[256 * 1024];

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    memset(g_big, rank + 1, sizeof g_big);
    int sum = 0, mine = g_big[sizeof g_big - 1];
    MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d: globals_nofit: 1 checks, %d failed\n", rank, sum == 3 ? 0 : 1);
    MPI_Finalize();
    return 0;
}
