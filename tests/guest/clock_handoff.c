/* Hand-offs of the virtual clock: a wait on another hart ends at
 * max(own time, the sender's stamp + modeled latency), and servers do not let the host's
 * order of arrival inflate time. Every mode runs on every compute cluster.
 *   server    one client per user hart computes for a different length, then makes a
 *             forwarded kernel call; the host order is inverted on purpose (the clients
 *             with the latest stamps post first). Each client's round trip must be the
 *             round trip of a client alone (its own stamp + the core's service), not
 *             pushed behind the later-stamped requests the core served first.
 *   pingpong  mailbox ping-pong from the first compute cluster with its nearest and its
 *             farthest peer (the pinger thinks between rounds, so rounds do not overlap):
 *             each round trip lies between 2 x the modeled one-way NoC cost and that plus
 *             every instruction the four harts ran; the two round trips differ by exactly
 *             2 x the difference of the modeled costs (the instructions on the path are
 *             the same code), so each is the path's instructions + the modeled costs.
 *   chain     a token passed once through every compute cluster: its virtual transit time
 *             is at least the sum of the modeled costs of its hops, and at most that plus
 *             every instruction the harts on its path ran while it travelled.
 *   dma       a portal write between the first two compute clusters, the reader's window
 *             posted well before in virtual time: the NoC engine's DMA moves the bytes,
 *             so the writer's harts run far fewer instructions than a copy would take,
 *             while the write still takes the modeled link time; and its pieces stream
 *             (the kernel's work between them overlaps the link), so it takes little
 *             more than that.
 *   names     the Name Server is a server too: one client per compute cluster asks it for
 *             a name, cluster r after 2 r x kNameSpread cycles of work, first in turn and
 *             then in inverted host order (the latest stamps ask first). Each client's
 *             round trip must equal its round trip in turn, not carry the later requests
 *             the server took first.
 *   untimed   a futex wake is a hand-off (the sleeper goes on from the waker's time), but
 *             one with NVX_FUTEX_UNTIMED is a notice: the sleeper keeps its own time, so a
 *             doorbell rung by a waker far ahead in virtual time (LWMPI: a local sender
 *             whose message the rank does not wait for yet) does not drag it forward.
 *             Unknown flags are refused. A server thread (nvx_clock_server) is woken
 *             untimed even by a timed wake (a lock's release is no request of its), and
 *             nvx_clock_serve sets its time to a request's stamp, earlier or later; for
 *             any other thread it only moves the time forward.
 *   mutex     a lock's hold is a span of virtual time: a thread that asks for it inside
 *             another's hold goes on from that hold's end, one that asks before the hold
 *             began goes on at its own time (it would have had the lock first), though in
 *             both cases the host ran the holder first (it held the lock in host time).
 * No wall-clock assertion: virtual cycles are deterministic. */
#include <errno.h>
#include <nvx/clock.h>
#include <nvx/names.h>
#include <nvx/sync.h>
#include <nvx/syscall.h>
#include <nvx/thread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "ikc_test.h"

#define COUNTERS ((const volatile struct nvx_clock_counters *)NVX_USER_CLOCK_COUNTERS)
enum { kMaxClients = 64, kPingPort = 6, kChainPort = 7, kDmaPort = 8, kRounds = 40 };
/* Ping-pong: the pinger thinks this long (x 2 instructions) before each ping, so that no
 * part of one round overlaps the next in virtual time: the round trip is then one path,
 * the same code near and far, and only the modeled NoC cost differs. */
enum { kThink = 5000 };
/* A round trip of a client alone and one among others run the same instructions; the
 * core's and the hart's paths do not depend on which hart or stamp. Near and far peers
 * run the same code but for the hop count (a few instructions in the engine). The
 * median: a round where the reply reaches the pinger's kernel before the pinger's read
 * call (host order) takes the buffered path, a few dozen instructions apart. */
