/* IKC mailboxes: the API on one cluster (two threads, through the kernel only) and across
 * compute clusters (a ring through the NoC, with reader threads): create, open, read,
 * write, close, unlink, stats; messages reach the right port, in order per sender and
 * port; -EMSGSIZE keeps the message for a larger read; bounded buffering pushes senders
 * back instead of dropping; many virtual mailboxes share one node's physical mailbox. */
#include "check.h"
#include "ikc_test.h"

enum {                   /* ports 0..3 are left to system services */
    kLocalPort = 4,
    kRingPortA = 5,
    kRingPortB = 6,
    kLifePort = 7,
    kIsoPortA = 8,
    kIsoPortB = 9,
    kManyFirst = 16,     /* ports kManyFirst .. kManyFirst + kManyPorts - 1 */
    kManyPorts = 8,
    kManySenders = 4,    /* remote sender threads per cluster (plus one local sender) */
    kManyPerPort = 40,   /* messages per (sender, port) */
    kRingMessages = 600, /* per cluster, over the two ring ports */
    kLocalStream = 300,
};

static struct ikc_env g_env;

static struct nvx_ikc_stats stats_of(long id)
{
    struct nvx_ikc_stats s;
    memset(&s, 0xff, sizeof s);
    TCHECK_EQ(nvx_mailbox_stats(id, &s), 0);
    return s;
}

/* ---- local: one cluster, kernel only ---- */

struct stream_reader {
    long id;
    unsigned count;
    unsigned rank, sender, port;
    long errors;
};

/* Reads `count` messages of (rank, sender, port) with seq 0, 1, ... */
static void *stream_read(void *arg)
{
    struct stream_reader *r = arg;
    uint8_t buf[NVX_MAILBOX_MSG_MAX];
    for (unsigned i = 0; i < r->count; i++) {
        struct ikc_tag tag;
        long got = nvx_mailbox_read(r->id, buf, sizeof buf);
        int bad = ikc_check_msg(buf, got, &tag);
        if (bad == 0 && (tag.rank != r->rank || tag.sender != r->sender || tag.port != r->port || tag.seq != i))
            bad = -5;
        if (bad != 0) {
            if (r->errors++ < 3)
                printf("FAIL cluster %u: stream message %u: got %ld, error %d (from %u/%u port %u seq %u)\n",
                       g_env.info.cluster, i, got, bad, tag.rank, tag.sender, tag.port, tag.seq);
        }
    }
    return 0;
}

struct small_reader {
    long id;
    long first, second;
    uint8_t buf[NVX_MAILBOX_MSG_MAX];
};

/* Sleeps in a read with a 10-byte buffer, then reads again with a full one. */
static void *small_then_big(void *arg)
{
    struct small_reader *r = arg;
    r->first = nvx_mailbox_read(r->id, r->buf, 10);
    r->second = nvx_mailbox_read(r->id, r->buf, sizeof r->buf);
    return 0;
}

struct writer {
    long id;
    unsigned rank, sender, port, first, count;
    long result;
};

static void *write_stream(void *arg)
{
    struct writer *w = arg;
    uint8_t buf[NVX_MAILBOX_MSG_MAX];
    w->result = 0;
    for (unsigned i = w->first; i < w->first + w->count; i++) {
        size_t len = ikc_make_msg(buf, w->rank, w->sender, w->port, i, 0);
        long rc = nvx_mailbox_write(w->id, buf, len);
        if (rc != (long)len) {
            w->result = rc < 0 ? rc : -1000;
            break;
        }
    }
    return 0;
}

