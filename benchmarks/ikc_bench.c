/* IKC micro-benchmarks: one-way latency and bandwidth of mailboxes and portals, between
 * two threads of one cluster (local) and between the first two compute clusters (remote).
 *
 *   ikc_bench [mailbox|portal|all] [local|remote] [icount] [SCALE]
 *
 * Words may come in any order; the default is `all` (both abstractions, both localities)
 * and SCALE 1 (a multiplier of every iteration count, e.g. 0.2 for a quick run).
 *
 * Roles: the "ping" side measures and prints, the "pong" side answers. Local tests run on
 * the first compute cluster (ping = main thread, pong = a thread pinned to another user
 * hart); remote tests run ping on the first compute cluster and pong on the second. The
 * other compute clusters return at once. Both sides derive the same test plan from the
 * arguments, so no control messages are needed: every test is, in order,
 *   warm-up   W round trips (ping writes, pong reads and writes back the same message)
 *   latency   N round trips; latency = elapsed / N / 2
 *   stream    M back-to-back messages ping -> pong, then one 16-byte acknowledgement
 *             pong -> ping; bandwidth = M * size / (time from the first write to the ack)
 * all with the abstraction under test (the acknowledgement too). A portal read is always
 * preceded by its own nvx_portal_allow (one read per allow). Times are the board clock
 * (rdtime, 10 MHz: lat_us, bw_MiB/s) and the ping side's virtual clock (nvx/clock.h:
 * lat_cycles, B/cycle; under --clock wall the board clock in cycles).
 *
 * `icount` (for the instruction counter, benchmarks/icount.sh): the latency phase is
 * followed by 2N more round trips, with three instruction-counter marks around the N and
 * the 2N; the difference of the two windows over N is the cost of one round trip without
 * the loop's fixed costs. Each row then ends with the number of its first mark (the
 * plugin numbers marks in the order they run; only this program marks).
 *
 * Hardware transfers per message come from the endpoint counters (nvx_*_stats) over the
 * stream phase: "tx" from the ping side's output endpoint, "rx" from the pong side's
 * input endpoint (sent back in the acknowledgement).
 *
 * Memory: one data buffer of BUF_BYTES (1 MiB) + a page per cluster. In local tests both
 * threads share it: each side uses its own half while 2 * size fits, above that (1 MiB)
 * both sides use the whole buffer (the kernel then copies the buffer onto itself, which
 * costs the same work) and the stream phase skips its sequence checks.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvx/clock.h>
#include <nvx/ikc.h>
#include <nvx/syscall.h>
#include <nvx/thread.h>

#include <nvx/icount_mark.h>

#define KiB 1024u
#define MiB (1024u * 1024u)
#define BUF_BYTES MiB
#define PAGE 4096u
#define ACK_BYTES 16u

/* Logical ports: each side listens on its own port, so that both ends of a local test can
 * share the cluster's one node. Local and remote tests use different ports. */
enum { PORT_LOCAL_PING = 1, PORT_LOCAL_PONG = 2, PORT_REMOTE_PING = 3, PORT_REMOTE_PONG = 4 };

enum kind { MAILBOX, PORTAL };
static const char *const kind_name[] = {"mailbox", "portal"};

struct test {
    enum kind kind;
    int remote;
    uint32_t size;
    uint32_t warm, lat_iters, stream_msgs;
    uint32_t extra_iters;  /* icount: 2N round trips after the latency phase, else 0 */
    uint32_t mark;         /* icount: number of the test's first mark, else 0 */
};

#define MAX_TESTS 32
struct plan {
    struct test tests[MAX_TESTS];
    unsigned count;
};

/* One side's endpoints and buffers. */
struct side {
    long mb_in, mb_out, pt_in, pt_out;
    uint32_t peer_node;
    uint8_t *data;       /* portal data (page aligned) */
    uint8_t *data_big;   /* data when 2 * size does not fit the buffer (shared in local) */
    int shared_big;      /* data_big is also the other side's */
    uint8_t small[NVX_MAILBOX_MSG_MAX] __attribute__((aligned(16)));
    const struct plan *plan;
    int remote;          /* which tests of the plan this side runs */
    int status;
};