enum { kServerTolerance = 8, kDistanceTolerance = 4 };
/* names: work between the clusters' requests (x 2 cycles), far more than the Name Server
 * spends on one, so that in virtual time no request waits for another; host order gaps
 * (board clock) far more than that work takes on the host. A request the server took
 * after a later-stamped one used to come back r x 1 M cycles late. The tolerance covers
 * the host-timed costs README "The virtual clock" lists as limits (the buffered read path,
 * a timer interrupt landing during the call: about 1,000 cycles, seen on mppa256). */
enum { kNameSpread = 500000, kNameGapHz = 20, kNameTolerance = 1536 };

static uint64_t counter_of(uint32_t global_hart) { return COUNTERS->cycles[global_hart]; }

static void spin(uint64_t n)
{
    if (n > 0) __asm__ volatile("1: addi %0, %0, -1\n\tbnez %0, 1b" : "+r"(n));
}

static int spawn_on(nvx_thread_t *t, int hart, void *(*fn)(void *), void *arg)
{
    nvx_thread_attr_t attr = NVX_THREAD_ATTR_INITIALIZER;
    attr.hart = hart;
    return nvx_thread_create(t, &attr, fn, arg);
}

/* Runs `first` on user hart 1 and `second` on user hart 2 with the same argument, both to
 * their end. */
static void run_pair(void *(*first)(void *), void *(*second)(void *), void *arg)
{
    nvx_thread_t a, b;
    CHECK_EQ(spawn_on(&a, 1, first, arg), 0);
    CHECK_EQ(spawn_on(&b, 2, second, arg), 0);
    CHECK_EQ(nvx_thread_join(b, 0), 0);
    CHECK_EQ(nvx_thread_join(a, 0), 0);
}

/* --- server: answers do not depend on the host's order of arrival --- */
static uint64_t forwarded_round_trip(void)
{
    uint64_t t0 = nvx_clock_cycles();
    long brk = nvx_sys_brk(0); /* served by the kernel core */
    uint64_t t1 = nvx_clock_cycles();
    TCHECK(brk > 0);
    return t1 - t0;
}

static uint64_t local_round_trip(void)
{
    uint64_t t0 = nvx_clock_cycles();
    long self = nvx_sys_thread_self(); /* served on the calling hart */
    uint64_t t1 = nvx_clock_cycles();
    TCHECK(self > 0);
    return t1 - t0;
}

static uint64_t reading_cost(void)
{
    uint64_t t0 = nvx_clock_cycles();
    uint64_t t1 = nvx_clock_cycles();
    return t1 - t0;
}

struct client {
    unsigned index, clients;
    uint64_t wake_at; /* board clock: the host order of the posts */
    uint64_t alone, among;
    uint64_t local, reading; /* a call served on the hart; two readings back to back */
};
static nvx_barrier_t g_start;

static void *alone(void *arg)
{
    struct client *c = arg;
    uint64_t least = UINT64_MAX;
    for (int i = 0; i < 3; i++) {
        uint64_t rt = forwarded_round_trip();
        if (rt < least) least = rt;
    }
    c->alone = least;
    c->local = UINT64_MAX;
    for (int i = 0; i < 3; i++) {
        uint64_t rt = local_round_trip();
        if (rt < c->local) c->local = rt;
    }
    c->reading = reading_cost();
    return 0;
}

static void *among(void *arg)
{
    struct client *c = arg;
    nvx_barrier_wait(&g_start);
    /* The client with the least work posts last in host time, the one with the most
     * work first: the core serves later stamps before earlier ones. */
    TCHECK_EQ(nvx_thread_sleep_until(c->wake_at), 0);
    spin((uint64_t)(c->index + 1) * 400000);
    c->among = forwarded_round_trip();
    return 0;
}

