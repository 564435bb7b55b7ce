/* All-to-all (A2A), the thesis' synthetic benchmark, written once against cap_comm.h like
 * FN, GF and KM (so it exists in every build: ipc, unopt, opt). One superstep per message
 * size (128 B .. 32 KiB, doubling); in each, for I iterations, every pair of ranks
 * exchanges one message of that size each way in the pairwise order of cap_pairs.h (each
 * round pairs every rank with one partner; the lower rank of a pair sends first, so the
 * blocking sends of every layer cannot deadlock); then the ranks sum their payload errors,
 * which is also the superstep's global barrier. Every received payload is checked: its
 * content is derived from sender, receiver, size and iteration.
 * --max-size B ends the sizes at B (a quicker run of the same protocols: make test's check).
 * Output (rank 0, after the measured region): per size "a2a: size S, iterations I, cycles
 * C, seconds T, verified yes", then the capbench summary line (cap_app.c). */
#include <stdio.h>
#include <stdlib.h>

#include "../capbench/cap_app.h"
#include "../capbench/cap_data.h"
#include "../capbench/cap_pairs.h"

enum { kMinSize = 128, kMaxSize = 32768, kSizes = 9 };
_Static_assert(kMinSize << (kSizes - 1) == kMaxSize, "one superstep per doubling");

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

static int intact(const uint64_t *buf, int size, uint64_t seed)
{
    uint64_t bad = 0;
    for (int i = 0; i < size / 8; i++)
        bad += buf[i] != seed + (uint64_t)i * 0x9e3779b97f4a7c15ull;
    return bad == 0;
}

/* One message of `bytes` each way between this rank and `peer`; returns 1 if the payload
 * received is wrong. */
static int exchange(int peer, int bytes, uint32_t it, uint64_t *out, uint64_t *in)
{
    int me = cap_rank();
    fill(out, bytes, seed_of(me, peer, bytes, it));
    if (me < peer) {
        cap_send(peer, out, (size_t)bytes);
        cap_recv(peer, in, (size_t)bytes);
    } else {
        cap_recv(peer, in, (size_t)bytes);
        cap_send(peer, out, (size_t)bytes);
    }
    return !intact(in, bytes, seed_of(peer, me, bytes, it));
}

int cap_main(int argc, char **argv)
{
    struct cap_run run;
    uint32_t max_size = kMaxSize;
    struct cap_option options[] = {
        {"iters", &run.params.a2a_iters, 1, 1000000, "iterations: messages per pair and size"},
        {"max-size", &max_size, kMinSize, kMaxSize, "largest message size in bytes (sizes double from 128)"},
    };
    int status = cap_begin(&run, "a2a", argc, argv, options, 2);
    if (status)
        return status;
    int sizes = 0;
    while (sizes < kSizes && (kMinSize << sizes) <= (int)max_size)
        sizes++;
    uint64_t *out = cap_alloc(kMaxSize, "a2a send buffer"), *in = cap_alloc(kMaxSize, "a2a receive buffer");
    int n = cap_size(), rounds = cap_pair_rounds(n);
    uint64_t cycles[kSizes], bad[kSizes];
    cap_start(&run);

    uint64_t mark = run.start;
    for (int s = 0; s < sizes; s++) {
        int bytes = kMinSize << s;
        uint64_t mine = 0;
        for (uint32_t it = 0; it < run.params.a2a_iters; it++)
            for (int t = 0; t < rounds; t++) {
                int peer = cap_pair_partner(cap_rank(), n, t);
                if (peer >= 0)
                    mine += (uint64_t)exchange(peer, bytes, it, out, in);
            }
        bad[s] = cap_sum_all(mine);
        uint64_t now = cap_cycles();
        cycles[s] = now - mark;
        mark = now;
    }

    uint64_t total_bad = 0;
    if (cap_rank() == 0)
        for (int s = 0; s < sizes; s++) {
            total_bad += bad[s];
            printf("a2a: size %d, iterations %u, cycles %llu, seconds %.6f, verified %s\n", kMinSize << s,
                   (unsigned)run.params.a2a_iters, (unsigned long long)cycles[s], cap_seconds(cycles[s]),
                   bad[s] ? "no" : "yes");
        }
    free(out);
    free(in);
    return cap_finish_checked(&run, mark, total_bad == 0);
}
