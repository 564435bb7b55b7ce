/* LWMPI ping-pong between ranks 0 and 1: one-way latency (half the round trip) and
 * bandwidth per message size, 0 B to 4 MiB (sizes that do not fit the clusters' memory are
 * reported as skipped). Local or remote depends on the mapping (-np 2 compact: one cluster;
 * scatter: two). Times from MPI_Wtime. One table row per size:
 *   mpi <variant> <local|remote> <bytes> <iterations> <lat_us> <MB/s>
 * With the argument `icount` (for benchmarks/icount.sh and the instruction counter) it
 * runs, per size, N and then 2N round trips between three counter marks of rank 0 and
 * prints `mpi <variant>-<where> <bytes> <N> mark <first mark>`: the difference of the two
 * windows over 2N is the instructions of one one-way message, summed over every hart.
 * Then `mpi <variant>-<where>-posted 8 <N> mark <first mark>`: N and then 2N messages of
 * 8 B, each reaching a receive posted beforehand while the receiver computes; the
 * difference over N is one message (its MPI_Irecv, MPI_Send and share of MPI_Waitall).
 * `icount-globals` does the same from a global buffer, as benchmarks written for processes
 * keep theirs: each rank's is in its own copy of the globals (rows <where>-globals). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nvx/icount_mark.h>

static char g_buffer[65536];

static int iterations_for(long bytes)
{
    long n = (8L << 20) / (bytes + 1024);  /* about 8 MiB moved per size, at least 4 round trips */
    return n < 4 ? 4 : n > 200 ? 200 : (int)n;
}

