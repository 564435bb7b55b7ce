/* IKC portals: transfers inside one cluster (through the kernel) and between compute
 * clusters (through the NoC) of 1, 4095, 4096, 4097 and 100 KiB bytes (and 1 MiB where
 * clusters have 4 MiB), from and to page-aligned and unaligned user buffers, with every
 * byte checked and the bytes after the message left alone; either side may come first;
 * several senders take turns at one receiver through allow; a writer larger than the
 * read gets -EMSGSIZE and the read goes on; one read per allow; stats. */
#include <stdlib.h>
#include "check.h"
#include "ikc_test.h"

enum { kLocalPort = 4, kRemotePort = 5, kFanInPort = 6, kSlack = 100, kFanInSize = 8192 + 123 }; /* ports 0..3: system */

static struct ikc_env g_env;
static size_t g_sizes[8];
static unsigned g_size_count;
static size_t g_max;
static uint8_t *g_src, *g_dst; /* page-aligned, g_max + 2 pages each */

static struct nvx_ikc_stats stats_of(long id)
{
    struct nvx_ikc_stats s;
    memset(&s, 0xff, sizeof s);
    TCHECK_EQ(nvx_portal_stats(id, &s), 0);
    return s;
}

static uint8_t *page_aligned(size_t size)
{
    uint8_t *p = malloc(size + 4096);
    return p == 0 ? 0 : (uint8_t *)(((uintptr_t)p + 4095) & ~(uintptr_t)4095);
}

/* Offsets into a page for a transfer: aligned, mid-page, one byte before a page end. */
static size_t src_offset(unsigned variant) { return variant == 0 ? 0 : variant == 1 ? 2049 : 4095; }
static size_t dst_offset(unsigned variant) { return variant == 0 ? 0 : variant == 1 ? 123 : 1; }

static uint32_t seed_of(unsigned from, size_t size, unsigned round)
{
    return ikc_hash((uint32_t)(from * 1000003u) ^ (uint32_t)size ^ (round << 24));
}

/* Prepares the receive area: a known filler where the message and the slack go. */
static void clear_dst(uint8_t *dst, size_t size) { memset(dst, 0xa5, size + kSlack); }

/* The message arrived intact and the slack after it is untouched. */
static long check_received(const uint8_t *dst, size_t size, uint32_t seed)
{
    long at = ikc_verify(dst, size, seed);
    if (at >= 0) return at;
    for (size_t i = size; i < size + kSlack; i++)
        if (dst[i] != 0xa5) return (long)i;
    return -1;
}

/* ---- one cluster ---- */

struct reader_job {
    long id;
    uint32_t allow;
    uint8_t *buf;
    size_t size;
    long allow_rc, result;
};

static void *allow_and_read(void *arg)
{
    struct reader_job *j = arg;
    j->allow_rc = nvx_portal_allow(j->id, j->allow);
    j->result = nvx_portal_read(j->id, j->buf, j->size);
    return 0;
}

struct writer_job {
    long id;
    const uint8_t *buf;
    size_t size;
    long result;
};

static void *write_one(void *arg)
{
    struct writer_job *j = arg;
    j->result = nvx_portal_write(j->id, j->buf, j->size);
    return 0;
}

