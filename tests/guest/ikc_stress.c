/* IKC stress, all to all.
 * Mailboxes: every user hart of every compute cluster runs a sender and a receiver
 * thread; each sender sends to every receiver of every cluster (its own cluster
 * included) in bursts (open, write, close), every message tagged with sender, port,
 * sequence number and payload checksum; receivers check the order per sender, the tag
 * and every byte, and count.
 * Portals: every cluster sends 64 KiB messages round-robin to every other cluster from
 * several writer threads (each owning some targets), each message with a header (sender, round, checksum); one
 * reader per cluster allows the senders in a fixed order (round by round, so nothing
 * waits in a cycle) and checks every byte.
 * Mailboxes alone, then portals alone, then both at once with less volume (a quarter of
 * the mailbox senders, a quarter of the messages per pair and of the portal passes).
 * Every cluster checks that what it received is exactly what the pattern says was sent
 * to it, prints its totals, and rank 0 prints the board's.
 *   ikc_stress [mailbox messages per sender/receiver pair] [portal passes]
 * (defaults scale with the board: on mppa256 131,072 messages and 75 MiB alone, then
 * 16,384 messages and 15 MiB at once). */
#include <stdlib.h>
#include "check.h"
#include "ikc_test.h"

enum {
    kMaxHarts = 16,
    kFirstPort = 4, /* receiver j listens on kFirstPort + j; ports 0..3 are left to system services */
    kTotalsPort = 31,
    kPortalPort = 30,
    kPortalSize = 64 * 1024,
    kPortalWriters = 3,
    kBurst = 2, /* messages per open/close of a target */
};

static struct ikc_env g_env;
static unsigned g_harts;      /* sender/receiver pairs per cluster */
static unsigned g_per_pair;   /* mailbox messages per (sender, receiver) */
static unsigned g_senders;    /* mailbox sender threads per cluster (<= g_harts) */
static unsigned g_passes;     /* portal: each cluster sends g_passes messages to each other cluster */

static uint32_t mb_length(unsigned rank, unsigned sender, unsigned port, uint32_t seq)
{
    uint32_t seed = ikc_tag_seed(rank, sender, port, seq);
    return sizeof(struct ikc_tag) + seed % (NVX_MAILBOX_MSG_MAX - sizeof(struct ikc_tag) + 1);
}

/* ---- mailboxes ---- */

struct mb_receiver {
    unsigned port;
    long id;
    uint32_t *next; /* per sender (rank * g_harts + thread) */
    uint64_t messages, bytes;
    long errors;
};

static void *mb_receive(void *arg)
{
    struct mb_receiver *r = arg;
    uint8_t buf[NVX_MAILBOX_MSG_MAX];
    const uint64_t total = (uint64_t)g_env.n * g_senders * g_per_pair;
    for (uint64_t k = 0; k < total; k++) {
        struct ikc_tag tag;
        long got = nvx_mailbox_read(r->id, buf, sizeof buf);
        int bad = ikc_check_msg(buf, got, &tag);
        if (bad == 0 && (tag.port != r->port || tag.rank >= g_env.n || tag.sender >= g_senders)) bad = -5;
        if (bad == 0 && tag.seq != r->next[tag.rank * g_harts + tag.sender]++) bad = -6;
        if (bad == 0) {
            r->messages++;
            r->bytes += (uint64_t)got;
        } else if (r->errors++ < 3) {
            printf("FAIL cluster %u: port %u message %llu: got %ld, error %d (from %u/%u port %u seq %u)\n",
                   g_env.info.cluster, r->port, (unsigned long long)k, got, bad, tag.rank, tag.sender, tag.port,
                   tag.seq);
        }
    }
    return 0;
}

struct mb_sender {
    unsigned index;
    uint64_t messages, bytes;
    long errors;
};

