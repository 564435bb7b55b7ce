/* Checks for the guest MPI tests (C; tests/guest/check_core.h). Ranks are threads and
 * globals are shared by the ranks of a cluster, so the counters are _Thread_local.
 * Failures and the result line "rank R: NAME: K checks, F failed" name the rank; call
 * check_finish() before MPI_Finalize. */
#ifndef LWMPI_TEST_MPI_CHECK_H
#define LWMPI_TEST_MPI_CHECK_H
#include <mpi.h>

static _Thread_local int mpi_check_rank = -1;

static inline int mpi_check_me(void)
{
    if (mpi_check_rank < 0) {
        int finalized = 0;
        MPI_Finalized(&finalized);
        if (!finalized)
            MPI_Comm_rank(MPI_COMM_WORLD, &mpi_check_rank);
    }
    return mpi_check_rank;
}

#define CHECK_WHO "rank"
#define CHECK_ID mpi_check_me
#define CHECK_LOCAL _Thread_local
#include "../guest/check_core.h"
#endif
