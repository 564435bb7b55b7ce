/* IKC syncs across every compute cluster: all-to-one then one-to-all as a barrier for
 * many rounds with a fixed leader, then with a new leader (new create/open, unlink/close)
 * every round; each round is checked by a counter through mailboxes. A sync does not
 * fire before its last signal; repeated signals from one source count once; several
 * threads of a cluster wait on one sync (each signal wakes one) or on two syncs at once;
 * an asynchronous wait (nvx_sync_await) completes its record and bumps its notify word when
 * the sync fires, and a cancelled one ends with -ECANCELED. */
#include "check.h"
#include "ikc_test.h"

enum {
    kSyncA = 0, kSyncB = 1,          /* sync ports under test (the barrier uses 2 and 3) */
    kUpPort = 20, kDownPort = 21,    /* mailboxes: towards a leader, from a leader */
    kFixedRounds = 30,
};

enum kind { ARRIVE = 1, RELEASE, SIGNALED, GO, READY, ACK };
struct note {
    uint32_t kind, round, rank, count;
};

static struct ikc_env g_env;
static long g_up_in, g_down_in;                 /* this cluster's inboxes */
static long g_up_out[kIkcMaxCompute], g_down_out[kIkcMaxCompute];

static void send_note(long id, enum kind kind, unsigned round, unsigned count)
{
    struct note m = {kind, round, g_env.rank, count};
    TCHECK_EQ(nvx_mailbox_write(id, &m, sizeof m), (long)sizeof m);
}

static struct note get_note(long id)
{
    struct note m = {0, 0, 0, 0};
    TCHECK_EQ(nvx_mailbox_read(id, &m, sizeof m), (long)sizeof m);
    return m;
}

/* Node list with `leader` first, then the others in rank order. */
static void leader_first(unsigned leader, uint32_t *list)
{
    unsigned k = 0;
    list[k++] = g_env.nodes[leader];
    for (unsigned r = 0; r < g_env.n; r++)
        if (r != leader) list[k++] = g_env.nodes[r];
}

/* The syncs of a barrier led by `leader` on ports kSyncA (gather) and kSyncB (release). */
struct pair {
    long gather, release;
};

static struct pair open_pair(unsigned leader)
{
    uint32_t list[kIkcMaxCompute];
    struct pair p;
    leader_first(leader, list);
    if (g_env.rank == leader) {
        p.gather = nvx_sync_create(kSyncA, list, g_env.n, NVX_SYNC_ALL_TO_ONE);
        p.release = nvx_sync_open(kSyncB, list, g_env.n, NVX_SYNC_ONE_TO_ALL);
    } else {
        p.gather = nvx_sync_open(kSyncA, list, g_env.n, NVX_SYNC_ALL_TO_ONE);
        p.release = nvx_sync_create(kSyncB, list, g_env.n, NVX_SYNC_ONE_TO_ALL);
    }
    TCHECK(p.gather >= 0);
    TCHECK(p.release >= 0);
    return p;
}

static void close_pair(unsigned leader, struct pair p)
{
    if (g_env.rank == leader) {
        TCHECK_EQ(nvx_sync_unlink(p.gather), 0);
        TCHECK_EQ(nvx_sync_close(p.release), 0);
    } else {
        TCHECK_EQ(nvx_sync_close(p.gather), 0);
        TCHECK_EQ(nvx_sync_unlink(p.release), 0);
    }
}

/* One barrier round led by `leader`, checked with a counter: every other cluster reports
 * its arrival before signalling; the leader counts round-r arrivals after its wait and
 * hands the count to everyone before releasing them. Returns the errors seen. */
static long counted_round(unsigned leader, struct pair p, unsigned round)
{
    long errors = 0;
    const unsigned n = g_env.n;
    if (g_env.rank == leader) {
        if (nvx_sync_wait(p.gather) != 0) errors++;
        uint64_t seen = 0;
        unsigned count = 0;
        for (unsigned i = 1; i < n; i++) {
            struct note m = get_note(g_up_in);
            if (m.kind != ARRIVE || m.round != round || m.rank >= n || m.rank == leader || (seen >> m.rank & 1)) errors++;
            else count++;
            seen |= 1ull << m.rank;
        }
        for (unsigned r = 0; r < n; r++)
            if (r != leader) send_note(g_down_out[r], RELEASE, round, count);
        if (nvx_sync_signal(p.release) != 0) errors++;
    } else {
        send_note(g_up_out[leader], ARRIVE, round, 0);
        if (nvx_sync_signal(p.gather) != 0) errors++;
        if (nvx_sync_wait(p.release) != 0) errors++;
        struct note m = get_note(g_down_in);
        if (m.kind != RELEASE || m.round != round || m.rank != leader || m.count != n - 1) errors++;
    }
    return errors;
}