static void check_server(void)
{
    struct nvx_info info;
    CHECK_EQ(nvx_sys_info(&info), 0);
    unsigned n = info.user_harts;
    CHECK(n >= 1 && n <= kMaxClients);
    if (n < 1 || n > kMaxClients) return;
    static struct client c[kMaxClients];
    nvx_thread_t t[kMaxClients];
    memset(c, 0, sizeof c);
    CHECK_EQ(spawn_on(&t[0], 1, alone, &c[0]), 0);
    CHECK_EQ(nvx_thread_join(t[0], 0), 0);
    uint64_t reference = c[0].alone;
    printf("clock_handoff: null kernel call on the hart %llu cycles, forwarded to the kernel core %llu (two clock "
           "readings alone: %llu)\n",
           (unsigned long long)c[0].local, (unsigned long long)reference, (unsigned long long)c[0].reading);
    CHECK(c[0].local < reference); /* the forwarded call crosses to the core and back */
    CHECK_EQ(nvx_barrier_init(&g_start, n), 0);
    uint64_t base = nvx_rdtime() + NVX_TIMER_HZ / 50;
    for (unsigned i = 0; i < n; i++) {
        c[i].index = i;
        c[i].clients = n;
        c[i].wake_at = base + (uint64_t)(n - i) * (NVX_TIMER_HZ / 50); /* 20 ms apart */
        CHECK_EQ(spawn_on(&t[i], (int)i + 1, among, &c[i]), 0);
    }
    uint64_t low = UINT64_MAX, high = 0;
    for (unsigned i = 0; i < n; i++) {
        CHECK_EQ(nvx_thread_join(t[i], 0), 0);
        int64_t diff = (int64_t)c[i].among - (int64_t)reference;
        if (diff < -kServerTolerance || diff > kServerTolerance)
            printf("FAIL cluster %u: client %u round trip %llu cycles, alone %llu\n", check_cluster(), i,
                   (unsigned long long)c[i].among, (unsigned long long)reference);
        CHECK(diff >= -kServerTolerance && diff <= kServerTolerance);
        if (c[i].among < low) low = c[i].among;
        if (c[i].among > high) high = c[i].among;
    }
    printf("clock_handoff: forwarded call alone %llu cycles; %u clients in inverted host order: %llu .. %llu\n",
           (unsigned long long)reference, n, (unsigned long long)low, (unsigned long long)high);
}

/* --- pingpong and chain: mailboxes between compute clusters --- */
static struct ikc_env g_env;

/* The harts a pinned thread (hart 1) and its kernel core use, by global id. */
struct harts {
    uint32_t user, core;
};

static struct harts my_harts(void)
{
    struct nvx_info info;
    struct harts h = {0, 0};
    if (nvx_sys_info(&info) == 0) h = (struct harts){info.hart, info.hart - info.local_hart};
    return h;
}

static uint64_t harts_counted(struct harts h) { return counter_of(h.user) + counter_of(h.core); }

static uint64_t modeled_of(long out)
{
    struct nvx_ikc_stats s = {0};
    TCHECK_EQ(nvx_mailbox_stats(out, &s), 0);
    return s.modeled_cycles;
}

struct ball {
    uint32_t user, core; /* the answering side's harts */
};

struct pingpong {
    uint64_t round_trip;   /* virtual cycles per round */
    uint64_t modeled;      /* modeled cycles of one message each way */
    uint64_t instructions; /* per round: everything the four harts ran */
    uint64_t least, most;  /* one round trip, without the think time */
    uint64_t median;
};

static uint64_t median(uint64_t *v, int n)
{
    for (int i = 1; i < n; i++) /* insertion sort: a few dozen values */
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            uint64_t x = v[j];
            v[j] = v[j - 1];
            v[j - 1] = x;
        }
    return v[n / 2];
}