static void local_tests(void)
{
    const uint32_t me = g_env.me;
    const unsigned rank = g_env.rank;
    uint8_t buf[2 * NVX_MAILBOX_MSG_MAX], msg[NVX_MAILBOX_MSG_MAX];

    long in = nvx_mailbox_create(me, kLocalPort);
    long out = nvx_mailbox_open(me, kLocalPort);
    CHECK(in >= 0);
    CHECK(out >= 0);
    CHECK(in != out);

    /* one message there and back; counters on both ends */
    CHECK_EQ(nvx_mailbox_write(out, "hello", 6), 6);
    memset(buf, 0, sizeof buf);
    CHECK_EQ(nvx_mailbox_read(in, buf, NVX_MAILBOX_MSG_MAX), 6);
    CHECK_EQ(memcmp(buf, "hello", 6), 0);
    struct nvx_ikc_stats s = stats_of(in);
    CHECK_EQ(s.messages, 1);
    CHECK_EQ(s.bytes, 6);
    CHECK_EQ(s.waits, 0);
    CHECK_EQ(s.hw_transfers, 0);
    s = stats_of(out);
    CHECK_EQ(s.messages, 1);
    CHECK_EQ(s.bytes, 6);
    CHECK_EQ(s.waits, 0);
    CHECK_EQ(s.hw_transfers, 0); /* same cluster: no NoC */
    CHECK_EQ(s.modeled_cycles, 0);

    /* every length 1..128, each read right after its write */
    long bad_lengths = 0;
    uint64_t total = 6;
    for (unsigned len = 1; len <= NVX_MAILBOX_MSG_MAX; len++) {
        ikc_fill(msg, len, 1000 + len);
        if (nvx_mailbox_write(out, msg, len) != (long)len) bad_lengths++;
        memset(buf, 0, sizeof buf);
        if (nvx_mailbox_read(in, buf, sizeof buf) != (long)len || ikc_verify(buf, len, 1000 + len) >= 0) bad_lengths++;
        total += len;
    }
    CHECK_EQ(bad_lengths, 0);
    /* a batch that fits the buffers, read back in order */
    for (unsigned i = 0; i < 40; i++) {
        size_t len = ikc_make_msg(msg, rank, 0, kLocalPort, i, 0);
        CHECK_EQ(nvx_mailbox_write(out, msg, len), (long)len);
        total += len;
    }
    long bad_batch = 0;
    for (unsigned i = 0; i < 40; i++) {
        struct ikc_tag tag;
        long got = nvx_mailbox_read(in, buf, sizeof buf);
        if (ikc_check_msg(buf, got, &tag) != 0 || tag.seq != i || tag.port != kLocalPort) bad_batch++;
    }
    CHECK_EQ(bad_batch, 0);
    s = stats_of(in);
    CHECK_EQ(s.messages, 1 + NVX_MAILBOX_MSG_MAX + 40);
    CHECK_EQ(s.bytes, total);
    s = stats_of(out);
    CHECK_EQ(s.messages, 1 + NVX_MAILBOX_MSG_MAX + 40);
    CHECK_EQ(s.bytes, total);

    /* -EMSGSIZE keeps the message for a larger read; a buffer larger than 128 is fine */
    ikc_fill(msg, 100, 77);
    CHECK_EQ(nvx_mailbox_write(out, msg, 100), 100);
    CHECK_EQ(nvx_mailbox_read(in, buf, 99), -EMSGSIZE);
    CHECK_EQ(nvx_mailbox_read(in, buf, 1), -EMSGSIZE);
    memset(buf, 0, sizeof buf);
    CHECK_EQ(nvx_mailbox_read(in, buf, sizeof buf), 100);
    CHECK_EQ(ikc_verify(buf, 100, 77), -1);
    /* ... also when the reader was asleep with a small buffer when it arrived */
    static struct small_reader sr;
    nvx_thread_t t;
    sr.id = in;
    uint64_t waits = ikc_waits(in, 0);
    CHECK_EQ(ikc_spawn(&t, small_then_big, &sr), 0);
    CHECK_EQ(ikc_wait_for_sleeper(in, 0, waits), 0);
    ikc_fill(msg, 100, 78);
    CHECK_EQ(nvx_mailbox_write(out, msg, 100), 100);
    CHECK_EQ(nvx_thread_join(t, 0), 0);
    CHECK_EQ(sr.first, -EMSGSIZE);
    CHECK_EQ(sr.second, 100);
    CHECK_EQ(ikc_verify(sr.buf, 100, 78), -1);

    /* a reader thread asleep first, then a stream of messages larger than the buffers */
    static struct stream_reader rd;
    rd = (struct stream_reader){in, kLocalStream, rank, 1, kLocalPort, 0};
    waits = ikc_waits(in, 0);
    CHECK_EQ(ikc_spawn(&t, stream_read, &rd), 0);
    CHECK_EQ(ikc_wait_for_sleeper(in, 0, waits), 0);
    static struct writer wr;
    wr = (struct writer){out, rank, 1, kLocalPort, 0, kLocalStream, 0};
    write_stream(&wr);
    CHECK_EQ(wr.result, 0);
    CHECK_EQ(nvx_thread_join(t, 0), 0);
    CHECK_EQ(rd.errors, 0);
    s = stats_of(in);
    CHECK(s.waits >= 2);

    /* push-back: a port's quota of buffered messages and no reader, the next writer
     * sleeps, then reads drain everything in order and the writer finishes */
    wr = (struct writer){out, rank, 2, kLocalPort, 0, NVX_MAILBOX_PORT_QUOTA, 0};
    write_stream(&wr);
    CHECK_EQ(wr.result, 0);
    uint64_t out_waits = ikc_waits(out, 0);
    static struct writer late;
    late = (struct writer){out, rank, 2, kLocalPort, NVX_MAILBOX_PORT_QUOTA, 20, 0};
    CHECK_EQ(ikc_spawn(&t, write_stream, &late), 0);
    CHECK_EQ(ikc_wait_for_sleeper(out, 0, out_waits), 0);
    rd = (struct stream_reader){in, NVX_MAILBOX_PORT_QUOTA + 20, rank, 2, kLocalPort, 0};
    stream_read(&rd);
    CHECK_EQ(rd.errors, 0);
    CHECK_EQ(nvx_thread_join(t, 0), 0);
    CHECK_EQ(late.result, 0);

    /* two ports of one node stay apart */
    long iso_a = nvx_mailbox_create(me, kIsoPortA), iso_b = nvx_mailbox_create(me, kIsoPortB);
    long to_a = nvx_mailbox_open(me, kIsoPortA), to_b = nvx_mailbox_open(me, kIsoPortB);
    CHECK(iso_a >= 0 && iso_b >= 0 && to_a >= 0 && to_b >= 0);
    for (unsigned i = 0; i < 10; i++) {
        size_t len = ikc_make_msg(msg, rank, 3, kIsoPortA, i, 0);
        CHECK_EQ(nvx_mailbox_write(to_a, msg, len), (long)len);
        len = ikc_make_msg(msg, rank, 3, kIsoPortB, i, 0);
        CHECK_EQ(nvx_mailbox_write(to_b, msg, len), (long)len);
    }
    rd = (struct stream_reader){iso_b, 10, rank, 3, kIsoPortB, 0};
    stream_read(&rd);
    CHECK_EQ(rd.errors, 0);
    rd = (struct stream_reader){iso_a, 10, rank, 3, kIsoPortA, 0};
    stream_read(&rd);
    CHECK_EQ(rd.errors, 0);
    CHECK_EQ(stats_of(iso_a).messages, 10);
    CHECK_EQ(stats_of(iso_b).messages, 10);

    /* lifecycle: close and unlink free the ids; messages buffered for a port stay there
     * across unlink and a new create */
    CHECK_EQ(nvx_mailbox_close(to_a), 0);
    CHECK_EQ(nvx_mailbox_close(to_b), 0);
    CHECK_EQ(nvx_mailbox_unlink(iso_a), 0);
    CHECK_EQ(nvx_mailbox_unlink(iso_b), 0);
    long life = nvx_mailbox_create(me, kLifePort), to_life = nvx_mailbox_open(me, kLifePort);
    CHECK(life >= 0 && to_life >= 0);
    for (unsigned i = 0; i < 3; i++) {
        size_t len = ikc_make_msg(msg, rank, 4, kLifePort, i, 0);
        CHECK_EQ(nvx_mailbox_write(to_life, msg, len), (long)len);
    }
    CHECK_EQ(nvx_mailbox_unlink(life), 0);
    CHECK_EQ(nvx_mailbox_stats(life, &s), -EBADF);
    life = nvx_mailbox_create(me, kLifePort);
    CHECK(life >= 0);
    CHECK_EQ(stats_of(life).messages, 0); /* a fresh endpoint, fresh counters */
    rd = (struct stream_reader){life, 3, rank, 4, kLifePort, 0};
    stream_read(&rd);
    CHECK_EQ(rd.errors, 0);
    CHECK_EQ(nvx_mailbox_unlink(life), 0);
    CHECK_EQ(nvx_mailbox_close(to_life), 0);
    CHECK_EQ(nvx_mailbox_close(out), 0);
    CHECK_EQ(nvx_mailbox_unlink(in), 0);
    CHECK_EQ(nvx_mailbox_close(out), -EBADF);
    CHECK_EQ(nvx_mailbox_unlink(in), -EBADF);
}