static void *mb_send(void *arg)
{
    struct mb_sender *s = arg;
    uint8_t buf[NVX_MAILBOX_MSG_MAX];
    const unsigned targets = g_env.n * g_harts;
    const unsigned start = g_env.rank * g_harts + s->index;  /* spread the load */
    for (unsigned first = 0; first < g_per_pair; first += kBurst) {
        for (unsigned k = 0; k < targets; k++) {
            unsigned t = (start + k) % targets, rank = t / g_harts, port = kFirstPort + t % g_harts;
            long id = nvx_mailbox_open(g_env.nodes[rank], port);
            if (id < 0) {
                if (s->errors++ < 3) printf("FAIL cluster %u: open -> %ld\n", g_env.info.cluster, id);
                continue;
            }
            for (unsigned seq = first; seq < first + kBurst && seq < g_per_pair; seq++) {
                size_t len = ikc_make_msg(buf, g_env.rank, s->index, port, seq, 0);
                long rc = nvx_mailbox_write(id, buf, len);
                if (rc == (long)len) {
                    s->messages++;
                    s->bytes += len;
                } else if (s->errors++ < 3) {
                    printf("FAIL cluster %u: write to %u/%u -> %ld\n", g_env.info.cluster, rank, port, rc);
                }
            }
            if (nvx_mailbox_close(id) != 0) s->errors++;
        }
    }
    return 0;
}

struct totals {
    uint64_t mb_sent, mb_sent_bytes, mb_received, mb_received_bytes;
    uint64_t pt_sent, pt_sent_bytes, pt_received, pt_received_bytes;
    uint64_t errors;
};

static struct mb_receiver g_rx[kMaxHarts];
static struct mb_sender g_tx[kMaxHarts];
static nvx_thread_t g_rt[kMaxHarts], g_st[kMaxHarts];

/* Receivers listen on ports kFirstPort .. kFirstPort + g_harts - 1 and wait. */
static void mb_start(void)
{
    for (unsigned j = 0; j < g_harts; j++) {
        g_rx[j] = (struct mb_receiver){kFirstPort + j, nvx_mailbox_create(g_env.me, kFirstPort + j),
                                       calloc(g_env.n * g_harts, sizeof(uint32_t)), 0, 0, 0};
        CHECK(g_rx[j].id >= 0);
        CHECK(g_rx[j].next != 0);
        CHECK_EQ(ikc_spawn(&g_rt[j], mb_receive, &g_rx[j]), 0);
    }
}

/* Once every cluster's receivers exist: the senders start. */
static void mb_go(void)
{
    for (unsigned i = 0; i < g_senders; i++) {
        g_tx[i] = (struct mb_sender){i, 0, 0, 0};
        CHECK_EQ(ikc_spawn(&g_st[i], mb_send, &g_tx[i]), 0);
    }
}

/* Joins everyone and checks the counts against the pattern. */
static void mb_finish(struct totals *all)
{
    const unsigned n = g_env.n, h = g_harts;
    struct totals tot;
    memset(&tot, 0, sizeof tot);
    long errors = 0;
    for (unsigned i = 0; i < g_senders; i++) {
        CHECK_EQ(nvx_thread_join(g_st[i], 0), 0);
        errors += g_tx[i].errors;
        tot.mb_sent += g_tx[i].messages;
        tot.mb_sent_bytes += g_tx[i].bytes;
    }
    for (unsigned j = 0; j < h; j++) {
        CHECK_EQ(nvx_thread_join(g_rt[j], 0), 0);
        errors += g_rx[j].errors;
        tot.mb_received += g_rx[j].messages;
        tot.mb_received_bytes += g_rx[j].bytes;
        unsigned complete = 0;
        for (unsigned s = 0; s < n * h; s++) complete += g_rx[j].next[s] == (s % h < g_senders ? g_per_pair : 0);
        CHECK_EQ(complete, n * h);
        struct nvx_ikc_stats st_in;
        CHECK_EQ(nvx_mailbox_stats(g_rx[j].id, &st_in), 0);
        CHECK_EQ(st_in.messages, g_rx[j].messages);
        CHECK_EQ(st_in.bytes, g_rx[j].bytes);
    }
    CHECK_EQ(errors, 0);

    /* what the pattern says: every sender sends g_per_pair messages to every receiver */
    uint64_t expect_bytes_in = 0, expect_bytes_out = 0;
    for (unsigned c = 0; c < n; c++)
        for (unsigned i = 0; i < g_senders; i++)
            for (unsigned j = 0; j < h; j++)
                for (unsigned q = 0; q < g_per_pair; q++) {
                    expect_bytes_in += mb_length(c, i, kFirstPort + j, q);            /* (c, i) -> (me, j) */
                    expect_bytes_out += mb_length(g_env.rank, i, kFirstPort + j, q);  /* (me, i) -> (c, j) */
                }
    const uint64_t expect = (uint64_t)n * g_senders * h * g_per_pair;
    CHECK_EQ(tot.mb_sent, expect);
    CHECK_EQ(tot.mb_received, expect);
    CHECK_EQ(tot.mb_sent_bytes, expect_bytes_out);
    CHECK_EQ(tot.mb_received_bytes, expect_bytes_in);
    all->mb_sent += tot.mb_sent;
    all->mb_sent_bytes += tot.mb_sent_bytes;
    all->mb_received += tot.mb_received;
    all->mb_received_bytes += tot.mb_received_bytes;
    all->errors += (uint64_t)errors;
}