/* Rank 0's side, against the peer of compute rank `peer`. */
static struct pingpong ping(long in, unsigned peer)
{
    struct pingpong r = {0, 0, 0, 0, 0, 0};
    uint64_t took_each[kRounds];
    long out = nvx_mailbox_open(g_env.nodes[peer], kPingPort);
    TCHECK(out >= 0);
    struct ball b = {0, 0};
    TCHECK_EQ(nvx_mailbox_write(out, &b, sizeof b), sizeof b); /* warm-up: learn its harts */
    TCHECK_EQ(nvx_mailbox_read(in, &b, sizeof b), sizeof b);
    struct harts me = my_harts(), them = {b.user, b.core};
    uint64_t modeled0 = modeled_of(out), counted0 = harts_counted(me) + harts_counted(them);
    uint64_t t0 = nvx_clock_cycles();
    r.least = UINT64_MAX;
    for (int i = 0; i < kRounds; i++) {
        spin(kThink); /* the peer is surely asleep in its read (and its core idle) when the ping comes */
        uint64_t sent = nvx_clock_cycles();
        TCHECK_EQ(nvx_mailbox_write(out, &b, sizeof b), sizeof b);
        TCHECK_EQ(nvx_mailbox_read(in, &b, sizeof b), sizeof b);
        uint64_t took = nvx_clock_cycles() - sent;
        if (took < r.least) r.least = took;
        if (took > r.most) r.most = took;
        took_each[i] = took;
    }
    r.median = median(took_each, kRounds);
    uint64_t t1 = nvx_clock_cycles();
    /* The peer waits in its next read (it stands still) until the final message below. */
    uint64_t counted1 = harts_counted(me) + harts_counted(them);
    r.round_trip = (t1 - t0) / kRounds - 2 * kThink; /* the think time is 2 instructions per spin */
    r.modeled = (modeled_of(out) - modeled0) / kRounds;
    r.instructions = (counted1 - counted0) / kRounds - 2 * kThink;
    b.user = UINT32_MAX; /* stop */
    TCHECK_EQ(nvx_mailbox_write(out, &b, sizeof b), sizeof b);
    TCHECK_EQ(nvx_mailbox_close(out), 0);
    return r;
}

/* A peer's side: answers every ball with its harts until told to stop. */
static void pong(long in)
{
    long out = nvx_mailbox_open(g_env.nodes[0], kPingPort);
    TCHECK(out >= 0);
    struct harts me = my_harts();
    struct ball b;
    for (;;) {
        TCHECK_EQ(nvx_mailbox_read(in, &b, sizeof b), sizeof b);
        if (b.user == UINT32_MAX) break;
        b = (struct ball){me.user, me.core};
        TCHECK_EQ(nvx_mailbox_write(out, &b, sizeof b), sizeof b);
    }
    TCHECK_EQ(nvx_mailbox_close(out), 0);
}

static void check_one(const char *name, struct pingpong r)
{
    printf("clock_handoff: ping-pong with the %s peer: %llu cycles per round trip on average, median %llu (%llu .. %llu), "
           "modeled NoC %llu per message, %llu instructions run per round\n",
           name, (unsigned long long)r.round_trip, (unsigned long long)r.median, (unsigned long long)r.least,
           (unsigned long long)r.most,
           (unsigned long long)r.modeled, (unsigned long long)r.instructions);
    TCHECK(r.modeled > 0);
    TCHECK(r.round_trip >= 2 * r.modeled);
    TCHECK(r.round_trip <= 2 * r.modeled + r.instructions);
}

static void *pingpong_thread(void *arg)
{
    (void)arg;
    long in = nvx_mailbox_create(g_env.me, kPingPort);
    TCHECK(in >= 0);
    TCHECK_EQ(ikc_barrier(&g_env), 0); /* every input exists */
    if (g_env.rank == 0 && g_env.n > 1) {
        /* Two sessions with every peer (the first meets it); the second is checked. */
        static struct pingpong r[kIkcMaxCompute];
        for (int session = 0; session < 2; session++)
            for (unsigned p = 1; p < g_env.n; p++) r[p] = ping(in, p);
        unsigned near = 1, far = 1;
        for (unsigned p = 1; p < g_env.n; p++) {
            if (r[p].modeled < r[near].modeled) near = p;
            if (r[p].modeled > r[far].modeled) far = p;
        }
        check_one("nearest", r[near]);
        check_one("farthest", r[far]);
        int64_t extra = (int64_t)r[far].median - (int64_t)r[near].median;
        int64_t modeled_extra = 2 * ((int64_t)r[far].modeled - (int64_t)r[near].modeled);
        printf("clock_handoff: farthest - nearest: %lld cycles per round trip (medians), modeled %lld\n", (long long)extra,
               (long long)modeled_extra);
        TCHECK(extra - modeled_extra >= -kDistanceTolerance && extra - modeled_extra <= kDistanceTolerance);
    } else if (g_env.rank != 0) {
        for (int session = 0; session < 2; session++) pong(in);
    }
    TCHECK_EQ(ikc_barrier(&g_env), 0);
    TCHECK_EQ(nvx_mailbox_unlink(in), 0);
    return 0;
}

