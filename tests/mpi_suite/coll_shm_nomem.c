/* Out of memory in the shared-memory Alltoall (libmpi/coll_shm_alltoall.cpp): on the
 * communicator of one cluster's ranks, the first of them takes every byte of the heap
 * (which the cluster's ranks share) while the others wait in a barrier, which through the
 * cluster's area needs no memory; then every rank's Alltoall must return MPI_ERR_NO_MEM
 * (the staging could not be had: every rank of the communicator says so, none is left
 * waiting), and succeed with the right data once the memory is back. The opt build only:
 * the unopt one has no area, and its schedules would fail on some ranks and not others. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "heap_exhaust.h"
#include "suite.h"

enum { N = 64 };

static int alltoall(MPI_Comm node, const int *send, int *recv)
{
    return MPI_Alltoall(send, N, MPI_INT, recv, N, MPI_INT, node);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    MPI_Get_library_version(lib, &len);
    if (strstr(lib, "variant opt") == NULL)
        return suite_finalize();
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_set_errhandler(node, MPI_ERRORS_RETURN);
    int rank, size;
    MPI_Comm_rank(node, &rank);
    MPI_Comm_size(node, &size);
    int *send = malloc(sizeof(int) * N * (size_t)size), *recv = malloc(sizeof(int) * N * (size_t)size);
    for (int i = 0; i < N * size; i++)
        send[i] = rank * 1000000 + i;
    MPI_Barrier(node);  /* the area exists from here on */
    for (int round = 0; round < 2; round++) {
        struct block *hoard = NULL;
        if (rank == 0)
            hoard = take_all_memory();
        MPI_Barrier(node);
        int rc = alltoall(node, send, recv), cls = MPI_SUCCESS;
        MPI_Error_class(rc, &cls);
        /* A rank alone on its cluster takes the schedules, which fail the same way. */
        SUITE_CHECK(cls == MPI_ERR_NO_MEM, "round %d: alltoall without memory returned class %d", round, cls);
        MPI_Barrier(node);
        if (rank == 0)
            give_back(hoard);
        MPI_Barrier(node);
        memset(recv, 0, sizeof(int) * N * (size_t)size);
        rc = alltoall(node, send, recv);
        SUITE_CHECK(rc == MPI_SUCCESS, "round %d: alltoall with memory returned %d", round, rc);
        for (int r = 0; r < size; r++)
            SUITE_CHECK(recv[r * N] == r * 1000000 + rank * N && recv[r * N + N - 1] == r * 1000000 + rank * N + N - 1,
                        "round %d: block from %d starts with %d", round, r, recv[r * N]);
    }
    free(send);
    free(recv);
    MPI_Comm_free(&node);
    return suite_finalize();
}