static void local_tests(void)
{
    const uint32_t me = g_env.me;
    long in = nvx_portal_create(me, kLocalPort);
    long out = nvx_portal_open(me, kLocalPort);
    CHECK(in >= 0);
    CHECK(out >= 0);
    uint64_t transfers = 0, bytes = 0, reader_first = 0;
    static struct reader_job rj;
    static struct writer_job wj;
    nvx_thread_t t;

    for (unsigned si = 0; si < g_size_count; si++) {
        for (unsigned v = 0; v < 3; v++) {
            size_t size = g_sizes[si];
            uint32_t seed = seed_of(g_env.rank, size, v);
            uint8_t *src = g_src + src_offset(v), *dst = g_dst + dst_offset(v);
            size_t room = size + (v == 1 ? kSlack : 0); /* the read may offer more than the message */
            ikc_fill(src, size, seed);
            clear_dst(dst, size);
            if ((si + v) % 2 == 0) {
                /* the reader sleeps first */
                rj = (struct reader_job){in, me, dst, room, -1, -1};
                uint64_t waits = ikc_waits(in, 1);
                CHECK_EQ(ikc_spawn(&t, allow_and_read, &rj), 0);
                CHECK_EQ(ikc_wait_for_sleeper(in, 1, waits), 0);
                CHECK_EQ(nvx_portal_write(out, src, size), (long)size);
                CHECK_EQ(nvx_thread_join(t, 0), 0);
                reader_first++;
            } else {
                /* the writer sleeps first */
                wj = (struct writer_job){out, src, size, -1};
                uint64_t waits = ikc_waits(out, 1);
                CHECK_EQ(ikc_spawn(&t, write_one, &wj), 0);
                CHECK_EQ(ikc_wait_for_sleeper(out, 1, waits), 0);
                rj = (struct reader_job){in, me, dst, room, -1, -1};
                allow_and_read(&rj);
                CHECK_EQ(nvx_thread_join(t, 0), 0);
                CHECK_EQ(wj.result, (long)size);
            }
            CHECK_EQ(rj.allow_rc, 0);
            CHECK_EQ(rj.result, (long)size);
            CHECK_EQ(check_received(dst, size, seed), -1);
            transfers++;
            bytes += size;
        }
    }
    struct nvx_ikc_stats s = stats_of(in);
    CHECK_EQ(s.messages, transfers);
    CHECK_EQ(s.bytes, bytes);
    CHECK(s.waits >= reader_first);
    s = stats_of(out);
    CHECK_EQ(s.messages, transfers);
    CHECK_EQ(s.bytes, bytes);
    CHECK(s.waits >= transfers - reader_first);
    CHECK_EQ(s.hw_transfers, 0); /* same cluster: no NoC */

    /* one read per allow */
    CHECK_EQ(nvx_portal_read(in, g_dst, 16), -EPERM);
    /* a writer larger than the read gets -EMSGSIZE; the read takes the next that fits */
    ikc_fill(g_src, 5000, 42);
    clear_dst(g_dst, 3000);
    rj = (struct reader_job){in, me, g_dst, 3000, -1, -1};
    uint64_t waits = ikc_waits(in, 1);
    CHECK_EQ(ikc_spawn(&t, allow_and_read, &rj), 0);
    CHECK_EQ(ikc_wait_for_sleeper(in, 1, waits), 0);
    CHECK_EQ(nvx_portal_write(out, g_src, 5000), -EMSGSIZE);
    CHECK_EQ(nvx_portal_write(out, g_src, 3001), -EMSGSIZE);
    CHECK_EQ(nvx_portal_write(out, g_src, 2999), 2999);
    CHECK_EQ(nvx_thread_join(t, 0), 0);
    CHECK_EQ(rj.result, 2999);
    CHECK_EQ(ikc_verify(g_dst, 2999, 42), -1);
    CHECK_EQ(g_dst[2999], 0xa5);
    CHECK_EQ(nvx_portal_read(in, g_dst, 16), -EPERM);

    CHECK_EQ(nvx_portal_close(out), 0);
    CHECK_EQ(nvx_portal_unlink(in), 0);
    CHECK_EQ(nvx_portal_close(out), -EBADF);
    CHECK_EQ(nvx_portal_unlink(in), -EBADF);
}

/* ---- between clusters ---- */

/* Round k (1..n-1) of size i: rank r sends to r + k and receives from r - k. */
struct remote_reader {
    long id;
    uint64_t transfers, bytes;
    long errors;
};

