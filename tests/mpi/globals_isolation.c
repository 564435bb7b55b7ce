/* Isolation of rank-private globals. A rank's plain pointer to a global always reaches
 * its own copy (another rank's copy is not at any address the program linked); the only
 * way to a peer's copy is its shared address (nvx_shared_address), which LWMPI hands
 * to the threads that move the peer's messages. A shared address of a copy that does not
 * exist is unmapped: rank 1 reads one and is killed with a load page fault, and the
 * kernel's report names it (run with 2 ranks or more on one cluster). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

#include <nvx/private_globals.h>

int g_value;

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    g_value = 10 + rank;
    MPI_Barrier(MPI_COMM_WORLD);
    if (g_value != 10 + rank)
        printf("rank %d: another rank wrote its global\n", rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        /* The last copy's slot: far more copies than this program's ranks. */
        uintptr_t offset = (uintptr_t)&g_value - (uintptr_t)NVX_USER_PRIVATE_BASE;
        volatile int *none = (volatile int *)(uintptr_t)(NVX_USER_PRIVATE_SHARED +
                                                         (NVX_USER_PRIVATE_COPIES - 1) * (1ull << 30) + offset);
        printf("rank 1: reading a copy that does not exist at %p\n", (void *)none);
        fflush(stdout);
        printf("rank 1: read %d: the copy was mapped\n", *none);
    }
    MPI_Finalize();
    return 0;
}
