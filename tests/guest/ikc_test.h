/* Shared helpers of the IKC guest tests (ikc_*.c): where this cluster sits among the
 * compute clusters, a thread-safe check, a deterministic byte pattern, and a barrier
 * over every compute cluster built from two syncs (all-to-one, then one-to-all).
 * Include after check.h. */
#ifndef NVX_TEST_IKC_TEST_H
#define NVX_TEST_IKC_TEST_H
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <nvx/ikc.h>
#include <nvx/thread.h>

#define KERNEL_ADDRESS ((void *)0xffffffffc0000000ull)
#define UNMAPPED ((void *)0x40000000ull)

enum { kIkcMaxCompute = 32 };

/* Sync registers used by the barrier; the tests use the others. */
enum { kBarrierGatherPort = 2, kBarrierReleasePort = 3 };

struct ikc_env {
    struct nvx_info info;
    unsigned first;                  /* first compute cluster's index               */
    unsigned n;                      /* compute clusters                            */
    unsigned rank;                   /* this cluster's index among compute clusters */
    uint32_t me;                     /* this cluster's node                         */
    uint32_t nodes[kIkcMaxCompute];  /* node of compute cluster of rank r           */
    long gather, release;            /* barrier syncs                               */
    unsigned rounds;                 /* barrier rounds passed                       */
};

/* Thread-safe checks (check.h's counters are plain globals of this program). */
#define TCHECK_EQ(actual, expected)                                                    \
    do {                                                                               \
        long long a_ = (long long)(actual), e_ = (long long)(expected);                \
        __atomic_fetch_add(&check_count, 1, __ATOMIC_RELAXED);                         \
        if (a_ != e_) {                                                                \
            __atomic_fetch_add(&check_failures, 1, __ATOMIC_RELAXED);                  \
            printf("FAIL cluster %u %s:%d: %s == %lld, expected %lld\n", check_cluster(), \
                   __FILE__, __LINE__, #actual, a_, e_);                               \
        }                                                                              \
    } while (0)
#define TCHECK(cond) TCHECK_EQ(!!(cond), 1)

static inline uint32_t ikc_hash(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

/* Byte i of the pattern named by `seed`. */
static inline uint8_t ikc_pattern(uint32_t seed, size_t i)
{
    return (uint8_t)(ikc_hash(seed + (uint32_t)(i >> 2)) >> (8 * (i & 3)));
}

static inline void ikc_fill(uint8_t *p, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; i++) p[i] = ikc_pattern(seed, i);
}

/* Index of the first byte that differs from the pattern, or -1. */
static inline long ikc_verify(const uint8_t *p, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != ikc_pattern(seed, i)) return (long)i;
    return -1;
}

static inline uint32_t ikc_checksum(const uint8_t *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 16777619u;
    return h;
}

static inline uint64_t ikc_time_us(void)
{
    uint64_t t;
    __asm__ volatile("rdtime %0" : "=r"(t));
    return t / 10; /* mtime runs at 10 MHz */
}

/* Until the endpoint's `waits` counter exceeds `before` (-ETIMEDOUT after 10 s): lets a
 * test know that another thread is asleep in a call on that endpoint before it acts. */
static inline int ikc_wait_for_sleeper(long id, int portal, uint64_t before)
{
    uint64_t until = ikc_time_us() + 10 * 1000 * 1000;
    while (ikc_time_us() < until) {
        struct nvx_ikc_stats s;
        long rc = portal ? nvx_portal_stats(id, &s) : nvx_mailbox_stats(id, &s);
        if (rc != 0) return (int)rc;
        if (s.waits > before) return 0;
        nvx_thread_yield();
    }
    return -ETIMEDOUT;
}

static inline uint64_t ikc_waits(long id, int portal)
{
    struct nvx_ikc_stats s = {0};
    if (portal) nvx_portal_stats(id, &s);
    else nvx_mailbox_stats(id, &s);
    return s.waits;
}

/* A tagged mailbox message: who sent it, to which port, its sequence number and the
 * checksum of its payload; the payload and the length follow from the tag. */
struct ikc_tag {
    uint16_t rank;    /* sending cluster's compute rank */
    uint16_t sender;  /* sending thread's index         */
    uint16_t port;    /* target port                    */
    uint16_t length;  /* whole message, tag included    */
    uint32_t seq;     /* per (sender, target port)      */
    uint32_t sum;     /* ikc_checksum of the payload    */
};

