/* Stress: every rank exchanges blocks with every other rank, several rounds, each block
 * filled from (round, source, destination) and checksummed on arrival: zero loss, zero
 * corruption. Arguments: the block size in bytes (default 64: 192 ranks of a 2 MiB cluster)
 * and the rounds (default 3; each moves size * (size - 1) blocks between ranks). Rank 0
 * prints the blocks moved, lost (not arrived intact: none can be missing after Alltoall
 * returned) and corrupt over all rounds. */
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
    int block = (argc > 1 ? atoi(argv[1]) : 64) / 4;
    int rounds = argc > 2 ? atoi(argv[2]) : 3;
    if (block < 1 || rounds < 1) {
        printf("FAIL rank %d: bad arguments (block bytes >= 4, rounds >= 1)\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    uint32_t *out = malloc((size_t)size * block * 4), *in = malloc((size_t)size * block * 4);
    if (!out || !in) {
        printf("FAIL rank %d: no memory for the blocks\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    unsigned long long bad = 0, sum = 0, want_sum = 0, moved = 0, corrupt = 0;
    for (int round = 0; round < rounds; round++) {
        for (int d = 0; d < size; d++)
            for (int i = 0; i < block; i++)
                out[(size_t)d * block + i] = word(round, rank, d, i);
        CHECK_EQ(MPI_Alltoall(out, block, MPI_UINT32_T, in, block, MPI_UINT32_T, MPI_COMM_WORLD), MPI_SUCCESS);
        for (int s = 0; s < size; s++) {
            unsigned long long bad_before = bad;
            for (int i = 0; i < block; i++) {
                uint32_t w = word(round, s, rank, i);
                bad += in[(size_t)s * block + i] != w;
                sum += in[(size_t)s * block + i];
                want_sum += w;
            }
            if (s != rank) {  /* a rank's block to itself is a local copy, not a message */
                moved++;
                corrupt += bad != bad_before;
            }
        }
    }
    CHECK_EQ(bad, 0);
    CHECK(sum == want_sum);
    /* The global checksum agrees with what every rank computed on its own. */
    unsigned long long total = 0, want_total = 0;
    MPI_Allreduce(&sum, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&want_sum, &want_total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    CHECK(total == want_total);
    unsigned long long counts[2] = {moved, corrupt}, all[2] = {0, 0};
    MPI_Reduce(counts, all, 2, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        unsigned long long expected = (unsigned long long)rounds * size * (size - 1);
        printf("alltoall stress: %d ranks, %d-byte blocks, %d rounds, checksum %llx\n", size, block * 4, rounds, total);
        printf("alltoall stress: %llu messages moved, %llu lost, %llu corrupt\n", all[0], expected - all[0], all[1]);
        CHECK(all[0] == expected);
        CHECK(all[1] == 0);
    }
    free(out);
    free(in);
    int status = check_finish("mpi_alltoall_stress");
    MPI_Finalize();
    return status;
}
