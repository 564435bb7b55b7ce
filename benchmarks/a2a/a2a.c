/* All-to-all (A2A), the thesis' synthetic benchmark, directly on MPI: one superstep per
 * message size (128 B .. 32 KiB, doubling); in each, for I iterations, every rank sends
 * one message of that size to every other rank in the pairwise-exchange order (step s =
 * 1..P-1: send to rank + s, receive from rank - s, with MPI_Sendrecv, so no step can
 * deadlock), then all meet at a barrier. Every received payload is checked: its content
 * is derived from sender, receiver, size and iteration.
 * Output (rank 0): per size "a2a: size S, iterations I, cycles C, seconds T, verified yes",
 * then the capbench summary line (benchmarks/capbench/cap_app.c has the format). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../capbench/cap_class.h"
#include "../capbench/cap_comm.h"
#include "../capbench/cap_data.h"
#include "../capbench/cap_mpi_build.h"

enum { kMinSize = 128, kMaxSize = 32768, kTag = 7 };

static _Thread_local uint64_t comm_cycles, bytes_sent, messages_sent;

/* The payload of (sender, receiver, size, iteration): 64-bit words from one seed. */
static uint64_t seed_of(int from, int to, int size, uint32_t it)
{
    return cap_splitmix64(((uint64_t)from << 40) ^ ((uint64_t)to << 20) ^ ((uint64_t)size << 4) ^
                          ((uint64_t)it << 52));
}
static void fill(uint64_t *buf, int size, uint64_t seed)
{
    for (int i = 0; i < size / 8; i++)
        buf[i] = seed + (uint64_t)i * 0x9e3779b97f4a7c15ull;
}
static uint64_t mismatches(const uint64_t *buf, int size, uint64_t seed)
{
    uint64_t bad = 0;
    for (int i = 0; i < size / 8; i++)
        bad += buf[i] != seed + (uint64_t)i * 0x9e3779b97f4a7c15ull;
    return bad;
}

static void barrier(void)
{
    uint64_t t0 = cap_cycles();
    MPI_Barrier(MPI_COMM_WORLD);
    comm_cycles += cap_cycles() - t0;
}

static int usage(int rank, const char *why)
{
    if (rank == 0)
        fprintf(stderr, "a2a: %s\nusage: a2a [--class test|small|thesis] [--iters I]\n", why);
    return 2;
}

static int parse(int rank, int argc, char **argv, const char **cls, uint32_t *iters)
{
    const struct cap_class *c = &cap_classes[0];
    long forced = -1;
    for (int i = 1; i < argc; i++) {
        if (i + 1 >= argc)
            return usage(rank, "an option needs a value");
        if (strcmp(argv[i], "--class") == 0) {
            c = NULL;
            for (unsigned k = 0; k < CAP_CLASS_COUNT; k++)
                if (strcmp(cap_classes[k].name, argv[i + 1]) == 0)
                    c = &cap_classes[k];
            if (!c)
                return usage(rank, "unknown class");
        } else if (strcmp(argv[i], "--iters") == 0) {
            char *end = NULL;
            forced = strtol(argv[i + 1], &end, 10);
            if (*end || forced < 1 || forced > 1000000)
                return usage(rank, "--iters needs a number in 1..1000000");
        } else {
            return usage(rank, "unknown option");
        }
        i++;
    }
    *cls = c->name;
    *iters = forced > 0 ? (uint32_t)forced : c->a2a_iters;
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *cls;
    uint32_t iters;
    int status = parse(rank, argc, argv, &cls, &iters);
    if (status) {
        MPI_Finalize();
        return status;
    }
    /* Clusters in use: the ranks that lead their shared-memory group. */
    MPI_Comm local;
    int local_rank, leaders = 0;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &local);
    MPI_Comm_rank(local, &local_rank);
    int leads = local_rank == 0;
    MPI_Allreduce(&leads, &leaders, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Comm_free(&local);
    char build[16];
    cap_mpi_build_name(build, sizeof build);

    uint64_t *out = malloc(kMaxSize), *in = malloc(kMaxSize);
    if (!out || !in) {
        fprintf(stderr, "a2a: rank %d: out of memory for two %d-byte buffers\n", rank, kMaxSize);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    uint64_t total_cycles = 0, total_bad = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    for (int bytes = kMinSize; bytes <= kMaxSize; bytes *= 2) {
        uint64_t bad = 0, start = cap_cycles();
        for (uint32_t it = 0; it < iters; it++)
            for (int step = 1; step < size; step++) {
                int to = (rank + step) % size, from = (rank - step + size) % size;
                fill(out, bytes, seed_of(rank, to, bytes, it));
                MPI_Status st;
                uint64_t t0 = cap_cycles();
                MPI_Sendrecv(out, bytes, MPI_BYTE, to, kTag, in, bytes, MPI_BYTE, from, kTag,
                             MPI_COMM_WORLD, &st);
                comm_cycles += cap_cycles() - t0;
                bytes_sent += (uint64_t)bytes;
                messages_sent++;
                int got = 0;
                MPI_Get_count(&st, MPI_BYTE, &got);
                bad += got != bytes || mismatches(in, bytes, seed_of(from, rank, bytes, it));
            }
        barrier();
        uint64_t cycles = cap_cycles() - start, all_bad = 0;
        /* Outside the measured superstep: did any rank see a wrong payload? */
        MPI_Allreduce(&bad, &all_bad, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
        total_bad += all_bad;
        total_cycles += cycles;
        if (rank == 0) {
            printf("a2a: size %d, iterations %u, cycles %llu, seconds %.6f, verified %s\n", bytes,
                   iters, (unsigned long long)cycles, cap_seconds(cycles), all_bad ? "no" : "yes");
            fflush(stdout);
        }
    }
    uint64_t mine[3] = {comm_cycles, bytes_sent, messages_sent}, sum[3];
    MPI_Reduce(mine, sum, 3, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("capbench: app=a2a build=%s ranks=%d clusters=%d class=%s cycles=%llu seconds=%.6f "
               "comm_cycles=%llu bytes=%llu messages=%llu verified=%s\n",
               build, size, leaders, cls, (unsigned long long)total_cycles, cap_seconds(total_cycles),
               (unsigned long long)(sum[0] / (uint64_t)size), (unsigned long long)sum[1],
               (unsigned long long)sum[2], total_bad ? "no" : "yes");
        fflush(stdout);
    }
    free(out);
    free(in);
    MPI_Finalize();
    return rank == 0 && total_bad ? 3 : 0;
}