/* One round trip of `bytes` between ranks 0 and 1. */
static void round_trip(int rank, char *buf, long bytes)
{
    int other = 1 - rank;
    if (rank == 0) {
        MPI_Send(buf, (int)bytes, MPI_BYTE, other, 0, MPI_COMM_WORLD);
        MPI_Recv(buf, (int)bytes, MPI_BYTE, other, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(buf, (int)bytes, MPI_BYTE, other, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, (int)bytes, MPI_BYTE, other, 0, MPI_COMM_WORLD);
    }
}

/* The receiver's work outside MPI while the messages arrive. A sleep, not a loop: the
 * harts take turns on the host, and a hart computing would keep its turn until the sends
 * had to wait for it; sleeping in the kernel hands the turn to the sender at once. */
static void away_from_mpi(void) { usleep(2000); }

/* One window of `count` messages of `bytes` from rank 0 to rank 1, each reaching a receive
 * rank 1 posted beforehand (MPI_Irecv) and completes later (MPI_Waitall), the messages
 * arriving while it is away from MPI. The barriers and the time away are the same in every
 * window and cancel out. */
static void posted_window(int rank, char *buf, long bytes, int count)
{
    MPI_Request requests[64];
    if (rank == 1)
        for (int i = 0; i < count; i++)
            MPI_Irecv(buf, (int)bytes, MPI_BYTE, 0, i, MPI_COMM_WORLD, &requests[i]);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        for (int i = 0; i < count; i++) MPI_Send(buf, (int)bytes, MPI_BYTE, 1, i, MPI_COMM_WORLD);
    } else {
        away_from_mpi();
        MPI_Waitall(count, requests, MPI_STATUSES_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Instruction-counter windows of posted receives: N then 2N messages of 8 B, rank 0 marks;
 * the row's operation is one message (MPI_Irecv, MPI_Send, its share of MPI_Waitall). */
static void icount_posted_row(int rank, const char *variant, const char *where, char *buf, unsigned mark)
{
    const int n = 20;
    posted_window(rank, buf, 8, 2 * n);  /* warm-up */
    if (rank == 0) nvx_icount_mark();
    posted_window(rank, buf, 8, n);
    if (rank == 0) nvx_icount_mark();
    posted_window(rank, buf, 8, 2 * n);
    if (rank == 0) {
        nvx_icount_mark();
        printf("mpi %s-%s-posted 8 %d mark %u\n", variant, where, n, mark);
    }
}

/* Instruction-counter windows: N then 2N round trips per size, rank 0 marks. Returns the
 * number the next mark will have. */
static unsigned icount_rows(int rank, const char *variant, const char *where, char *buf)
{
    static const long sizes[] = {8, 64, 1024, 65536};
    const int n = 20;
    unsigned mark = 1;
    for (unsigned k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        for (int i = 0; i < 4; i++)  /* warm-up: first contact, caches, credits */
            round_trip(rank, buf, sizes[k]);
        if (rank == 0) nvx_icount_mark();
        for (int i = 0; i < n; i++) round_trip(rank, buf, sizes[k]);
        if (rank == 0) nvx_icount_mark();
        for (int i = 0; i < 2 * n; i++) round_trip(rank, buf, sizes[k]);
        if (rank == 0) {
            nvx_icount_mark();
            printf("mpi %s-%s %ld %d mark %u\n", variant, where, sizes[k], n, mark);
        }
        mark += 3;
    }
    return mark;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char lib[MPI_MAX_LIBRARY_VERSION_STRING], me[MPI_MAX_PROCESSOR_NAME], peer[MPI_MAX_PROCESSOR_NAME];
    int len;
    MPI_Get_library_version(lib, &len);
    const char *variant = strstr(lib, "variant ") ? strstr(lib, "variant ") + 8 : "?";
    MPI_Get_processor_name(me, &len);
    *strstr(me, "-pe") = '\0';
    memcpy(peer, me, sizeof me);
    MPI_Bcast(peer, sizeof peer, MPI_CHAR, 1, MPI_COMM_WORLD);
    const char *where = strcmp(me, peer) == 0 ? "local" : "remote";
    static const long sizes[] = {0, 8, 64, 128, 1024, 4096, 16384, 65536, 262144, 1 << 20, 2 << 20, 4 << 20};
    /* The largest buffer every rank of the pair can hold. */
    long room = 4 << 20;
    char *buf = NULL;
    while (room >= 1024 && !(buf = malloc(room)))
        room /= 2;
    long agreed = room;
    MPI_Allreduce(&room, &agreed, 1, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
    if (argc > 1 && strcmp(argv[1], "icount-globals") == 0) {
        char with_globals[16];
        snprintf(with_globals, sizeof with_globals, "%s-globals", where);
        if (rank < 2) icount_rows(rank, variant, with_globals, g_buffer);
        free(buf);
        MPI_Finalize();
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "icount") == 0) {
        if (rank < 2 && buf && agreed >= 65536) {
            unsigned mark = icount_rows(rank, variant, where, buf);
            icount_posted_row(rank, variant, where, buf, mark);
        }
        free(buf);
        MPI_Finalize();
        return 0;
    }
    if (rank == 0)
        printf("%-4s %-7s %-7s %8s %6s %10s %10s\n", "mpi", "variant", "where", "bytes", "iters", "lat_us", "MB/s");
    for (unsigned k = 0; k < sizeof sizes / sizeof sizes[0] && rank < 2; k++) {
        long bytes = sizes[k];
        if (bytes > agreed || !buf) {
            if (rank == 0)
                printf("%-4s %-7s %-7s %8ld skipped: no memory for the buffers\n", "mpi", variant, where, bytes);
            continue;
        }
        int n = iterations_for(bytes);
        memset(buf, rank, bytes);
        /* One warm-up round trip (first contact: name lookups), then the timed ones. */
        double start = 0;
        for (int i = -1; i < n; i++) {
            if (i == 0)
                start = MPI_Wtime();
            round_trip(rank, buf, bytes);
        }
        if (rank == 0) {
            double one_way = (MPI_Wtime() - start) / (2.0 * n);
            printf("%-4s %-7s %-7s %8ld %6d %10.2f %10.2f\n", "mpi", variant, where, bytes, n, one_way * 1e6,
                   bytes / one_way / 1e6);
        }
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