struct result {
    double lat_us, bw_mibs, hw_tx, hw_rx;
    double lat_cycles, bw_bytes_per_cycle; /* the same, in the virtual clock (nvx/clock.h) */
};

static const uint32_t mailbox_sizes[] = {8, 64, 128};
static const uint32_t portal_sizes[] = {8, 64, 512, 4 * KiB, 64 * KiB, 256 * KiB, MiB};

/* ---------------------------------------------------------------- plan --------- */

static uint32_t scaled(double base, double scale, uint32_t minimum)
{
    double n = base * scale;
    return n < minimum ? minimum : (uint32_t)n;
}

/* Iteration counts (times SCALE): mailboxes 1000 round trips and 1024 streamed messages
 * (far more than the 64 messages a cluster buffers, so a local sender does get pushed
 * back); portals move about 16 MiB per latency phase and 32 MiB per stream phase, between
 * 8 and 1000 (1024) messages. */
static void add_tests(struct plan *p, enum kind kind, int remote, double scale, int icount)
{
    const uint32_t *sizes = kind == MAILBOX ? mailbox_sizes : portal_sizes;
    unsigned n = kind == MAILBOX ? sizeof mailbox_sizes / sizeof *sizes : sizeof portal_sizes / sizeof *sizes;
    for (unsigned i = 0; i < n && p->count < MAX_TESTS; i++) {
        struct test *t = &p->tests[p->count++];
        double lat = 1000, stream = 1024;
        if (kind == PORTAL) {
            lat = (16.0 * MiB) / sizes[i];
            stream = (32.0 * MiB) / sizes[i];
            if (lat > 1000) lat = 1000;
            if (stream > 1024) stream = 1024;
            if (lat < 8) lat = 8;
            if (stream < 8) stream = 8;
        }
        t->kind = kind;
        t->remote = remote;
        t->size = sizes[i];
        t->lat_iters = scaled(lat, scale, 2);
        t->stream_msgs = scaled(stream, scale, 2);
        t->warm = t->lat_iters / 10 < 2 ? 2 : t->lat_iters / 10;
        t->extra_iters = icount ? 2 * t->lat_iters : 0;
        t->mark = icount ? 3 * (p->count - 1) + 1 : 0;
    }
}

static int parse_args(int argc, char **argv, int quiet, struct plan *p, double *scale)
{
    int want_mailbox = 0, want_portal = 0, want_local = 0, want_remote = 0, icount = 0;
    *scale = 1.0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        char *end;
        if (strcmp(a, "all") == 0) {
            want_mailbox = want_portal = 1;
        } else if (strcmp(a, "mailbox") == 0) {
            want_mailbox = 1;
        } else if (strcmp(a, "portal") == 0) {
            want_portal = 1;
        } else if (strcmp(a, "local") == 0) {
            want_local = 1;
        } else if (strcmp(a, "remote") == 0) {
            want_remote = 1;
        } else if (strcmp(a, "icount") == 0) {
            icount = 1;
        } else {
            double s = strtod(a, &end);
            if (end == a || *end != '\0' || !(s > 0) || s > 100) {
                if (quiet) return -1;
                fprintf(stderr, "ikc_bench: bad argument '%s' (usage: ikc_bench [mailbox|portal|all] "
                                "[local|remote] [icount] [scale])\n", a);
                return -1;
            }
            *scale = s;
        }
    }
    if (!want_mailbox && !want_portal) want_mailbox = want_portal = 1;
    if (!want_local && !want_remote) want_local = want_remote = 1;
    p->count = 0;
    for (int remote = 0; remote <= 1; remote++) {
        if (remote ? !want_remote : !want_local) continue;
        if (want_mailbox) add_tests(p, MAILBOX, remote, *scale, icount);
        if (want_portal) add_tests(p, PORTAL, remote, *scale, icount);
    }
    return 0;
}

