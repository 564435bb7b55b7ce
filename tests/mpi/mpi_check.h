/* Checks for the guest MPI tests (C). Ranks are threads and globals are shared by the ranks
 * of a cluster, so the counters are _Thread_local. Every failed check prints a FAIL line
 * naming the rank; mpi_check_finish() prints the rank's result line
 * "rank R: NAME: K checks, F failed" and returns the exit status of main. */
#ifndef LWMPI_TEST_MPI_CHECK_H
#define LWMPI_TEST_MPI_CHECK_H
#include <mpi.h>
#include <stdio.h>

static _Thread_local unsigned mpi_check_count;
static _Thread_local unsigned mpi_check_failures;
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

#define CHECK(cond)                                                                       \
    do {                                                                                  \
        mpi_check_count++;                                                                \
        if (!(cond)) {                                                                    \
            mpi_check_failures++;                                                         \
            printf("FAIL rank %d %s:%d: %s\n", mpi_check_me(), __FILE__, __LINE__, #cond); \
        }                                                                                 \
    } while (0)

#define CHECK_EQ(actual, expected)                                                        \
    do {                                                                                  \
        long long a_ = (long long)(actual), e_ = (long long)(expected);                   \
        mpi_check_count++;                                                                \
        if (a_ != e_) {                                                                   \
            mpi_check_failures++;                                                         \
            printf("FAIL rank %d %s:%d: %s == %lld, expected %lld\n", mpi_check_me(),     \
                   __FILE__, __LINE__, #actual, a_, e_);                                  \
        }                                                                                 \
    } while (0)

/* Call before MPI_Finalize: prints the rank's result line. */
static inline int mpi_check_finish(const char *test)
{
    printf("rank %d: %s: %u checks, %u failed\n", mpi_check_me(), test, mpi_check_count,
           mpi_check_failures);
    return mpi_check_failures == 0 ? 0 : 1;
}
#endif