/* --- chain: once around the ring of compute clusters, then a report around it --- */
struct report {
    uint64_t modeled;      /* sum of the modeled costs of the token's hops */
    uint64_t instructions; /* what the harts on its path ran while it travelled */
};

static void *chain_thread(void *arg)
{
    (void)arg;
    long in = nvx_mailbox_create(g_env.me, kChainPort);
    TCHECK(in >= 0);
    long out = nvx_mailbox_open(g_env.nodes[(g_env.rank + 1) % g_env.n], kChainPort);
    TCHECK(out >= 0);
    TCHECK_EQ(ikc_barrier(&g_env), 0);
    struct harts me = my_harts();
    uint64_t counted0 = harts_counted(me), modeled0 = modeled_of(out), token = 0, elapsed = 0;
    if (g_env.rank == 0) {
        uint64_t t0 = nvx_clock_cycles();
        TCHECK_EQ(nvx_mailbox_write(out, &token, sizeof token), sizeof token);
        TCHECK_EQ(nvx_mailbox_read(in, &token, sizeof token), sizeof token);
        elapsed = nvx_clock_cycles() - t0;
    } else {
        TCHECK_EQ(nvx_mailbox_read(in, &token, sizeof token), sizeof token);
        TCHECK_EQ(nvx_mailbox_write(out, &token, sizeof token), sizeof token);
    }
    struct report mine = {modeled_of(out) - modeled0, harts_counted(me) - counted0}, total;
    if (g_env.rank == 0) {
        TCHECK_EQ(nvx_mailbox_write(out, &mine, sizeof mine), sizeof mine);
        TCHECK_EQ(nvx_mailbox_read(in, &total, sizeof total), sizeof total);
        printf("clock_handoff: chain through %u clusters: %llu cycles; modeled NoC %llu, instructions on the path "
               "at most %llu\n",
               g_env.n, (unsigned long long)elapsed, (unsigned long long)total.modeled,
               (unsigned long long)total.instructions);
        TCHECK(total.modeled > 0);
        TCHECK(elapsed >= total.modeled);
        TCHECK(elapsed <= total.modeled + total.instructions);
    } else {
        TCHECK_EQ(nvx_mailbox_read(in, &total, sizeof total), sizeof total);
        total.modeled += mine.modeled;
        total.instructions += mine.instructions;
        TCHECK_EQ(nvx_mailbox_write(out, &total, sizeof total), sizeof total);
    }
    TCHECK_EQ(ikc_barrier(&g_env), 0);
    TCHECK_EQ(nvx_mailbox_close(out), 0);
    TCHECK_EQ(nvx_mailbox_unlink(in), 0);
    return 0;
}

/* --- dma: a portal write is the NoC engine's work, not the writer's --- */
/* A message of several portal pieces (the engine moves at most 64 KiB per call), small
 * enough for mppa256's 2 MiB clusters. The writer thinks long enough (x 2 cycles) for the
 * reader's window to be posted first in virtual time. */
enum { kDmaBytes = 256 * 1024, kDmaThink = 100000 };