/* After a barrier: nobody sends to these ports any more. */
static void mb_cleanup(void)
{
    for (unsigned j = 0; j < g_harts; j++) {
        CHECK_EQ(nvx_mailbox_unlink(g_rx[j].id), 0);
        free(g_rx[j].next);
    }
}

/* ---- portals ---- */

struct pt_header {
    uint32_t rank, round, size, sum; /* sum: ikc_checksum of the bytes after the header */
};

/* Global round g = pass * (n - 1) + (k - 1): rank r sends to r + k, receives from r - k. */
static unsigned pt_peer(unsigned g, int to)
{
    unsigned n = g_env.n, k = g % (n - 1) + 1;
    return to ? (g_env.rank + k) % n : (g_env.rank + n - k) % n;
}

static uint32_t pt_seed(unsigned rank, unsigned g) { return ikc_hash(rank * 7919u + g * 104729u + 17u); }

struct pt_writer {
    unsigned index;
    uint8_t *buf;
    long out[kIkcMaxCompute];
    uint64_t messages, bytes;
    long errors;
};

static void *pt_write(void *arg)
{
    struct pt_writer *w = arg;
    const unsigned rounds = g_passes * (g_env.n - 1);
    for (unsigned g = 0; g < rounds; g++) {
        /* all messages to one target go through one writer, so they leave in order */
        if (g % (g_env.n - 1) % kPortalWriters != w->index) continue;
        unsigned to = pt_peer(g, 1);
        uint8_t *msg = w->buf + (g * 1361u) % 4096; /* start anywhere in a page */
        struct pt_header hd = {g_env.rank, g, kPortalSize, 0};
        ikc_fill(msg + sizeof hd, kPortalSize - sizeof hd, pt_seed(g_env.rank, g));
        hd.sum = ikc_checksum(msg + sizeof hd, kPortalSize - sizeof hd);
        memcpy(msg, &hd, sizeof hd);
        long rc = nvx_portal_write(w->out[to], msg, kPortalSize);
        if (rc == kPortalSize) {
            w->messages++;
            w->bytes += kPortalSize;
        } else if (w->errors++ < 3) {
            printf("FAIL cluster %u: portal write round %u to rank %u -> %ld\n", g_env.info.cluster, g, to, rc);
        }
    }
    return 0;
}

struct pt_reader {
    long id;
    uint8_t *buf;
    uint64_t messages, bytes;
    long errors;
};

static void *pt_read(void *arg)
{
    struct pt_reader *r = arg;
    const unsigned rounds = g_passes * (g_env.n - 1);
    for (unsigned g = 0; g < rounds; g++) {
        unsigned from = pt_peer(g, 0);
        uint8_t *msg = r->buf + (g * 2741u) % 4096;
        memset(msg, 0, sizeof(struct pt_header));
        long a = nvx_portal_allow(r->id, g_env.nodes[from]);
        long got = nvx_portal_read(r->id, msg, kPortalSize);
        struct pt_header hd;
        memcpy(&hd, msg, sizeof hd);
        int bad = 0;
        if (a != 0 || got != kPortalSize) bad = -1;
        else if (hd.rank != from || hd.round != g || hd.size != kPortalSize) bad = -2;
        else if (ikc_checksum(msg + sizeof hd, kPortalSize - sizeof hd) != hd.sum) bad = -3;
        else if (ikc_verify(msg + sizeof hd, kPortalSize - sizeof hd, pt_seed(from, g)) >= 0) bad = -4;
        if (bad == 0) {
            r->messages++;
            r->bytes += (uint64_t)got;
        } else if (r->errors++ < 3) {
            printf("FAIL cluster %u: portal round %u from rank %u: allow %ld, read %ld, error %d (header %u/%u/%u)\n",
                   g_env.info.cluster, g, from, a, got, bad, hd.rank, hd.round, hd.size);
        }
    }
    return 0;
}