/* ---------------------------------------------------------------- transfers ---- */

static int fail(struct side *s, const char *what, long got, long expected)
{
    fprintf(stderr, "ikc_bench: %s returned %ld, expected %ld%s%s\n", what, got, expected,
            got < 0 ? ": " : "", got < 0 ? strerror((int)-got) : "");
    s->status = 1;
    return -1;
}

/* The buffer a side sends from and receives into for messages of `size` bytes. */
static uint8_t *buffer_for(struct side *s, enum kind kind, uint32_t size)
{
    if (kind == MAILBOX) return s->small;
    return 2ull * size <= BUF_BYTES ? s->data : s->data_big;
}

static int send_msg(struct side *s, enum kind kind, const void *buf, uint32_t size)
{
    long r = kind == MAILBOX ? nvx_mailbox_write(s->mb_out, buf, size) : nvx_portal_write(s->pt_out, buf, size);
    return r == (long)size ? 0 : fail(s, kind == MAILBOX ? "nvx_mailbox_write" : "nvx_portal_write", r, size);
}

static int recv_msg(struct side *s, enum kind kind, void *buf, uint32_t size)
{
    long r;
    if (kind == MAILBOX) {
        r = nvx_mailbox_read(s->mb_in, buf, NVX_MAILBOX_MSG_MAX);
        return r == (long)size ? 0 : fail(s, "nvx_mailbox_read", r, size);
    }
    r = nvx_portal_allow(s->pt_in, s->peer_node);
    if (r != 0) return fail(s, "nvx_portal_allow", r, 0);
    r = nvx_portal_read(s->pt_in, buf, size);
    return r == (long)size ? 0 : fail(s, "nvx_portal_read", r, size);
}

static int stats_of(struct side *s, enum kind kind, long id, struct nvx_ikc_stats *st)
{
    long r = kind == MAILBOX ? nvx_mailbox_stats(id, st) : nvx_portal_stats(id, st);
    return r == 0 ? 0 : fail(s, "stats", r, 0);
}

static void put_seq(uint8_t *buf, uint64_t seq) { memcpy(buf, &seq, sizeof seq); }
static uint64_t get_seq(const uint8_t *buf)
{
    uint64_t seq;
    memcpy(&seq, buf, sizeof seq);
    return seq;
}

static int check_seq(struct side *s, const uint8_t *buf, uint64_t expected, const char *phase)
{
    uint64_t got = get_seq(buf);
    if (got == expected) return 0;
    fprintf(stderr, "ikc_bench: %s: message %llu arrived as %llu (lost or reordered)\n", phase,
            (unsigned long long)expected, (unsigned long long)got);
    s->status = 1;
    return -1;
}

/* ---------------------------------------------------------------- roles -------- */

/* `n` round trips, as the ping side. */
static int ping_pong(struct side *s, const struct test *t, uint8_t *buf, uint32_t n, uint64_t *seq)
{
    for (uint32_t i = 0; i < n; i++, (*seq)++) {
        put_seq(buf, *seq);
        if (send_msg(s, t->kind, buf, t->size) || recv_msg(s, t->kind, buf, t->size)) return -1;
        if (check_seq(s, buf, *seq, "ping-pong")) return -1;
    }
    return 0;
}