static void *dma_thread(void *arg)
{
    (void)arg;
    uint8_t *buf = g_env.rank <= 1 ? malloc(kDmaBytes) : 0;
    TCHECK(g_env.rank > 1 || buf != 0);
    if (g_env.rank == 1) {
        long in = nvx_portal_create(g_env.me, kDmaPort);
        TCHECK(in >= 0);
        TCHECK_EQ(nvx_portal_allow(in, g_env.nodes[0]), 0);
        TCHECK_EQ(ikc_barrier(&g_env), 0);
        TCHECK_EQ(nvx_portal_read(in, buf, kDmaBytes), kDmaBytes);
        TCHECK_EQ(ikc_verify(buf, kDmaBytes, 77), -1);
        TCHECK_EQ(nvx_portal_unlink(in), 0);
    } else if (g_env.rank == 0) {
        long out = nvx_portal_open(g_env.nodes[1], kDmaPort);
        TCHECK(out >= 0);
        ikc_fill(buf, kDmaBytes, 77);
        struct nvx_ikc_stats before = {0}, after = {0};
        TCHECK_EQ(nvx_portal_stats(out, &before), 0);
        TCHECK_EQ(ikc_barrier(&g_env), 0);
        spin(kDmaThink);
        struct harts me = my_harts();
        uint64_t counted0 = harts_counted(me), t0 = nvx_clock_cycles();
        TCHECK_EQ(nvx_portal_write(out, buf, kDmaBytes), kDmaBytes);
        uint64_t elapsed = nvx_clock_cycles() - t0, instructions = harts_counted(me) - counted0;
        TCHECK_EQ(nvx_portal_stats(out, &after), 0);
        uint64_t modeled = after.modeled_cycles - before.modeled_cycles;
        printf("clock_handoff: portal write of %d bytes: %llu cycles, modeled NoC %llu in %llu pieces, "
               "%llu instructions on the writer's harts\n",
               kDmaBytes, (unsigned long long)elapsed, (unsigned long long)modeled,
               (unsigned long long)(after.hw_transfers - before.hw_transfers), (unsigned long long)instructions);
        /* A processor's copy would run at least a load and a store per 8 bytes: twice
         * this bound, the kernel's and the engine's work per piece staying under it. */
        TCHECK(instructions * 8 < kDmaBytes);
        /* The modeled cost sums the pieces' head latencies too (a few % of it). */
        TCHECK(elapsed * 10 >= modeled * 9);
        /* What the write adds to the link time is starting the first piece and taking the
         * last one's completion: the kernel's work between pieces overlaps the link. */
        TCHECK(elapsed <= modeled + modeled / 8);
        TCHECK_EQ(nvx_portal_close(out), 0);
    } else {
        TCHECK_EQ(ikc_barrier(&g_env), 0);
    }
    TCHECK_EQ(ikc_barrier(&g_env), 0);
    free(buf);
    return 0;
}

/* --- names: the Name Server serves each request at its own time --- */
static uint64_t name_round_trip(const char *what, unsigned rank)
{
    char name[NVX_NAME_MAX + 1];
    snprintf(name, sizeof name, "clk-%s-%u", what, rank); /* linked by nobody: never cached */
    unsigned node = 0, port = 0;
    uint64_t t0 = nvx_clock_cycles();
    int err = nvx_name_lookup(name, &node, &port);
    uint64_t t1 = nvx_clock_cycles();
    TCHECK_EQ(err, -ENOENT);
    return t1 - t0;
}

static void *names_thread(void *arg)
{
    (void)arg;
    unsigned r = g_env.rank, n = g_env.n;
    (void)name_round_trip("warm", r); /* opens the reply port and the server's mailbox */
    TCHECK_EQ(ikc_barrier(&g_env), 0);
    spin((uint64_t)r * kNameSpread);
    uint64_t in_turn = name_round_trip("turn", r);
    TCHECK_EQ(ikc_barrier(&g_env), 0);
    /* Inverted: the cluster with the most work sleeps least (board clock), so the server
     * takes the later stamps first; sleeping costs no virtual time. */
    TCHECK_EQ(nvx_thread_sleep_until(nvx_rdtime() + (uint64_t)(n - r) * (NVX_TIMER_HZ / kNameGapHz)), 0);
    spin((uint64_t)r * kNameSpread);
    uint64_t inverted = name_round_trip("inverted", r);
    int64_t diff = (int64_t)inverted - (int64_t)in_turn;
    printf("clock_handoff: cluster %u: Name Server round trip %llu cycles in turn, %llu in inverted host order\n", r,
           (unsigned long long)in_turn, (unsigned long long)inverted);
    TCHECK(diff >= -kNameTolerance && diff <= kNameTolerance);
    TCHECK_EQ(ikc_barrier(&g_env), 0);
    return 0;
}

