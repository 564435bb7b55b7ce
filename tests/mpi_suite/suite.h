/* The frame of the tests/mpi_suite programs, in the style of the established MPI test
 * suites: each program counts its failed checks, and suite_finalize() sums them over
 * MPI_COMM_WORLD; rank 0 prints "No Errors" or " Found N errors". The count is
 * _Thread_local so that it stays per rank in a program linked -shared-globals too. */
#ifndef LWMPI_TEST_MPI_SUITE_H
#define LWMPI_TEST_MPI_SUITE_H
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>

static _Thread_local int suite_errors;

/* Records a failed check with its reason, naming the rank. */
static inline void suite_fail(const char *file, int line, const char *format, ...)
{
    int rank = -1;
    int running = 0, finalized = 0;
    MPI_Initialized(&running);
    MPI_Finalized(&finalized);
    if (running && !finalized)
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char text[256];
    va_list ap;
    va_start(ap, format);
    vsnprintf(text, sizeof text, format, ap);
    va_end(ap);
    printf("rank %d: %s:%d: %s\n", rank, file, line, text);
    suite_errors++;
}

/* A payload that tells where it came from: element i of `seed`'s data is seed * 100003 + i. */
static inline void suite_fill(int *v, int n, int seed)
{
    for (int i = 0; i < n; i++)
        v[i] = seed * 100003 + i;
}

static inline int suite_filled(const int *v, int n, int seed)
{
    for (int i = 0; i < n; i++)
        if (v[i] != seed * 100003 + i)
            return 0;
    return 1;
}

#define SUITE_FAIL(...) suite_fail(__FILE__, __LINE__, __VA_ARGS__)
/* Checks a condition; the message says what was expected. */
#define SUITE_CHECK(cond, ...) do { if (!(cond)) SUITE_FAIL(__VA_ARGS__); } while (0)

/* Sums the failures of every rank, prints the verdict on rank 0 and finalizes MPI. Returns
 * the program's exit status (0). */
static inline int suite_finalize(void)
{
    int total = 0, rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Allreduce(&suite_errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
        if (total == 0)
            printf("No Errors\n");
        else
            printf(" Found %d errors\n", total);
    }
    MPI_Finalize();
    return 0;
}

#endif