/* ---- a sync fires only on its last signal; repeated signals count once ---- */

static long g_waiter_gather;
static uint32_t g_woke, g_go;
static long g_waiter_rc;

static void *gather_waiter(void *arg)
{
    (void)arg;
    g_waiter_rc = nvx_sync_wait(g_waiter_gather);
    /* the go flag was set before the last signal could be sent */
    if (__atomic_load_n(&g_go, __ATOMIC_ACQUIRE) == 0) g_waiter_rc = -1000;
    __atomic_store_n(&g_woke, 1, __ATOMIC_RELEASE);
    return 0;
}

/* Gives a sync that fires too early plenty of time to be seen. */
static void settle(void)
{
    uint64_t until = ikc_time_us() + 20000;
    while (ikc_time_us() < until) nvx_thread_yield();
}

static void early_fire_tests(struct pair p)
{
    const unsigned n = g_env.n, rank = g_env.rank, last = n - 1;
    nvx_thread_t t;
    /* round 1: all but the last signal twice; the last signals only after the leader saw
     * that its waiter still sleeps */
    if (rank == 0) {
        g_waiter_gather = p.gather;
        g_woke = g_go = 0;
        CHECK_EQ(ikc_spawn(&t, gather_waiter, 0), 0);
        for (unsigned i = 1; i < last; i++) CHECK_EQ(get_note(g_up_in).kind, SIGNALED);
        settle();
        CHECK_EQ(__atomic_load_n(&g_woke, __ATOMIC_ACQUIRE), 0);
        __atomic_store_n(&g_go, 1, __ATOMIC_RELEASE);
        send_note(g_down_out[last], GO, 1, 0);
        CHECK_EQ(nvx_thread_join(t, 0), 0);
        CHECK_EQ(g_waiter_rc, 0);
        CHECK_EQ(nvx_sync_signal(p.release), 0);
    } else {
        if (rank != last) {
            CHECK_EQ(nvx_sync_signal(p.gather), 0);
            CHECK_EQ(nvx_sync_signal(p.gather), 0);
            send_note(g_up_out[0], SIGNALED, 1, 0);
        } else {
            CHECK_EQ(get_note(g_down_in).kind, GO);
            CHECK_EQ(nvx_sync_signal(p.gather), 0); /* once: a second one could come after the fire */
        }
        CHECK_EQ(nvx_sync_wait(p.release), 0);
    }
    /* round 2: nobody signals until go; a second signal kept from round 1 would fire */
    if (rank == 0) {
        g_woke = g_go = 0;
        CHECK_EQ(ikc_spawn(&t, gather_waiter, 0), 0);
        for (unsigned i = 1; i < n; i++) CHECK_EQ(get_note(g_up_in).kind, READY);
        settle();
        CHECK_EQ(__atomic_load_n(&g_woke, __ATOMIC_ACQUIRE), 0);
        __atomic_store_n(&g_go, 1, __ATOMIC_RELEASE);
        for (unsigned r = 1; r < n; r++) send_note(g_down_out[r], GO, 2, 0);
        CHECK_EQ(nvx_thread_join(t, 0), 0);
        CHECK_EQ(g_waiter_rc, 0);
        CHECK_EQ(nvx_sync_signal(p.release), 0);
    } else {
        send_note(g_up_out[0], READY, 2, 0);
        CHECK_EQ(get_note(g_down_in).kind, GO);
        CHECK_EQ(nvx_sync_signal(p.gather), 0);
        CHECK_EQ(nvx_sync_wait(p.release), 0);
    }
}

/* ---- asynchronous waits ---- */

