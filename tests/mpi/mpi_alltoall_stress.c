/* Stress: every rank exchanges blocks with every other rank, several rounds, each block
 * filled from (round, source, destination) and checksummed on arrival: zero loss, zero
 * corruption. Argument: the block size in bytes (default 256). */
#include <stdint.h>
#include <stdlib.h>

#include "mpi_check.h"

static uint32_t word(int round, int src, int dst, int i)
{
    uint32_t x = (uint32_t)(round * 0x9e3779b9u) ^ (uint32_t)(src * 0x85ebca6bu) ^
                 (uint32_t)(dst * 0xc2b2ae35u) ^ (uint32_t)i;
    return x * 2654435761u;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int block = (argc > 1 ? atoi(argv[1]) : 256) / 4;
    uint32_t *out = malloc((size_t)size * block * 4), *in = malloc((size_t)size * block * 4);
    CHECK(out && in);
    unsigned long long bad = 0, sum = 0, want_sum = 0;
    for (int round = 0; round < 3 && out && in; round++) {
        for (int d = 0; d < size; d++)
            for (int i = 0; i < block; i++)
                out[(size_t)d * block + i] = word(round, rank, d, i);
        CHECK_EQ(MPI_Alltoall(out, block, MPI_UINT32_T, in, block, MPI_UINT32_T, MPI_COMM_WORLD), MPI_SUCCESS);
        for (int s = 0; s < size; s++)
            for (int i = 0; i < block; i++) {
                uint32_t w = word(round, s, rank, i);
                bad += in[(size_t)s * block + i] != w;
                sum += in[(size_t)s * block + i];
                want_sum += w;
            }
    }
    CHECK_EQ(bad, 0);
    CHECK(sum == want_sum);
    /* The global checksum agrees with what every rank computed on its own. */
    unsigned long long total = 0, want_total = 0;
    MPI_Allreduce(&sum, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&want_sum, &want_total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    CHECK(total == want_total);
    if (rank == 0)
        printf("alltoall stress: %d ranks, %d-byte blocks, 3 rounds, checksum %llx\n", size, block * 4, total);
    free(out);
    free(in);
    int status = mpi_check_finish("mpi_alltoall_stress");
    MPI_Finalize();
    return status;
}