static struct pt_writer g_wr[kPortalWriters];
static struct pt_reader g_rd;
static nvx_thread_t g_wt[kPortalWriters], g_prt;

static void pt_start(void)
{
    const unsigned n = g_env.n;
    g_rd = (struct pt_reader){nvx_portal_create(g_env.me, kPortalPort), malloc(kPortalSize + 4096), 0, 0, 0};
    CHECK(g_rd.id >= 0);
    CHECK(g_rd.buf != 0);
    for (unsigned w = 0; w < kPortalWriters; w++) {
        memset(&g_wr[w], 0, sizeof g_wr[w]);
        g_wr[w].index = w;
        g_wr[w].buf = malloc(kPortalSize + 4096);
        CHECK(g_wr[w].buf != 0);
        for (unsigned r = 0; r < n; r++) {
            g_wr[w].out[r] = r == g_env.rank ? -1 : nvx_portal_open(g_env.nodes[r], kPortalPort);
            if (r != g_env.rank) CHECK(g_wr[w].out[r] >= 0);
        }
    }
    CHECK_EQ(ikc_spawn(&g_prt, pt_read, &g_rd), 0);
}

static void pt_go(void)
{
    for (unsigned w = 0; w < kPortalWriters; w++) CHECK_EQ(ikc_spawn(&g_wt[w], pt_write, &g_wr[w]), 0);
}

static void pt_finish(struct totals *all)
{
    const unsigned n = g_env.n;
    struct totals tot;
    memset(&tot, 0, sizeof tot);
    long errors = 0;
    for (unsigned w = 0; w < kPortalWriters; w++) {
        CHECK_EQ(nvx_thread_join(g_wt[w], 0), 0);
        errors += g_wr[w].errors;
        tot.pt_sent += g_wr[w].messages;
        tot.pt_sent_bytes += g_wr[w].bytes;
    }
    CHECK_EQ(nvx_thread_join(g_prt, 0), 0);
    errors += g_rd.errors;
    tot.pt_received = g_rd.messages;
    tot.pt_received_bytes = g_rd.bytes;
    CHECK_EQ(errors, 0);
    const uint64_t expect = (uint64_t)g_passes * (n - 1);
    CHECK_EQ(tot.pt_sent, expect);
    CHECK_EQ(tot.pt_received, expect);
    CHECK_EQ(tot.pt_sent_bytes, expect * kPortalSize);
    CHECK_EQ(tot.pt_received_bytes, expect * kPortalSize);
    struct nvx_ikc_stats s;
    CHECK_EQ(nvx_portal_stats(g_rd.id, &s), 0);
    CHECK_EQ(s.messages, expect);
    CHECK_EQ(s.bytes, expect * kPortalSize);
    all->pt_sent += tot.pt_sent;
    all->pt_sent_bytes += tot.pt_sent_bytes;
    all->pt_received += tot.pt_received;
    all->pt_received_bytes += tot.pt_received_bytes;
    all->errors += (uint64_t)errors;
}

static void pt_cleanup(void)
{
    for (unsigned w = 0; w < kPortalWriters; w++) {
        for (unsigned r = 0; r < g_env.n; r++)
            if (r != g_env.rank) CHECK_EQ(nvx_portal_close(g_wr[w].out[r]), 0);
        free(g_wr[w].buf);
    }
    CHECK_EQ(nvx_portal_unlink(g_rd.id), 0);
    free(g_rd.buf);
}