/* ---- remote: a ring over the compute clusters ---- */

struct ring_reader {
    long id;
    unsigned port, from, count;
    uint64_t bytes;
    long errors;
};

static void *ring_read(void *arg)
{
    struct ring_reader *r = arg;
    uint8_t buf[NVX_MAILBOX_MSG_MAX];
    for (unsigned i = 0; i < r->count; i++) {
        struct ikc_tag tag;
        long got = nvx_mailbox_read(r->id, buf, sizeof buf);
        int bad = ikc_check_msg(buf, got, &tag);
        if (bad == 0 && (tag.rank != r->from || tag.port != r->port || tag.seq != i)) bad = -5;
        if (bad == 0) r->bytes += (uint64_t)got;
        else if (r->errors++ < 3)
            printf("FAIL cluster %u: ring port %u message %u: got %ld, error %d (from %u port %u seq %u)\n",
                   g_env.info.cluster, r->port, i, got, bad, tag.rank, tag.port, tag.seq);
    }
    return 0;
}

/* Which ring port message i goes to (deterministic, irregular). */
static unsigned ring_port(unsigned i) { return (ikc_hash(i * 7 + 3) & 1) ? kRingPortB : kRingPortA; }

static void ring_tests(void)
{
    const unsigned n = g_env.n, rank = g_env.rank;
    const unsigned succ = (rank + 1) % n, pred = (rank + n - 1) % n;
    unsigned count[NVX_IKC_PORTS] = {0}; /* indexed by port */
    uint64_t sent_bytes[NVX_IKC_PORTS] = {0};
    uint8_t msg[NVX_MAILBOX_MSG_MAX];
    for (unsigned i = 0; i < kRingMessages; i++) count[ring_port(i)]++;

    long in_a = nvx_mailbox_create(g_env.me, kRingPortA), in_b = nvx_mailbox_create(g_env.me, kRingPortB);
    long out_a = nvx_mailbox_open(g_env.nodes[succ], kRingPortA), out_b = nvx_mailbox_open(g_env.nodes[succ], kRingPortB);
    CHECK(in_a >= 0 && in_b >= 0 && out_a >= 0 && out_b >= 0);
    static struct ring_reader ra, rb;
    ra = (struct ring_reader){in_a, kRingPortA, pred, count[kRingPortA], 0, 0};
    rb = (struct ring_reader){in_b, kRingPortB, pred, count[kRingPortB], 0, 0};
    nvx_thread_t ta, tb;
    CHECK_EQ(ikc_spawn(&ta, ring_read, &ra), 0);
    CHECK_EQ(ikc_spawn(&tb, ring_read, &rb), 0);
    /* both readers asleep everywhere before anyone writes */
    CHECK_EQ(ikc_wait_for_sleeper(in_a, 0, 0), 0);
    CHECK_EQ(ikc_wait_for_sleeper(in_b, 0, 0), 0);
    CHECK_EQ(ikc_barrier(&g_env), 0);

    unsigned seq[NVX_IKC_PORTS] = {0};
    long bad_writes = 0;
    for (unsigned i = 0; i < kRingMessages; i++) {
        unsigned port = ring_port(i);
        size_t len = ikc_make_msg(msg, rank, 0, port, seq[port]++, 0);
        if (nvx_mailbox_write(port == kRingPortA ? out_a : out_b, msg, len) != (long)len) bad_writes++;
        sent_bytes[port] += len;
    }
    CHECK_EQ(bad_writes, 0);
    CHECK_EQ(nvx_thread_join(ta, 0), 0);
    CHECK_EQ(nvx_thread_join(tb, 0), 0);
    CHECK_EQ(ra.errors, 0);
    CHECK_EQ(rb.errors, 0);

    struct nvx_ikc_stats s = stats_of(out_a);
    CHECK_EQ(s.messages, count[kRingPortA]);
    CHECK_EQ(s.bytes, sent_bytes[kRingPortA]);
    CHECK_EQ(s.hw_transfers, count[kRingPortA]); /* one hardware message each */
    CHECK(s.modeled_cycles >= s.hw_transfers); /* every NoC transfer has a modeled cost */
    s = stats_of(out_b);
    CHECK_EQ(s.messages, count[kRingPortB]);
    CHECK_EQ(s.bytes, sent_bytes[kRingPortB]);
    CHECK_EQ(s.hw_transfers, count[kRingPortB]);
    /* the predecessor sends the same pattern: same counts and sizes arrive here */
    s = stats_of(in_a);
    CHECK_EQ(s.messages, count[kRingPortA]);
    CHECK_EQ(s.bytes, ra.bytes);
    CHECK_EQ(s.hw_transfers, count[kRingPortA]); /* each came as one hardware message */
    CHECK(s.waits >= 1);
    s = stats_of(in_b);
    CHECK_EQ(s.messages, count[kRingPortB]);
    CHECK_EQ(s.bytes, rb.bytes);
    CHECK_EQ(s.hw_transfers, count[kRingPortB]);
    CHECK(s.waits >= 1);

    CHECK_EQ(ikc_barrier(&g_env), 0); /* nobody still sends to these ports */
    CHECK_EQ(nvx_mailbox_close(out_a), 0);
    CHECK_EQ(nvx_mailbox_close(out_b), 0);
    CHECK_EQ(nvx_mailbox_unlink(in_a), 0);
    CHECK_EQ(nvx_mailbox_unlink(in_b), 0);
}