static void await_tests(struct pair p)
{
    const unsigned n = g_env.n;
    if (g_env.rank == 0) {
        uint32_t word = 0;
        struct nvx_ikc_op op = {0}, other = {0};
        op.notify = &word;
        CHECK_EQ(nvx_sync_await(p.gather, &op), 0);
        CHECK_EQ(nvx_sync_await(p.gather, &op), -EBUSY);      /* that record is under way */
        CHECK_EQ(nvx_sync_await(p.release, &other), -EBADF);  /* an opened sync: nothing to wait for */
        CHECK_EQ(nvx_sync_await(9999, &other), -EBADF);
        settle();
        CHECK_EQ(nvx_ikc_test(&op), 0);  /* nobody signalled yet */
        CHECK_EQ(__atomic_load_n(&word, __ATOMIC_ACQUIRE), 0u);
        for (unsigned r = 1; r < n; r++) send_note(g_down_out[r], GO, 0, 0);
        CHECK_EQ(nvx_ikc_wait(&op), 0);
        CHECK_EQ(op.done, 1u);
        CHECK_EQ(__atomic_load_n(&word, __ATOMIC_ACQUIRE), 1u);
        CHECK_EQ(nvx_sync_signal(p.release), 0);
        /* cancelled before anyone signals: the record says so and its word is bumped */
        op = (struct nvx_ikc_op){0};
        op.notify = &word;
        CHECK_EQ(nvx_sync_await(p.gather, &op), 0);
        CHECK_EQ(nvx_ikc_cancel(&op), 0);
        CHECK_EQ(op.done, 1u);
        CHECK_EQ(op.result, -ECANCELED);
        CHECK_EQ(__atomic_load_n(&word, __ATOMIC_ACQUIRE), 2u);
    } else {
        CHECK_EQ(get_note(g_down_in).kind, GO);
        CHECK_EQ(nvx_sync_signal(p.gather), 0);
        CHECK_EQ(nvx_sync_wait(p.release), 0);
    }
}

/* ---- several threads of one cluster ---- */

struct waiter {
    long id;
    long rc;
    int ack; /* send an ACK to rank 0 when woken */
};

static void *wait_one(void *arg)
{
    struct waiter *w = arg;
    w->rc = nvx_sync_wait(w->id);
    if (w->ack) send_note(g_up_out[0], ACK, 0, 0);
    return 0;
}

struct signaller {
    long id;
    long rc;
};

static void *signal_one(void *arg)
{
    struct signaller *s = arg;
    s->rc = nvx_sync_signal(s->id);
    return 0;
}

static void thread_tests(void)
{
    const unsigned n = g_env.n, rank = g_env.rank;
    uint32_t list[kIkcMaxCompute];
    leader_first(0, list);
    static struct waiter w[2];
    static struct signaller s[2];
    nvx_thread_t t[2];

    /* two all-to-one syncs on rank 0, each waited for by its own thread; every other
     * cluster signals both from two threads */
    long a, b;
    if (rank == 0) {
        a = nvx_sync_create(kSyncA, list, n, NVX_SYNC_ALL_TO_ONE);
        b = nvx_sync_create(kSyncB, list, n, NVX_SYNC_ALL_TO_ONE);
        CHECK(a >= 0 && b >= 0);
        w[0] = (struct waiter){a, -1, 0};
        w[1] = (struct waiter){b, -1, 0};
        for (int i = 0; i < 2; i++) CHECK_EQ(ikc_spawn(&t[i], wait_one, &w[i]), 0);
        for (int i = 0; i < 2; i++) CHECK_EQ(nvx_thread_join(t[i], 0), 0);
        CHECK_EQ(w[0].rc, 0);
        CHECK_EQ(w[1].rc, 0);
        CHECK_EQ(nvx_sync_unlink(a), 0);
        CHECK_EQ(nvx_sync_unlink(b), 0);
    } else {
        a = nvx_sync_open(kSyncA, list, n, NVX_SYNC_ALL_TO_ONE);
        b = nvx_sync_open(kSyncB, list, n, NVX_SYNC_ALL_TO_ONE);
        CHECK(a >= 0 && b >= 0);
        s[0] = (struct signaller){a, -1};
        s[1] = (struct signaller){b, -1};
        for (int i = 0; i < 2; i++) CHECK_EQ(ikc_spawn(&t[i], signal_one, &s[i]), 0);
        for (int i = 0; i < 2; i++) CHECK_EQ(nvx_thread_join(t[i], 0), 0);
        CHECK_EQ(s[0].rc, 0);
        CHECK_EQ(s[1].rc, 0);
        CHECK_EQ(nvx_sync_close(a), 0);
        CHECK_EQ(nvx_sync_close(b), 0);
    }
    CHECK_EQ(ikc_barrier(&g_env), 0);

    /* one one-to-all sync, two waiting threads on every other cluster: each signal of
     * rank 0 wakes one of them; rank 0 signals again once every cluster acknowledged */
    if (rank == 0) {
        long o = nvx_sync_open(kSyncA, list, n, NVX_SYNC_ONE_TO_ALL);
        CHECK(o >= 0);
        for (int round = 0; round < 2; round++) {
            CHECK_EQ(nvx_sync_signal(o), 0);
            for (unsigned i = 1; i < n; i++) CHECK_EQ(get_note(g_up_in).kind, ACK);
        }
        CHECK_EQ(nvx_sync_close(o), 0);
    } else {
        long c = nvx_sync_create(kSyncA, list, n, NVX_SYNC_ONE_TO_ALL);
        CHECK(c >= 0);
        for (int i = 0; i < 2; i++) {
            w[i] = (struct waiter){c, -1, 1};
            CHECK_EQ(ikc_spawn(&t[i], wait_one, &w[i]), 0);
        }
        for (int i = 0; i < 2; i++) CHECK_EQ(nvx_thread_join(t[i], 0), 0);
        CHECK_EQ(w[0].rc, 0);
        CHECK_EQ(w[1].rc, 0);
        CHECK_EQ(nvx_sync_unlink(c), 0);
    }
    CHECK_EQ(ikc_barrier(&g_env), 0);
}

