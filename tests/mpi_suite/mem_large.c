/* Large memory per rank: each rank takes MIB mebibytes (argument, default 4) with malloc,
 * writes and checks every byte of it, and passes a checksum around the ring. Too big for
 * mppa256's 2 MiB clusters: its case runs on mppa256-xl (32 MiB per compute cluster) with
 * ranks sharing a cluster. */
#include <stdint.h>
#include <stdlib.h>

#include "suite.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    size_t bytes = (size_t)(argc > 1 ? atoi(argv[1]) : 4) << 20;
    uint32_t *block = malloc(bytes);
    SUITE_CHECK(block != NULL, "malloc of %zu bytes failed", bytes);
    uint32_t sum = 0;
    if (block != NULL) {
        size_t words = bytes / sizeof *block;
        for (size_t i = 0; i < words; i++) block[i] = (uint32_t)(i * 2654435761u) ^ (uint32_t)rank;
        size_t bad = 0;
        for (size_t i = 0; i < words; i++) {
            bad += block[i] != ((uint32_t)(i * 2654435761u) ^ (uint32_t)rank);
            sum += block[i];
        }
        SUITE_CHECK(bad == 0, "%zu words of %zu changed", bad, words);
        free(block);
    }
    uint32_t from_left = 0;
    MPI_Sendrecv(&sum, 1, MPI_UINT32_T, (rank + 1) % size, 0, &from_left, 1, MPI_UINT32_T, (rank + size - 1) % size, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    uint32_t expect = 0;
    int left = (rank + size - 1) % size;
    for (size_t i = 0; i < bytes / sizeof(uint32_t); i++) expect += (uint32_t)(i * 2654435761u) ^ (uint32_t)left;
    SUITE_CHECK(from_left == expect, "checksum from rank %d: %u, expected %u", left, from_left, expect);
    return suite_finalize();
}