static inline uint32_t ikc_tag_seed(unsigned rank, unsigned sender, unsigned port, uint32_t seq)
{
    return ikc_hash((rank << 20) ^ (sender << 10) ^ port) ^ (seq * 2654435761u);
}

/* Builds message `seq` of (rank, sender) for `port` in buf (128 bytes); returns its length
 * (16..128, or exactly `length` if non-zero). */
static inline size_t ikc_make_msg(uint8_t *buf, unsigned rank, unsigned sender, unsigned port, uint32_t seq,
                                  size_t length)
{
    uint32_t seed = ikc_tag_seed(rank, sender, port, seq);
    size_t len = length ? length : sizeof(struct ikc_tag) + seed % (NVX_MAILBOX_MSG_MAX - sizeof(struct ikc_tag) + 1);
    struct ikc_tag t = {(uint16_t)rank, (uint16_t)sender, (uint16_t)port, (uint16_t)len, seq, 0};
    ikc_fill(buf + sizeof t, len - sizeof t, seed);
    t.sum = ikc_checksum(buf + sizeof t, len - sizeof t);
    memcpy(buf, &t, sizeof t);
    return len;
}

/* Checks a received message of `got` bytes: its tag, checksum and payload. Returns 0 and
 * the tag, or a negative code naming the first problem. */
static inline int ikc_check_msg(const uint8_t *buf, long got, struct ikc_tag *tag)
{
    memset(tag, 0, sizeof *tag);
    if (got < (long)sizeof *tag || got > NVX_MAILBOX_MSG_MAX) return -1;
    memcpy(tag, buf, sizeof *tag);
    if (tag->length != got) return -2;
    if (ikc_checksum(buf + sizeof *tag, (size_t)got - sizeof *tag) != tag->sum) return -3;
    if (ikc_verify(buf + sizeof *tag, (size_t)got - sizeof *tag, ikc_tag_seed(tag->rank, tag->sender, tag->port, tag->seq)) >= 0)
        return -4;
    return 0;
}

/* Fills `e` and creates the barrier's syncs (rank 0 gathers and releases). */
static inline int ikc_env_init(struct ikc_env *e)
{
    memset(e, 0, sizeof *e);
    if (nvx_sys_info(&e->info) != 0) return -1;
    e->n = e->info.compute_count;
    e->first = e->info.cluster_count - e->info.compute_count;
    e->rank = e->info.cluster - e->first;
    e->me = e->info.node;
    if (e->n > kIkcMaxCompute) return -1;
    for (unsigned r = 0; r < e->n; r++) {
        long node = nvx_node_of(e->first + r, 0);
        if (node < 0) return -1;
        e->nodes[r] = (uint32_t)node;
    }
    if (e->nodes[e->rank] != e->me) return -1;
    if (e->rank == 0) {
        e->gather = nvx_sync_create(kBarrierGatherPort, e->nodes, e->n, NVX_SYNC_ALL_TO_ONE);
        e->release = nvx_sync_open(kBarrierReleasePort, e->nodes, e->n, NVX_SYNC_ONE_TO_ALL);
    } else {
        e->gather = nvx_sync_open(kBarrierGatherPort, e->nodes, e->n, NVX_SYNC_ALL_TO_ONE);
        e->release = nvx_sync_create(kBarrierReleasePort, e->nodes, e->n, NVX_SYNC_ONE_TO_ALL);
    }
    return e->gather >= 0 && e->release >= 0 ? 0 : -1;
}

/* Every compute cluster arrives before any leaves. */
static inline int ikc_barrier(struct ikc_env *e)
{
    long rc;
    e->rounds++;
    if (e->n < 2) return 0;
    if (e->rank == 0) {
        rc = nvx_sync_wait(e->gather);
        if (rc == 0) rc = nvx_sync_signal(e->release);
    } else {
        rc = nvx_sync_signal(e->gather);
        if (rc == 0) rc = nvx_sync_wait(e->release);
    }
    return (int)rc;
}

static inline int ikc_env_fini(struct ikc_env *e)
{
    if (e->rank == 0) return nvx_sync_unlink(e->gather) == 0 && nvx_sync_close(e->release) == 0 ? 0 : -1;
    return nvx_sync_close(e->gather) == 0 && nvx_sync_unlink(e->release) == 0 ? 0 : -1;
}

/* A thread with a small stack (programs run many at once on 2 MiB clusters). */
static inline int ikc_spawn(nvx_thread_t *t, void *(*fn)(void *), void *arg)
{
    nvx_thread_attr_t attr = {8192, NVX_THREAD_ANY_HART};
    return nvx_thread_create(t, &attr, fn, arg);
}
#endif