static int ping_test(struct side *s, const struct test *t, struct result *res)
{
    uint8_t *buf = buffer_for(s, t->kind, t->size);
    uint64_t seq = 0;

    for (uint32_t i = 0; i < t->warm; i++, seq++) {
        put_seq(buf, seq);
        if (send_msg(s, t->kind, buf, t->size) || recv_msg(s, t->kind, buf, t->size)) return -1;
        if (check_seq(s, buf, seq, "warm-up")) return -1;
    }

    if (t->mark) nvx_icount_mark();
    uint64_t c0 = nvx_clock_cycles(), t0 = nvx_rdtime();
    if (ping_pong(s, t, buf, t->lat_iters, &seq)) return -1;
    uint64_t t1 = nvx_rdtime(), c1 = nvx_clock_cycles();
    if (t->mark) {
        nvx_icount_mark();
        if (ping_pong(s, t, buf, t->extra_iters, &seq)) return -1;
        nvx_icount_mark();
    }

    struct nvx_ikc_stats before, after;
    long out = t->kind == MAILBOX ? s->mb_out : s->pt_out;
    if (stats_of(s, t->kind, out, &before)) return -1;
    uint64_t c2 = nvx_clock_cycles(), t2 = nvx_rdtime();
    for (uint32_t i = 0; i < t->stream_msgs; i++, seq++) {
        put_seq(buf, seq);
        if (send_msg(s, t->kind, buf, t->size)) return -1;
    }
    uint64_t ack[2];
    uint8_t *ack_buf = t->kind == MAILBOX ? s->small : s->data;
    if (recv_msg(s, t->kind, ack_buf, ACK_BYTES)) return -1;
    uint64_t t3 = nvx_rdtime(), c3 = nvx_clock_cycles();
    memcpy(ack, ack_buf, sizeof ack);
    if (stats_of(s, t->kind, out, &after)) return -1;

    uint64_t msgs = after.messages - before.messages;
    if (msgs != t->stream_msgs) {
        fprintf(stderr, "ikc_bench: %s: sender counted %llu messages, sent %u\n", kind_name[t->kind],
                (unsigned long long)msgs, t->stream_msgs);
        s->status = 1;
    }
    res->lat_us = (double)(t1 - t0) * 1e6 / NVX_TIMER_HZ / t->lat_iters / 2;
    res->bw_mibs = t3 > t2 ? (double)t->size * t->stream_msgs / MiB / ((double)(t3 - t2) / NVX_TIMER_HZ) : 0;
    res->lat_cycles = (double)(c1 - c0) / t->lat_iters / 2;
    res->bw_bytes_per_cycle = c3 > c2 ? (double)t->size * t->stream_msgs / (double)(c3 - c2) : 0;
    res->hw_tx = msgs ? (double)(after.hw_transfers - before.hw_transfers) / msgs : 0;
    res->hw_rx = ack[0] ? (double)ack[1] / ack[0] : 0;
    return 0;
}

static int pong_test(struct side *s, const struct test *t)
{
    uint8_t *buf = buffer_for(s, t->kind, t->size);
    uint64_t seq = 0;
    for (uint32_t i = 0; i < t->warm + t->lat_iters + t->extra_iters; i++, seq++) {
        if (recv_msg(s, t->kind, buf, t->size)) return -1;
        if (check_seq(s, buf, seq, "pong")) return -1;
        if (send_msg(s, t->kind, buf, t->size)) return -1;
    }

    struct nvx_ikc_stats before, after;
    long in = t->kind == MAILBOX ? s->mb_in : s->pt_in;
    /* With one shared buffer the sender may stamp the next message while we look. */
    int checked = !(t->kind == PORTAL && buf == s->data_big && s->shared_big);
    if (stats_of(s, t->kind, in, &before)) return -1;
    for (uint32_t i = 0; i < t->stream_msgs; i++, seq++) {
        if (recv_msg(s, t->kind, buf, t->size)) return -1;
        if (checked && check_seq(s, buf, seq, "stream")) return -1;
    }
    if (stats_of(s, t->kind, in, &after)) return -1;
    uint64_t ack[2] = {after.messages - before.messages, after.hw_transfers - before.hw_transfers};
    uint8_t *ack_buf = t->kind == MAILBOX ? s->small : s->data;
    memcpy(ack_buf, ack, sizeof ack);
    return send_msg(s, t->kind, ack_buf, ACK_BYTES);
}

