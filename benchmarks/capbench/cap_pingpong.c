/* Ping-pong between ranks 0 and 1 over the CAP Bench communication layer (cap_comm.h),
 * to set the ipc build's message cost beside LWMPI's (benchmarks/mpi/mpi_pingpong.c).
 * Local or remote depends on the mapping (-np 2 compact: one cluster; scatter: two).
 * One row per size, board-clock time of one one-way message (half a round trip):
 *   cap <build> <local|remote> <bytes> <iterations> <lat_us>
 * With the argument `icount` (benchmarks/icount.sh cap) it runs, per size, N and then 2N
 * round trips between three counter marks of rank 0 and prints
 *   cap <build>-<where> <bytes> <N> mark <first mark>
 * (the difference of the two windows over 2N is one one-way message, summed over harts). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvx/icount_mark.h>

#include "cap_comm.h"

static const size_t k_sizes[] = {8, 64, 1024, 65536};
#define SIZES (sizeof k_sizes / sizeof k_sizes[0])

static void round_trip(char *buf, size_t bytes)
{
    if (cap_rank() == 0) {
        cap_send(1, buf, bytes);
        cap_recv(1, buf, bytes);
    } else {
        cap_recv(0, buf, bytes);
        cap_send(0, buf, bytes);
    }
}

static void warm_up(char *buf, size_t bytes)
{
    for (int i = 0; i < 4; i++) round_trip(buf, bytes); /* first contact: endpoints opened */
}

int cap_main(int argc, char **argv)
{
    if (cap_size() != 2) {
        if (cap_rank() == 0) printf("cap_pingpong: needs exactly 2 ranks (-np 2)\n");
        return 2;
    }
    int icount = argc > 1 && strcmp(argv[1], "icount") == 0;
    const char *where = cap_local_size() == 2 ? "local" : "remote";
    char *buf = malloc(k_sizes[SIZES - 1]);
    if (buf == NULL) cap_abort(1, "cap_pingpong: no memory for the buffer");
    memset(buf, 0x3c, k_sizes[SIZES - 1]);
    unsigned mark = 1;
    for (unsigned k = 0; k < SIZES; k++) {
        size_t bytes = k_sizes[k];
        warm_up(buf, bytes);
        if (icount) {
            const int n = 20;
            if (cap_rank() == 0) nvx_icount_mark();
            for (int i = 0; i < n; i++) round_trip(buf, bytes);
            if (cap_rank() == 0) nvx_icount_mark();
            for (int i = 0; i < 2 * n; i++) round_trip(buf, bytes);
            if (cap_rank() == 0) {
                nvx_icount_mark();
                printf("cap %s-%s %lu %d mark %u\n", cap_build(), where, (unsigned long)bytes, n, mark);
            }
            mark += 3;
        } else {
            const int n = 100;
            uint64_t start = cap_cycles();
            for (int i = 0; i < n; i++) round_trip(buf, bytes);
            double us = cap_seconds(cap_cycles() - start) * 1e6 / (2.0 * n);
            if (cap_rank() == 0) printf("cap %s %s %lu %d %.2f\n", cap_build(), where, (unsigned long)bytes, n, us);
        }
    }
    free(buf);
    return 0;
}