int main(int argc, char **argv)
{
    CHECK_EQ(ikc_env_init(&g_env), 0);
    const unsigned n = g_env.n;
    CHECK(n >= 2);
    g_harts = g_env.info.user_harts < kMaxHarts ? g_env.info.user_harts : kMaxHarts;
    g_senders = g_harts;
    /* defaults: about 131,000 messages and 75 MiB on mppa256, a few seconds on small */
    g_per_pair = n >= 16 ? 2 : 100;
    g_passes = n >= 16 ? 5 : 40;
    if (argc > 1) g_per_pair = (unsigned)atoi(argv[1]);
    if (argc > 2) g_passes = (unsigned)atoi(argv[2]);

    long totals_in = nvx_mailbox_create(g_env.me, kTotalsPort);
    long totals_out = nvx_mailbox_open(g_env.nodes[0], kTotalsPort);
    CHECK(totals_in >= 0 && totals_out >= 0);

    struct totals tot;
    memset(&tot, 0, sizeof tot);
    const unsigned per_pair = g_per_pair, passes = g_passes;
    CHECK_EQ(ikc_barrier(&g_env), 0);
    /* mailboxes alone */
    uint64_t t0 = ikc_time_us();
    mb_start();
    CHECK_EQ(ikc_barrier(&g_env), 0);
    mb_go();
    mb_finish(&tot);
    CHECK_EQ(ikc_barrier(&g_env), 0);
    mb_cleanup();
    /* portals alone */
    uint64_t t1 = ikc_time_us();
    pt_start();
    CHECK_EQ(ikc_barrier(&g_env), 0);
    pt_go();
    pt_finish(&tot);
    CHECK_EQ(ikc_barrier(&g_env), 0);
    pt_cleanup();
    /* both at once, a quarter of the senders and a quarter of the volume */
    uint64_t t2 = ikc_time_us();
    g_senders = g_harts / 4 > 0 ? g_harts / 4 : 1;
    g_per_pair = per_pair / 4 > 0 ? per_pair / 4 : 1;
    g_passes = passes / 4 > 0 ? passes / 4 : 1;
    mb_start();
    pt_start();
    CHECK_EQ(ikc_barrier(&g_env), 0);
    pt_go();
    mb_go();
    mb_finish(&tot);
    pt_finish(&tot);
    CHECK_EQ(ikc_barrier(&g_env), 0);
    mb_cleanup();
    pt_cleanup();
    uint64_t t3 = ikc_time_us();

    printf("cluster %u: ikc_stress: mailbox %llu messages (%llu bytes) sent, %llu (%llu bytes) received; "
           "portal %llu messages (%llu bytes) sent, %llu (%llu bytes) received\n",
           g_env.info.cluster, (unsigned long long)tot.mb_sent, (unsigned long long)tot.mb_sent_bytes,
           (unsigned long long)tot.mb_received, (unsigned long long)tot.mb_received_bytes,
           (unsigned long long)tot.pt_sent, (unsigned long long)tot.pt_sent_bytes,
           (unsigned long long)tot.pt_received, (unsigned long long)tot.pt_received_bytes);

    /* the board's totals, at rank 0 */
    CHECK_EQ(nvx_mailbox_write(totals_out, &tot, sizeof tot), (long)sizeof tot);
    if (g_env.rank == 0) {
        struct totals sum, one;
        memset(&sum, 0, sizeof sum);
        for (unsigned i = 0; i < n; i++) {
            CHECK_EQ(nvx_mailbox_read(totals_in, &one, sizeof one), (long)sizeof one);
            uint64_t *a = (uint64_t *)&sum, *b = (uint64_t *)&one;
            for (unsigned k = 0; k < sizeof sum / sizeof(uint64_t); k++) a[k] += b[k];
        }
        CHECK_EQ(sum.mb_sent, sum.mb_received);
        CHECK_EQ(sum.mb_sent_bytes, sum.mb_received_bytes);
        CHECK_EQ(sum.pt_sent, sum.pt_received);
        CHECK_EQ(sum.pt_sent_bytes, sum.pt_received_bytes);
        CHECK_EQ(sum.errors, 0);
        printf("ikc_stress board totals: %u clusters x %u harts; mailbox %llu messages, %llu bytes; "
               "portal %llu messages, %llu bytes (%llu MiB); errors %llu; "
               "%llu ms mailboxes alone, %llu ms portals alone, %llu ms both at once\n",
               n, g_harts, (unsigned long long)sum.mb_received, (unsigned long long)sum.mb_received_bytes,
               (unsigned long long)sum.pt_received, (unsigned long long)sum.pt_received_bytes,
               (unsigned long long)(sum.pt_received_bytes >> 20), (unsigned long long)sum.errors,
               (unsigned long long)(t1 - t0) / 1000, (unsigned long long)(t2 - t1) / 1000,
               (unsigned long long)(t3 - t2) / 1000);
    }
    CHECK_EQ(ikc_barrier(&g_env), 0);
    CHECK_EQ(nvx_mailbox_close(totals_out), 0);
    CHECK_EQ(nvx_mailbox_unlink(totals_in), 0);
    CHECK_EQ(ikc_env_fini(&g_env), 0);
    return check_finish("ikc_stress");
}
