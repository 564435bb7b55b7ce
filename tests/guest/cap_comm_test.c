/* Conformance test of a CAP Bench communication layer (cap_comm.h), for every backend:
 * written against the header only (plus the launch placement, which both backends share).
 *   (no argument) [max=BYTES]
 *     who-am-I queries against the placement of the launch; every ordered pair of ranks
 *     exchanges one message of each size 0, 1 .. min(1 MiB, max, memory), content and
 *     per-pair order checked; every rank sends to rank 0 at once, which takes them with
 *     cap_recv (one named sender first) and cap_recv_any, checking order per sender;
 *     the accounting of cap_stats_get.
 *   mismatch: rank 0 sends 16 bytes, rank 1 receives 32: the run must end with
 *     CAP_SIZE_MISMATCH_STATUS (see cases.txt).
 *   crash: rank 1 stores through a null pointer while the others wait for a message from
 *     it: every build ends the run at once with the kernel's report, status 128 + 15.
 *   status: rank 1 returns 6, the others 0 after it: the run's status is 6 in every build.
 * Each rank prints "rank R: cap_comm: K checks, F failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvx/launch.h>
#include <nvx/placement.h>
#include <nvx/syscall.h>

#include "cap_comm.h" /* benchmarks/capbench/, on the include path of this test */
#include "cap_pairs.h"

#define CHECK_WHO "rank"
#define CHECK_ID cap_rank
#define CHECK_LOCAL _Thread_local
#include "check_core.h"

static const size_t k_sizes[] = {0, 1, 7, 72, 73, 120, 121, 128, 129, 4096, 4097, 65536, 262147, 1u << 20};
#define SIZES (sizeof k_sizes / sizeof k_sizes[0])
#define ANY_ROUNDS 3 /* messages each rank sends to rank 0 in the cap_recv_any phase */

/* Byte i of message `seq` from src to dst: differs per pair, message and position. */
static uint8_t pattern(int src, int dst, unsigned seq, size_t i)
{
    return (uint8_t)(src * 131u + dst * 29u + seq * 71u + i * 7u + (i >> 8));
}

static void fill(uint8_t *buf, size_t bytes, int src, int dst, unsigned seq)
{
    for (size_t i = 0; i < bytes; i++) buf[i] = pattern(src, dst, seq, i);
}

static int intact(const uint8_t *buf, size_t bytes, int src, int dst, unsigned seq)
{
    for (size_t i = 0; i < bytes; i++)
        if (buf[i] != pattern(src, dst, seq, i)) return 0;
    return 1;
}

/* --- who am I, against the launch placement -------------------------------------------- */
static void check_identity(void)
{
    struct nvx_launch launch;
    CHECK_EQ(nvx_launch_info(&launch), 0);
    int n = cap_size(), me = cap_rank();
    CHECK_EQ(n, (int)launch.ranks);
    unsigned *cluster_of = malloc(sizeof(unsigned) * (size_t)n);
    int *number = calloc(launch.clusters, sizeof(int)); /* compute cluster -> used number + 1 */
    CHECK(cluster_of != NULL && number != NULL);
    if (cluster_of == NULL || number == NULL) return;
    CHECK_EQ(nvx_place_ranks(launch.ranks, launch.clusters, launch.pes, launch.per_cluster, launch.policy, cluster_of), 0);
    int used = 0, here = 0, local = 0;
    for (int r = 0; r < n; r++) {
        unsigned c = cluster_of[r];
        if (number[c] == 0) {
            number[c] = ++used;
            CHECK_EQ(cap_local_master_of(used - 1), r); /* numbered in the order of their lowest rank */
        }
        if (c == cluster_of[me]) {
            if (r < me) local++;
            if (here < cap_local_size()) CHECK_EQ(cap_local_member(here), r);
            here++;
        }
    }
    CHECK_EQ(cap_clusters(), used);
    CHECK_EQ(cap_cluster(), number[cluster_of[me]] - 1);
    CHECK_EQ(cap_local_size(), here);
    CHECK_EQ(cap_local_size(), (int)launch.ranks_here);
    CHECK_EQ(cap_local_rank(), local);
    CHECK_EQ(cap_local_member(cap_local_rank()), me);
    CHECK_EQ(cap_local_master_of(cap_cluster()), cap_local_member(0));
    CHECK(strcmp(cap_build(), "ipc") == 0 || strcmp(cap_build(), "opt") == 0 || strcmp(cap_build(), "unopt") == 0);
    free(cluster_of);
    free(number);
}

/* --- every pair, every size --------------------------------------------------------------- */
static void one_way(int from, int to, size_t max, uint8_t *buf, unsigned *sent, uint64_t *bytes)
{
    int me = cap_rank();
    for (unsigned k = 0; k < SIZES && k_sizes[k] <= max; k++) {
        size_t s = k_sizes[k];
        if (me == from) {
            fill(buf, s, from, to, k);
            cap_send(to, buf, s);
            (*sent)++;
            *bytes += s;
        } else {
            memset(buf, 0xee, s);
            cap_recv(from, buf, s);
            CHECK(intact(buf, s, from, to, k)); /* also proves the order: seq k is in the bytes */
        }
    }
}