static void *remote_read(void *arg)
{
    struct remote_reader *rr = arg;
    const unsigned n = g_env.n, rank = g_env.rank;
    for (unsigned si = 0; si < g_size_count; si++) {
        for (unsigned k = 1; k < n; k++) {
            unsigned from = (rank + n - k) % n;
            size_t size = g_sizes[si];
            unsigned v = (si + k) % 3;
            uint8_t *dst = g_dst + dst_offset(v);
            size_t room = size + (v == 2 ? kSlack : 0);
            clear_dst(dst, size);
            long a = nvx_portal_allow(rr->id, g_env.nodes[from]);
            long got = nvx_portal_read(rr->id, dst, room);
            long at = check_received(dst, size, seed_of(from, size, k));
            if (a != 0 || got != (long)size || at >= 0) {
                if (rr->errors++ < 4)
                    printf("FAIL cluster %u: from rank %u size %zu: allow %ld, read %ld, first bad byte %ld\n",
                           g_env.info.cluster, from, size, a, got, at);
            } else {
                rr->transfers++;
                rr->bytes += size;
            }
        }
    }
    return 0;
}

static void remote_tests(void)
{
    const unsigned n = g_env.n, rank = g_env.rank;
    long in = nvx_portal_create(g_env.me, kRemotePort);
    CHECK(in >= 0);
    long out[kIkcMaxCompute];
    for (unsigned r = 0; r < n; r++) {
        out[r] = r == rank ? -1 : nvx_portal_open(g_env.nodes[r], kRemotePort);
        if (r != rank) CHECK(out[r] >= 0);
    }
    static struct remote_reader rr;
    rr = (struct remote_reader){in, 0, 0, 0};
    nvx_thread_t t;
    CHECK_EQ(ikc_spawn(&t, remote_read, &rr), 0);
    CHECK_EQ(ikc_barrier(&g_env), 0);

    uint64_t start = ikc_time_us(), sent = 0, sent_bytes = 0, min_hw = 0;
    long bad_writes = 0;
    for (unsigned si = 0; si < g_size_count; si++) {
        for (unsigned k = 1; k < n; k++) {
            unsigned to = (rank + k) % n;
            size_t size = g_sizes[si];
            uint8_t *src = g_src + src_offset((si + k) % 3);
            ikc_fill(src, size, seed_of(rank, size, k));
            long rc = nvx_portal_write(out[to], src, size);
            if (rc != (long)size) {
                if (bad_writes++ < 4)
                    printf("FAIL cluster %u: write of %zu bytes to rank %u -> %ld\n", g_env.info.cluster, size, to, rc);
            } else {
                sent++;
                sent_bytes += size;
                min_hw += (size + 4095) / 4096; /* a hardware transfer moves at most a page */
            }
        }
    }
    CHECK_EQ(bad_writes, 0);
    CHECK_EQ(nvx_thread_join(t, 0), 0);
    CHECK_EQ(rr.errors, 0);
    CHECK_EQ(rr.transfers, (uint64_t)g_size_count * (n - 1));
    CHECK_EQ(rr.bytes, sent_bytes); /* everyone sends the same sizes */
    printf("cluster %u: ikc_portal: %llu bytes out, %llu in, in %llu ms\n", g_env.info.cluster,
           (unsigned long long)sent_bytes, (unsigned long long)rr.bytes,
           (unsigned long long)(ikc_time_us() - start) / 1000);

    struct nvx_ikc_stats s = stats_of(in);
    CHECK_EQ(s.messages, rr.transfers);
    CHECK_EQ(s.bytes, rr.bytes);
    CHECK(s.hw_transfers >= rr.transfers);
    uint64_t out_messages = 0, out_bytes = 0, out_hw = 0;
    for (unsigned r = 0; r < n; r++) {
        if (r == rank) continue;
        s = stats_of(out[r]);
        out_messages += s.messages;
        out_bytes += s.bytes;
        out_hw += s.hw_transfers;
    }
    CHECK_EQ(out_messages, sent);
    CHECK_EQ(out_bytes, sent_bytes);
    CHECK(out_hw >= min_hw);

    /* a remote writer larger than the read: -EMSGSIZE, and the read goes on */
    unsigned succ = (rank + 1) % n, pred = (rank + n - 1) % n;
    static struct reader_job rj;
    rj = (struct reader_job){in, g_env.nodes[pred], g_dst, 3000, -1, -1};
    clear_dst(g_dst, 3000);
    uint64_t waits = ikc_waits(in, 1);
    CHECK_EQ(ikc_spawn(&t, allow_and_read, &rj), 0);
    CHECK_EQ(ikc_wait_for_sleeper(in, 1, waits), 0);
    CHECK_EQ(ikc_barrier(&g_env), 0); /* every reader is waiting */
    ikc_fill(g_src, 5000, 4242 + rank);
    CHECK_EQ(nvx_portal_write(out[succ], g_src, 5000), -EMSGSIZE);
    CHECK_EQ(nvx_portal_write(out[succ], g_src, 3000), 3000);
    CHECK_EQ(nvx_thread_join(t, 0), 0);
    CHECK_EQ(rj.allow_rc, 0);
    CHECK_EQ(rj.result, 3000);
    CHECK_EQ(ikc_verify(g_dst, 3000, 4242 + pred), -1);
    CHECK_EQ(g_dst[3000], 0xa5);
    CHECK_EQ(nvx_portal_read(in, g_dst, 16), -EPERM);

    CHECK_EQ(ikc_barrier(&g_env), 0);
    for (unsigned r = 0; r < n; r++)
        if (r != rank) CHECK_EQ(nvx_portal_close(out[r]), 0);
    CHECK_EQ(nvx_portal_unlink(in), 0);
}