/* ---- many virtual mailboxes on one physical mailbox ---- */

struct port_reader {
    long id;
    unsigned port;
    unsigned pred, own;  /* ranks of the remote and the local senders */
    uint32_t next_remote[kManySenders];
    uint32_t next_local;
    long errors;
};

static void *port_read(void *arg)
{
    struct port_reader *r = arg;
    uint8_t buf[NVX_MAILBOX_MSG_MAX];
    const unsigned total = (kManySenders + 1) * kManyPerPort;
    for (unsigned i = 0; i < total; i++) {
        struct ikc_tag tag;
        long got = nvx_mailbox_read(r->id, buf, sizeof buf);
        int bad = ikc_check_msg(buf, got, &tag);
        if (bad == 0 && tag.port != r->port) bad = -5;
        if (bad == 0) {
            uint32_t *next = 0;
            if (tag.rank == r->own && tag.sender == kManySenders) next = &r->next_local;
            else if (tag.rank == r->pred && tag.sender < kManySenders) next = &r->next_remote[tag.sender];
            if (next == 0) bad = -6;
            else if (tag.seq != (*next)++) bad = -7;
        }
        if (bad != 0 && r->errors++ < 3)
            printf("FAIL cluster %u: port %u message %u: got %ld, error %d (from %u/%u port %u seq %u)\n",
                   g_env.info.cluster, r->port, i, got, bad, tag.rank, tag.sender, tag.port, tag.seq);
    }
    return 0;
}