int main(void)
{
    CHECK_EQ(ikc_env_init(&g_env), 0);
    const unsigned n = g_env.n;
    CHECK(n >= 2);
    g_up_in = nvx_mailbox_create(g_env.me, kUpPort);
    g_down_in = nvx_mailbox_create(g_env.me, kDownPort);
    CHECK(g_up_in >= 0 && g_down_in >= 0);
    for (unsigned r = 0; r < n; r++) {
        g_up_out[r] = nvx_mailbox_open(g_env.nodes[r], kUpPort);
        g_down_out[r] = nvx_mailbox_open(g_env.nodes[r], kDownPort);
        CHECK(g_up_out[r] >= 0 && g_down_out[r] >= 0);
    }
    CHECK_EQ(ikc_barrier(&g_env), 0); /* every inbox exists */

    /* a fixed leader for many rounds */
    uint64_t start = ikc_time_us();
    struct pair p = open_pair(0);
    long errors = 0;
    for (unsigned r = 1; r <= kFixedRounds; r++) errors += counted_round(0, p, r);
    CHECK_EQ(errors, 0);
    uint64_t fixed_us = ikc_time_us() - start;
    early_fire_tests(p);
    await_tests(p);
    close_pair(0, p);

    /* a new leader every round, with fresh syncs each time */
    errors = 0;
    start = ikc_time_us();
    for (unsigned r = 0; r < 2 * n; r++) {
        unsigned leader = (r * 5 + 1) % n;
        p = open_pair(leader);
        errors += counted_round(leader, p, 100 + r);
        close_pair(leader, p);
    }
    CHECK_EQ(errors, 0);
    uint64_t rotating_us = ikc_time_us() - start;
    CHECK_EQ(ikc_barrier(&g_env), 0);

    thread_tests();
    printf("cluster %u: ikc_sync: %u fixed rounds in %llu ms, %u rotating rounds in %llu ms\n", g_env.info.cluster,
           kFixedRounds, (unsigned long long)fixed_us / 1000, 2 * n, (unsigned long long)rotating_us / 1000);

    for (unsigned r = 0; r < n; r++) {
        CHECK_EQ(nvx_mailbox_close(g_up_out[r]), 0);
        CHECK_EQ(nvx_mailbox_close(g_down_out[r]), 0);
    }
    CHECK_EQ(nvx_mailbox_unlink(g_up_in), 0);
    CHECK_EQ(nvx_mailbox_unlink(g_down_in), 0);
    CHECK_EQ(ikc_env_fini(&g_env), 0);
    return check_finish("ikc_sync");
}