/* Every cluster writes to collector c at once; c allows them one by one, in descending
 * rank order, and each message must come from the sender it allowed. */
static void fan_in_tests(void)
{
    const unsigned n = g_env.n, rank = g_env.rank;
    long in = nvx_portal_create(g_env.me, kFanInPort);
    CHECK(in >= 0);
    CHECK_EQ(ikc_barrier(&g_env), 0);
    long bad = 0;
    for (unsigned c = 0; c < n; c++) {
        if (c == rank) {
            for (unsigned i = 1; i < n; i++) {
                unsigned from = (c + n - i) % n;
                uint8_t *dst = g_dst + 7;
                clear_dst(dst, kFanInSize);
                long a = nvx_portal_allow(in, g_env.nodes[from]);
                long got = nvx_portal_read(in, dst, kFanInSize + kSlack);
                if (a != 0 || got != kFanInSize || check_received(dst, kFanInSize, seed_of(from, kFanInSize, c)) >= 0)
                    bad++;
            }
        } else {
            long o = nvx_portal_open(g_env.nodes[c], kFanInPort);
            ikc_fill(g_src + 3, kFanInSize, seed_of(rank, kFanInSize, c));
            if (o < 0 || nvx_portal_write(o, g_src + 3, kFanInSize) != kFanInSize || nvx_portal_close(o) != 0) bad++;
        }
    }
    CHECK_EQ(bad, 0);
    struct nvx_ikc_stats s = stats_of(in);
    CHECK_EQ(s.messages, n - 1);
    CHECK_EQ(s.bytes, (uint64_t)(n - 1) * kFanInSize);
    CHECK_EQ(ikc_barrier(&g_env), 0);
    CHECK_EQ(nvx_portal_unlink(in), 0);
}

int main(void)
{
    CHECK_EQ(ikc_env_init(&g_env), 0);
    CHECK(g_env.n >= 2);
    static const size_t sizes[] = {1, 4095, 4096, 4097, 100 * 1024, 1024 * 1024};
    for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        if (sizes[i] > 200 * 1024 && g_env.info.user_memory < 3 * 1024 * 1024) continue; /* 2 MiB clusters */
        g_sizes[g_size_count++] = sizes[i];
        if (sizes[i] > g_max) g_max = sizes[i];
    }
    g_src = page_aligned(g_max + 2 * 4096);
    g_dst = page_aligned(g_max + 2 * 4096);
    CHECK(g_src != 0 && g_dst != 0);
    if (g_src == 0 || g_dst == 0) return check_finish("ikc_portal");

    local_tests();
    CHECK_EQ(ikc_barrier(&g_env), 0);
    remote_tests();
    fan_in_tests();
    CHECK_EQ(ikc_barrier(&g_env), 0);
    CHECK_EQ(ikc_env_fini(&g_env), 0);
    return check_finish("ikc_portal");
}