static void print_header(const struct nvx_info *info, double scale)
{
    printf("ikc_bench: board %.*s, %u compute clusters, clock %llu Hz, %s clock at %llu Hz, scale %g\n",
           (int)sizeof info->board, info->board, info->compute_count, (unsigned long long)NVX_TIMER_HZ,
           nvx_clock_is_virtual() ? "virtual" : "wall", (unsigned long long)nvx_clock_hz(), scale);
    printf("%-8s %-7s %8s %7s %7s %11s %11s %11s %10s %9s %9s\n", "ikc", "where", "bytes", "n_lat", "n_bw", "lat_us",
           "bw_MiB/s", "lat_cycles", "B/cycle", "hw/msg_tx", "hw/msg_rx");
    fflush(stdout);
}

static void print_row(const struct test *t, const struct result *r)
{
    printf("%-8s %-7s %8u %7u %7u %11.2f %11.3f %11.1f %10.5f %9.2f %9.2f", kind_name[t->kind],
           t->remote ? "remote" : "local", t->size, t->lat_iters, t->stream_msgs, r->lat_us, r->bw_mibs, r->lat_cycles,
           r->bw_bytes_per_cycle, r->hw_tx, r->hw_rx);
    if (t->mark) printf(" mark %u", t->mark);
    printf("\n");
    fflush(stdout);
}

static int run_ping(struct side *s)
{
    for (unsigned i = 0; i < s->plan->count; i++) {
        const struct test *t = &s->plan->tests[i];
        if (t->remote != s->remote) continue;
        struct result r;
        if (ping_test(s, t, &r)) {
            fprintf(stderr, "ikc_bench: %s %s %u bytes failed\n", kind_name[t->kind], t->remote ? "remote" : "local",
                    t->size);
            return -1;
        }
        print_row(t, &r);
    }
    return 0;
}

static int run_pong(struct side *s)
{
    for (unsigned i = 0; i < s->plan->count; i++) {
        const struct test *t = &s->plan->tests[i];
        if (t->remote == s->remote && pong_test(s, t)) return -1;
    }
    return 0;
}

static void *pong_thread(void *arg)
{
    struct side *s = arg;
    run_pong(s);
    return (void *)(intptr_t)s->status;
}

/* ---------------------------------------------------------------- setup -------- */

/* Creates the side's input endpoints on (own, in_port) and opens its outputs to
 * (peer, out_port). */
static int open_side(struct side *s, uint32_t own, uint32_t in_port, uint32_t peer, uint32_t out_port)
{
    s->peer_node = peer;
    if ((s->mb_in = nvx_mailbox_create(own, in_port)) < 0) return fail(s, "nvx_mailbox_create", s->mb_in, 0);
    if ((s->mb_out = nvx_mailbox_open(peer, out_port)) < 0) return fail(s, "nvx_mailbox_open", s->mb_out, 0);
    if ((s->pt_in = nvx_portal_create(own, in_port)) < 0) return fail(s, "nvx_portal_create", s->pt_in, 0);
    if ((s->pt_out = nvx_portal_open(peer, out_port)) < 0) return fail(s, "nvx_portal_open", s->pt_out, 0);
    return 0;
}

static void close_side(struct side *s)
{
    nvx_mailbox_close(s->mb_out);
    nvx_mailbox_unlink(s->mb_in);
    nvx_portal_close(s->pt_out);
    nvx_portal_unlink(s->pt_in);
}

/* The cluster's data buffer, page aligned and touched once. */
static uint8_t *data_buffer(void)
{
    static uint8_t *buf;
    if (buf == NULL) {
        uint8_t *raw = malloc(BUF_BYTES + PAGE);
        if (raw == NULL) return NULL;
        buf = (uint8_t *)(((uintptr_t)raw + PAGE - 1) & ~(uintptr_t)(PAGE - 1));
        memset(buf, 0x5a, BUF_BYTES);
    }
    return buf;
}

static int has_tests(const struct plan *p, int remote)
{
    for (unsigned i = 0; i < p->count; i++)
        if (p->tests[i].remote == remote) return 1;
    return 0;
}

static struct side g_ping, g_pong;

