/* A large receive overlaps computation in virtual time: ranks 0 and 1 on different clusters;
 * rank 0 sends 256 KiB by rendezvous, rank 1 posts the receive (which clears the sender),
 * computes, then waits. The NoC's DMA moves the data meanwhile, so compute + receive take
 * less virtual time than the receive alone plus the computation alone. Each is measured
 * on its own first; the data is checked every time. Needs the virtual clock and 2 ranks
 * on different clusters (--map-by scatter); further ranks only take part in the barriers. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvx/clock.h>

#include "mpi_check.h"

enum { kBytes = 256 * 1024, kTag = 7 };

static void spin(uint64_t rounds)
{
    for (volatile uint64_t i = 0; i < rounds; i++) {
    }
}

static void fill(unsigned char *p, int round)
{
    for (int i = 0; i < kBytes; i++) p[i] = (unsigned char)(i * 31 + round);
}

static int holds(const unsigned char *p, int round)
{
    for (int i = 0; i < kBytes; i++)
        if (p[i] != (unsigned char)(i * 31 + round)) return 0;
    return 1;
}

/* One transfer from rank 0 to rank 1. The send's request to send is out before the
 * barrier, so rank 1's receive matches it and clears the sender at once; rank 1 then
 * computes `rounds` (0: none) and waits. Returns rank 1's virtual time from the receive to
 * its completion. */
static uint64_t transfer(unsigned char *buf, int round, uint64_t rounds)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Request req = MPI_REQUEST_NULL;
    uint64_t took = 0;
    if (rank == 0) {
        fill(buf, round);
        CHECK_EQ(MPI_Isend(buf, kBytes, MPI_BYTE, 1, kTag, MPI_COMM_WORLD, &req), MPI_SUCCESS);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) CHECK_EQ(MPI_Wait(&req, MPI_STATUS_IGNORE), MPI_SUCCESS);
    if (rank == 1) {
        memset(buf, 0, kBytes);
        uint64_t start = nvx_clock_cycles();
        CHECK_EQ(MPI_Irecv(buf, kBytes, MPI_BYTE, 0, kTag, MPI_COMM_WORLD, &req), MPI_SUCCESS);
        spin(rounds);
        CHECK_EQ(MPI_Wait(&req, MPI_STATUS_IGNORE), MPI_SUCCESS);
        took = nvx_clock_cycles() - start;
        CHECK(holds(buf, round));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    return took;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size >= 2);
    CHECK(nvx_clock_is_virtual());
    unsigned char *buf = malloc(kBytes);
    CHECK(buf != NULL);
    if (size >= 2 && buf != NULL) {
        transfer(buf, 0, 0); /* first contact (name lookups, outputs opened) out of the way */
        uint64_t alone = transfer(buf, 1, 0);
        /* As long a computation as the transfer, measured on its own. */
        uint64_t rounds = 1000;
        uint64_t t0 = nvx_clock_cycles();
        spin(rounds);
        uint64_t per_round = (nvx_clock_cycles() - t0) / rounds;
        rounds = per_round > 0 ? alone / per_round : rounds;
        t0 = nvx_clock_cycles();
        spin(rounds);
        uint64_t compute = nvx_clock_cycles() - t0;
        uint64_t both = transfer(buf, 2, rounds);
        if (rank == 1) {
            printf("rank 1: receive alone %llu cycles, computation %llu, both %llu (%.0f %% of their sum)\n",
                   (unsigned long long)alone, (unsigned long long)compute, (unsigned long long)both,
                   100.0 * (double)both / (double)(alone + compute));
            CHECK(both < alone + compute);
            CHECK(both * 4 < (alone + compute) * 3); /* the overlap is most of the shorter one */
        }
    }
    free(buf);
    int status = check_finish("mpi_overlap");
    MPI_Finalize();
    return status;
}
