/* The shape of the OSU micro-benchmarks (osu_latency, osu_bw): rank 0 and rank size - 1
 * ping-pong messages of 1 B .. 64 KiB (latency = half the round trip) and stream windows
 * of MPI_Isend answered by an ack (bandwidth); the other ranks wait in a barrier. Prints
 * the usual table from rank 0 and checks the last message of every size arrived intact.
 * Arguments: [iterations] (default 20). Needs 2 ranks or more. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../mpi/mpi_check.h"

#define MAX_SIZE (1 << 16)
#define WINDOW 16

int main(int argc, char *argv[])
{
    int rank, size, iters = argc > 1 ? atoi(argv[1]) : 20, skip = 2;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int peer = rank == 0 ? size - 1 : 0;
    int active = size >= 2 && (rank == 0 || rank == size - 1);
    char *s_buf = malloc(MAX_SIZE), *r_buf = malloc(MAX_SIZE);
    MPI_Request req[WINDOW];
    MPI_Status reqstat[WINDOW];
    CHECK(size >= 2);
    if (rank == 0) {
        printf("# OSU-style MPI Latency Test (LWMPI)\n");
        printf("%-10s%18s%18s\n", "# Size", "Latency (us)", "Bandwidth (MB/s)");
    }
    for (int len = 1; len <= MAX_SIZE; len *= 4) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t_start = 0, lat = 0, bw = 0;
        int bad = 0;
        if (active) {
            for (int i = 0; i < iters + skip; i++) {
                memset(s_buf, (char)(i + len), len);
                if (i == skip)
                    t_start = MPI_Wtime();
                if (rank == 0) {
                    MPI_Send(s_buf, len, MPI_CHAR, peer, 1, MPI_COMM_WORLD);
                    MPI_Recv(r_buf, len, MPI_CHAR, peer, 1, MPI_COMM_WORLD, &reqstat[0]);
                } else {
                    MPI_Recv(r_buf, len, MPI_CHAR, peer, 1, MPI_COMM_WORLD, &reqstat[0]);
                    MPI_Send(r_buf, len, MPI_CHAR, peer, 1, MPI_COMM_WORLD);
                }
            }
            lat = (MPI_Wtime() - t_start) * 1e6 / (2.0 * iters);
            for (int k = 0; k < len; k++)
                bad += r_buf[k] != (char)(iters + skip - 1 + len);
            /* Bandwidth: windows of Isend, one ack per window. */
            for (int i = 0; i < iters + skip; i++) {
                if (i == skip)
                    t_start = MPI_Wtime();
                if (rank == 0) {
                    for (int j = 0; j < WINDOW; j++)
                        MPI_Isend(s_buf, len, MPI_CHAR, peer, 100, MPI_COMM_WORLD, &req[j]);
                    MPI_Waitall(WINDOW, req, reqstat);
                    MPI_Recv(r_buf, 4, MPI_CHAR, peer, 101, MPI_COMM_WORLD, &reqstat[0]);
                } else {
                    for (int j = 0; j < WINDOW; j++)
                        MPI_Irecv(r_buf, len, MPI_CHAR, peer, 100, MPI_COMM_WORLD, &req[j]);
                    MPI_Waitall(WINDOW, req, reqstat);
                    MPI_Send(s_buf, 4, MPI_CHAR, peer, 101, MPI_COMM_WORLD);
                }
            }
            double t = MPI_Wtime() - t_start;
            bw = t > 0 ? (double)len * iters * WINDOW / 1e6 / t : 0;
        }
        CHECK_EQ(bad, 0);
        if (rank == 0)
            printf("%-10d%18.2f%18.2f\n", len, lat, bw);
    }
    free(s_buf);
    free(r_buf);
    int rc = check_finish("osu_style_bench");
    MPI_Finalize();
    return rc;
}