struct port_writer {
    unsigned sender;
    uint32_t target;
    long ids[kManyPorts];
    long errors;
};

static void *port_write(void *arg)
{
    struct port_writer *w = arg;
    uint8_t msg[NVX_MAILBOX_MSG_MAX];
    uint32_t seq[kManyPorts] = {0};
    for (unsigned i = 0; i < kManyPorts * kManyPerPort; i++) {
        unsigned p = (i + w->sender * 3) % kManyPorts;
        size_t len = ikc_make_msg(msg, g_env.rank, w->sender, kManyFirst + p, seq[p]++, 0);
        if (nvx_mailbox_write(w->ids[p], msg, len) != (long)len) w->errors++;
        if ((i & 15) == 0) nvx_thread_yield();
    }
    return 0;
}

static void many_ports_tests(void)
{
    const unsigned n = g_env.n, rank = g_env.rank;
    const unsigned succ = (rank + 1) % n, pred = (rank + n - 1) % n;
    static struct port_reader readers[kManyPorts];
    static struct port_writer writers[kManySenders + 1];
    nvx_thread_t rt[kManyPorts], wt[kManySenders + 1];

    for (unsigned p = 0; p < kManyPorts; p++) {
        memset(&readers[p], 0, sizeof readers[p]);
        readers[p].id = nvx_mailbox_create(g_env.me, kManyFirst + p);
        readers[p].port = kManyFirst + p;
        readers[p].pred = pred;
        readers[p].own = rank;
        CHECK(readers[p].id >= 0);
        CHECK_EQ(ikc_spawn(&rt[p], port_read, &readers[p]), 0);
    }
    for (unsigned s = 0; s <= kManySenders; s++) {
        writers[s].sender = s;
        writers[s].errors = 0;
        writers[s].target = s < kManySenders ? g_env.nodes[succ] : g_env.me; /* the last one is local */
        for (unsigned p = 0; p < kManyPorts; p++) {
            writers[s].ids[p] = nvx_mailbox_open(writers[s].target, kManyFirst + p);
            CHECK(writers[s].ids[p] >= 0);
        }
    }
    CHECK_EQ(ikc_barrier(&g_env), 0); /* every port exists everywhere */
    uint64_t start = ikc_time_us();
    for (unsigned s = 0; s <= kManySenders; s++) CHECK_EQ(ikc_spawn(&wt[s], port_write, &writers[s]), 0);
    for (unsigned s = 0; s <= kManySenders; s++) {
        CHECK_EQ(nvx_thread_join(wt[s], 0), 0);
        CHECK_EQ(writers[s].errors, 0);
    }
    for (unsigned p = 0; p < kManyPorts; p++) {
        CHECK_EQ(nvx_thread_join(rt[p], 0), 0);
        CHECK_EQ(readers[p].errors, 0);
        CHECK_EQ(readers[p].next_local, kManyPerPort);
        for (unsigned s = 0; s < kManySenders; s++) CHECK_EQ(readers[p].next_remote[s], kManyPerPort);
        struct nvx_ikc_stats st = stats_of(readers[p].id);
        CHECK_EQ(st.messages, (kManySenders + 1) * kManyPerPort);
    }
    uint64_t remote_hw = 0;
    for (unsigned s = 0; s <= kManySenders; s++)
        for (unsigned p = 0; p < kManyPorts; p++) {
            struct nvx_ikc_stats st = stats_of(writers[s].ids[p]);
            CHECK_EQ(st.messages, kManyPerPort);
            if (s < kManySenders) remote_hw += st.hw_transfers;
            else CHECK_EQ(st.hw_transfers, 0);
        }
    CHECK_EQ(remote_hw, (uint64_t)kManySenders * kManyPorts * kManyPerPort);
    printf("cluster %u: ikc_mailbox: %u ports, %u messages received in %llu ms\n", g_env.info.cluster, kManyPorts,
           kManyPorts * (kManySenders + 1) * kManyPerPort, (unsigned long long)(ikc_time_us() - start) / 1000);

    CHECK_EQ(ikc_barrier(&g_env), 0);
    for (unsigned s = 0; s <= kManySenders; s++)
        for (unsigned p = 0; p < kManyPorts; p++) CHECK_EQ(nvx_mailbox_close(writers[s].ids[p]), 0);
    for (unsigned p = 0; p < kManyPorts; p++) CHECK_EQ(nvx_mailbox_unlink(readers[p].id), 0);
}

int main(void)
{
    CHECK_EQ(ikc_env_init(&g_env), 0);
    CHECK(g_env.n >= 2);
    local_tests();
    CHECK_EQ(ikc_barrier(&g_env), 0);
    ring_tests();
    many_ports_tests();
    CHECK_EQ(ikc_barrier(&g_env), 0);
    CHECK_EQ(ikc_env_fini(&g_env), 0);
    return check_finish("ikc_mailbox");
}