static int run_local(const struct nvx_info *info, const struct plan *plan)
{
    uint8_t *buf = data_buffer();
    if (buf == NULL) {
        fprintf(stderr, "ikc_bench: no memory for the %u KiB buffer\n", BUF_BYTES / KiB);
        return 1;
    }
    g_ping = (struct side){.plan = plan, .remote = 0, .data = buf, .data_big = buf, .shared_big = 1};
    g_pong = (struct side){.plan = plan, .remote = 0, .data = buf + BUF_BYTES / 2, .data_big = buf, .shared_big = 1};
    if (open_side(&g_ping, info->node, PORT_LOCAL_PING, info->node, PORT_LOCAL_PONG) ||
        open_side(&g_pong, info->node, PORT_LOCAL_PONG, info->node, PORT_LOCAL_PING))
        return 1;

    /* The pong thread on another user hart than ours. */
    nvx_thread_attr_t attr = NVX_THREAD_ATTR_INITIALIZER;
    attr.hart = (int)(info->local_hart + 1 < info->first_user_hart + info->user_harts ? info->local_hart + 1
                                                                                      : info->first_user_hart);
    if (info->user_harts < 2) attr.hart = NVX_THREAD_ANY_HART;
    nvx_thread_t pong;
    int err = nvx_thread_create(&pong, &attr, pong_thread, &g_pong);
    if (err != 0) {
        fprintf(stderr, "ikc_bench: no pong thread: %s\n", strerror(err));
        return 1;
    }
    int status = run_ping(&g_ping) ? 1 : g_ping.status;
    if (status != 0) {
        fprintf(stderr, "ikc_bench: local tests failed; the pong thread may be left blocked\n");
        exit(status);  /* ends every thread of this cluster */
    }
    void *pong_status = NULL;
    err = nvx_thread_join(pong, &pong_status);
    if (err != 0 || pong_status != NULL) status = 1;
    close_side(&g_ping);
    close_side(&g_pong);
    return status;
}

static int run_remote(unsigned role, uint32_t own, uint32_t peer, const struct plan *plan)
{
    struct side *s = role == 0 ? &g_ping : &g_pong;
    uint8_t *buf = data_buffer();
    if (buf == NULL) {
        fprintf(stderr, "ikc_bench: no memory for the %u KiB buffer\n", BUF_BYTES / KiB);
        return 1;
    }
    *s = (struct side){.plan = plan, .remote = 1, .data = buf, .data_big = buf, .shared_big = 0};
    int opened = role == 0 ? open_side(s, own, PORT_REMOTE_PING, peer, PORT_REMOTE_PONG)
                           : open_side(s, own, PORT_REMOTE_PONG, peer, PORT_REMOTE_PING);
    if (opened) return 1;
    int r = role == 0 ? run_ping(s) : run_pong(s);
    close_side(s);
    return r ? 1 : s->status;
}

int main(int argc, char **argv)
{
    struct nvx_info info;
    long err = nvx_sys_info(&info);
    if (err < 0) {
        fprintf(stderr, "ikc_bench: info: %s\n", strerror((int)-err));
        return 1;
    }
    unsigned first_compute = info.cluster_count - info.compute_count;
    unsigned index = info.cluster - first_compute;  /* among compute clusters */
    if (index >= 2) return 0;                        /* not part of the benchmark */

    static struct plan plan;
    double scale;
    if (parse_args(argc, argv, index != 0, &plan, &scale) != 0) return index == 0 ? 2 : 0;

    if (index == 0) print_header(&info, scale);
    int status = 0;
    if (index == 0 && has_tests(&plan, 0)) status = run_local(&info, &plan);
    if (status == 0 && has_tests(&plan, 1)) {
        if (info.compute_count < 2) {
            if (index == 0) printf("ikc_bench: one compute cluster: no remote tests\n");
            return status;
        }
        long peer = nvx_node_of(first_compute + (1 - index), 0);
        if (peer < 0) {
            fprintf(stderr, "ikc_bench: node_of: %s\n", strerror((int)-peer));
            return 1;
        }
        status = run_remote(index, info.node, (uint32_t)peer, &plan);
    }
    if (index == 0 && status == 0) printf("ikc_bench: done\n");
    return status;
}