/* --- untimed: a futex notice hands no time over --- */
enum { kAhead = 1000000 }; /* the waker's lead over the sleeper, in instructions (x 2) */
struct notice {
    uint32_t word;
    uint32_t flags;
    int server;           /* the sleeper calls nvx_clock_server() first */
    uint64_t slept, woke; /* the sleeper's clock around its wait */
    uint64_t rang;        /* the waker's clock when it woke it */
    uint64_t served_back, served_ahead; /* after nvx_clock_serve(slept), then (rang) */
    long woken;
};

static void *sleeper(void *arg)
{
    struct notice *n = arg;
    if (n->server) nvx_clock_server();
    n->slept = nvx_clock_cycles();
    while (__atomic_load_n(&n->word, __ATOMIC_ACQUIRE) == 0) nvx_sys_futex_wait(&n->word, 0);
    n->woke = nvx_clock_cycles();
    nvx_clock_serve(n->slept); /* a request stamped before its wait */
    n->served_back = nvx_clock_cycles();
    nvx_clock_serve(n->rang); /* one stamped when the waker rang */
    n->served_ahead = nvx_clock_cycles();
    return 0;
}

static void *waker(void *arg)
{
    struct notice *n = arg;
    spin(kAhead);
    /* Let the sleeper get to its wait first: a board-clock pause, which orders the host
     * whether QEMU runs the harts in parallel or in deterministic turns (a spin alone may
     * fit in one turn of the waker's hart, before the sleeper's hart ran at all). */
    TCHECK_EQ(nvx_thread_sleep_until(nvx_rdtime() + NVX_TIMER_HZ / 1000), 0);
    n->rang = nvx_clock_cycles();
    __atomic_store_n(&n->word, 1, __ATOMIC_RELEASE);
    n->woken = n->flags ? nvx_sys_futex_wake_untimed(&n->word, 1) : nvx_sys_futex_wake(&n->word, 1);
    return 0;
}

/* One round; 1 if the waker found the sleeper asleep (else the wake proved nothing). */
static int notice_round(uint32_t flags, int server, struct notice *n)
{
    memset(n, 0, sizeof *n);
    n->flags = flags;
    n->server = server;
    run_pair(sleeper, waker, n);
    return n->woken == 1;
}

static void check_untimed(void)
{
    struct notice n;
    int timed_seen = 0, untimed_seen = 0, server_seen = 0;
    for (int round = 0; round < 8 && !(timed_seen && untimed_seen && server_seen); round++) {
        if (!timed_seen && notice_round(0, 0, &n)) {
            timed_seen = 1;
            CHECK(n.woke >= n.rang); /* a hand-off: the sleeper goes on from the waker's time */
            CHECK(n.served_back >= n.woke); /* an earlier stamp does not take it back */
        }
        if (!untimed_seen && notice_round(NVX_FUTEX_UNTIMED, 0, &n)) {
            untimed_seen = 1;
            CHECK(n.rang - n.slept >= kAhead);         /* the waker was far ahead ...        */
            CHECK(n.woke - n.slept < kAhead / 2);      /* ... and the sleeper kept its time  */
        }
        if (!server_seen && notice_round(0, 1, &n)) { /* a timed wake of a server */
            server_seen = 1;
            CHECK(n.rang - n.slept >= kAhead);
            CHECK(n.woke - n.slept < kAhead / 2);      /* it kept its own time               */
            CHECK(n.served_back < n.woke && n.served_back - n.slept < 1000); /* set back */
            CHECK(n.served_ahead >= n.rang && n.served_ahead - n.rang < 1000); /* and ahead */
        }
    }
    CHECK(timed_seen && untimed_seen && server_seen); /* the sleeper slept first in some round */
    uint32_t word = 0;
    CHECK_EQ(nvx_syscall3(NVX_SYS_FUTEX_WAKE, (long)&word, 1, 2), -EINVAL);
    CHECK_EQ(nvx_syscall3(NVX_SYS_FUTEX_WAKE, (long)&word, 1, NVX_FUTEX_UNTIMED), 0);
}