static void all_pairs(size_t max, unsigned *sent, uint64_t *bytes)
{
    int n = cap_size(), me = cap_rank();
    uint8_t *buf = malloc(max ? max : 1);
    CHECK(buf != NULL);
    if (buf == NULL) return;
    int rounds = cap_pair_rounds(n), met = 0;
    for (int t = 0; t < rounds; t++) {
        int p = cap_pair_partner(me, n, t);
        if (p < 0) continue;
        CHECK(cap_pair_partner(p, n, t) == me);
        met++;
        int low = me < p ? me : p, high = me < p ? p : me;
        one_way(low, high, max, buf, sent, bytes); /* the lower rank sends first */
        one_way(high, low, max, buf, sent, bytes);
    }
    CHECK_EQ(met, n - 1);
    free(buf);
}

/* --- many senders at once towards rank 0 ---------------------------------------------------- */
static void fan_in(size_t bytes, unsigned *sent, uint64_t *total)
{
    int n = cap_size(), me = cap_rank();
    uint8_t *buf = malloc(bytes);
    CHECK(buf != NULL);
    if (buf == NULL) return;
    if (me != 0) {
        for (unsigned k = 0; k < ANY_ROUNDS; k++) {
            fill(buf, bytes, me, 0, 1000 + k);
            cap_send(0, buf, bytes);
            (*sent)++;
            *total += bytes;
        }
    } else {
        unsigned *next = calloc((size_t)n, sizeof(unsigned)); /* per sender: next sequence */
        CHECK(next != NULL);
        if (next == NULL) return;
        /* first the last rank by name, while the others are already waiting to send */
        cap_recv(n - 1, buf, bytes);
        CHECK(intact(buf, bytes, n - 1, 0, 1000));
        next[n - 1] = 1;
        for (long left = (long)(n - 1) * ANY_ROUNDS - 1; left > 0; left--) {
            memset(buf, 0xee, bytes);
            int src = cap_recv_any(buf, bytes);
            CHECK(src > 0 && src < n);
            if (src <= 0 || src >= n) continue;
            CHECK(next[src] < ANY_ROUNDS);
            CHECK(intact(buf, bytes, src, 0, 1000 + next[src])); /* in order per sender */
            next[src]++;
        }
        for (int r = 1; r < n; r++) CHECK_EQ(next[r], ANY_ROUNDS);
        free(next);
    }
    free(buf);
}

/* Every rank waits until rank 0 has seen all: a send to each rank after the fan-in. */
static void release_all(void)
{
    int n = cap_size(), me = cap_rank();
    uint8_t token = 0x5a;
    if (me == 0)
        for (int r = 1; r < n; r++) cap_send(r, &token, 1);
    else {
        token = 0;
        cap_recv(0, &token, 1);
        CHECK_EQ(token, 0x5a);
    }
}

/* The largest size every rank can afford (all must agree): half the user memory shared
 * by the ranks of the fullest cluster of the placement (each holds one such buffer). */
static size_t affordable(size_t max)
{
    struct nvx_info info;
    struct nvx_launch launch;
    if (nvx_sys_info(&info) != 0 || nvx_launch_info(&launch) != 0) return 0;
    unsigned fullest = launch.ranks < launch.pes ? launch.ranks : launch.pes;
    if (launch.policy == NVX_MAP_SCATTER) fullest = (launch.ranks + launch.clusters - 1) / launch.clusters;
    size_t share = (size_t)(info.user_memory / (2u * (uint64_t)fullest));
    return share < max ? share : max;
}

int cap_main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "mismatch") == 0) {
        uint8_t buf[32] = {0};
        if (cap_rank() == 0) cap_send(1, buf, 16);
        if (cap_rank() == 1) cap_recv(0, buf, 32);
        return 0; /* ranks beyond 1 end normally; the mismatch ends the run */
    }
    if (argc > 1 && strcmp(argv[1], "crash") == 0) {
        uint8_t never;
        if (cap_rank() == 1) {
            printf("rank 1: about to crash\n");
            fflush(stdout);
            volatile uint8_t *volatile nowhere = NULL; /* the compiler sees neither the null nor a dead store */
            *nowhere = 1;
        }
        cap_recv(1, &never, 1); /* nobody sends it: only the crash ends the run */
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "status") == 0) {
        uint8_t token = 1;
        if (cap_rank() == 1) {
            for (int r = 0; r < cap_size(); r++)
                if (r != 1) cap_send(r, &token, 1);
            return 6;
        }
        cap_recv(1, &token, 1); /* the others end after rank 1's status is set */
        return 0;
    }
    size_t max = 1u << 20;
    if (argc > 1 && strncmp(argv[1], "max=", 4) == 0) max = strtoul(argv[1] + 4, NULL, 0);
    max = affordable(max);

    check_identity();
    unsigned sent = 0;
    uint64_t bytes = 0;
    if (cap_size() > 1) {
        all_pairs(max, &sent, &bytes);
        fan_in(16, &sent, &bytes);
        release_all();
        fan_in(max < 4096 ? max : 4096, &sent, &bytes);
        release_all();
        if (cap_rank() == 0) sent += (unsigned)cap_size() * 2 - 2, bytes += (uint64_t)cap_size() * 2 - 2;
    }
    struct cap_stats st;
    cap_stats_get(&st);
    CHECK_EQ(st.messages_sent, sent);
    CHECK_EQ(st.bytes_sent, bytes);
    CHECK(sent == 0 || st.comm_cycles > 0);
    CHECK(cap_seconds(cap_cycles()) > 0.0);
    return check_finish("cap_comm");
}