/* --- mutex: a wait for a lock is a wait in virtual time only inside the hold --- */
enum { kHold = 1000000 }; /* the holder's time under the lock, in instructions (x 2) */
struct hold {
    nvx_mutex_t lock;
    uint32_t holding;             /* futex word: the holder has the lock (in host time) */
    uint64_t lead, ask_after;     /* work (x 2) before locking, before asking */
    uint64_t held_from, released; /* the holder's clock after locking, before unlocking */
    uint64_t asked, got;          /* the asker's clock before and after nvx_mutex_lock */
};

static void *holder(void *arg)
{
    struct hold *h = arg;
    spin(h->lead);
    CHECK_EQ(nvx_mutex_lock(&h->lock), 0);
    h->held_from = nvx_clock_cycles();
    __atomic_store_n(&h->holding, 1, __ATOMIC_RELEASE);
    nvx_sys_futex_wake_untimed(&h->holding, 1); /* a notice: the asker keeps its time */
    spin(kHold);
    h->released = nvx_clock_cycles();
    CHECK_EQ(nvx_mutex_unlock(&h->lock), 0);
    return 0;
}

static void *asker(void *arg)
{
    struct hold *h = arg;
    while (__atomic_load_n(&h->holding, __ATOMIC_ACQUIRE) == 0) nvx_sys_futex_wait(&h->holding, 0);
    spin(h->ask_after);
    h->asked = nvx_clock_cycles();
    CHECK_EQ(nvx_mutex_lock(&h->lock), 0);
    h->got = nvx_clock_cycles();
    CHECK_EQ(nvx_mutex_unlock(&h->lock), 0);
    return 0;
}

static void hold_round(struct hold *h, uint64_t lead, uint64_t ask_after)
{
    memset(h, 0, sizeof *h);
    CHECK_EQ(nvx_mutex_init(&h->lock), 0);
    h->lead = lead;
    h->ask_after = ask_after;
    run_pair(holder, asker, h);
}

static void check_mutex(void)
{
    struct hold h;
    hold_round(&h, 0, kHold / 2); /* asks halfway through the hold */
    CHECK(h.held_from < h.asked && h.asked < h.released);
    CHECK(h.got >= h.released && h.got - h.released < 1000); /* waited for its end */
    hold_round(&h, 2 * kHold, kHold / 2); /* asks before the holder locked */
    CHECK(h.asked < h.held_from);
    CHECK(h.got < h.held_from); /* did not wait for a hold that began after it asked */
}

static void run_pinned(void *(*fn)(void *))
{
    CHECK_EQ(ikc_env_init(&g_env), 0);
    nvx_thread_t t;
    CHECK_EQ(spawn_on(&t, 1, fn, 0), 0);
    CHECK_EQ(nvx_thread_join(t, 0), 0);
    CHECK_EQ(ikc_env_fini(&g_env), 0);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "server";
    CHECK_EQ(nvx_clock_is_virtual(), 1);
    if (strcmp(mode, "server") == 0) check_server();
    else if (strcmp(mode, "pingpong") == 0) run_pinned(pingpong_thread);
    else if (strcmp(mode, "untimed") == 0) check_untimed();
    else if (strcmp(mode, "mutex") == 0) check_mutex();
    else if (strcmp(mode, "chain") == 0) {
        struct nvx_info info;
        CHECK(nvx_sys_info(&info) == 0 && info.compute_count >= 2); /* a chain needs two clusters */
        run_pinned(chain_thread);
    }
    else if (strcmp(mode, "names") == 0) run_pinned(names_thread);
    else if (strcmp(mode, "dma") == 0) run_pinned(dma_thread);
    else CHECK(!"unknown mode (server, pingpong, untimed, mutex, chain, names or dma)");
    return check_finish("clock_handoff");
}
