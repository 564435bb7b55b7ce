/* Head-of-line blocking: a port nobody reads stops only its own
 * senders. Every compute cluster A sends to the next one, B: it fills B's message buffers
 * with messages for ports B reads only at the end (5 to its quota, 6 with the rest), sends
 * one more for port 7 (not even created yet), starts a thread that floods port 6, and then
 * writes to port 8, which B reads. Before per-port flow control the message for port 7 sat
 * in B's hardware slot for A and the writes to port 8 waited behind it forever. Then B
 * drains every port, and every message arrives once, in order per port. */
#include "check.h"
#include "ikc_test.h"

enum {
    kQuotaPort = 5,   /* filled to its quota */
    kFloodPort = 6,   /* the rest of the buffers, then a flood from a second thread */
    kLatePort = 7,    /* created only at the end */
    kLivePort = 8,    /* read at once */
    kFlood = 100,     /* flood messages, beyond what any buffer could take */
    kLive = 20,       /* messages to the live port */
};

static long g_to[NVX_IKC_PORTS];
static long g_flood_result;

static void send_seq(long out, unsigned port, unsigned seq)
{
    uint8_t buf[NVX_MAILBOX_MSG_MAX];
    size_t len = ikc_make_msg(buf, 0, 0, port, seq, 24);
    TCHECK_EQ(nvx_mailbox_write(out, buf, len), (long)len);
}

/* Reads `count` messages of `port` and checks they are seq first, first + 1, ... */
static void expect_seq(long in, unsigned port, unsigned first, unsigned count)
{
    long bad = 0;
    for (unsigned i = first; i < first + count; i++) {
        uint8_t buf[NVX_MAILBOX_MSG_MAX];
        struct ikc_tag tag;
        long got = nvx_mailbox_read(in, buf, sizeof buf);
        if (ikc_check_msg(buf, got, &tag) != 0 || tag.port != port || tag.seq != i) bad++;
    }
    TCHECK_EQ(bad, 0);
}

static long g_live_in;
static void *read_live(void *arg)
{
    (void)arg;
    expect_seq(g_live_in, kLivePort, 0, kLive);
    return 0;
}

static void *flood(void *arg)
{
    (void)arg;
    unsigned first = NVX_MAILBOX_BUFFERS - NVX_MAILBOX_PORT_QUOTA;
    for (unsigned i = first; i < first + kFlood; i++) send_seq(g_to[kFloodPort], kFloodPort, i);
    g_flood_result = 1;
    return 0;
}

int main(void)
{
    static struct ikc_env e;
    CHECK_EQ(ikc_env_init(&e), 0);
    if (e.n < 2) return check_finish("ikc_hol");
    uint32_t next = e.nodes[(e.rank + 1) % e.n];
    long quota_in = nvx_mailbox_create(e.me, kQuotaPort), flood_in = nvx_mailbox_create(e.me, kFloodPort);
    long live_in = nvx_mailbox_create(e.me, kLivePort);
    CHECK(quota_in >= 0 && flood_in >= 0 && live_in >= 0);
    for (unsigned p = kQuotaPort; p <= kLivePort; p++) CHECK((g_to[p] = nvx_mailbox_open(next, p)) >= 0);
    nvx_thread_t reader;
    g_live_in = live_in;
    CHECK_EQ(ikc_spawn(&reader, read_live, 0), 0);
    CHECK_EQ(ikc_barrier(&e), 0);

    /* the next cluster's buffers fill with messages nobody reads yet, none beyond a quota */
    for (unsigned i = 0; i < NVX_MAILBOX_PORT_QUOTA; i++) send_seq(g_to[kQuotaPort], kQuotaPort, i);
    for (unsigned i = 0; i < NVX_MAILBOX_BUFFERS - NVX_MAILBOX_PORT_QUOTA; i++) send_seq(g_to[kFloodPort], kFloodPort, i);
    send_seq(g_to[kLatePort], kLatePort, 0);  /* no room: refused back to our kernel */
    nvx_thread_t t;
    CHECK_EQ(ikc_spawn(&t, flood, 0), 0);     /* stopped by flow control, never dropped */

    /* the live port works meanwhile (its reader is a thread: every cluster writes too) */
    for (unsigned i = 0; i < kLive; i++) send_seq(g_to[kLivePort], kLivePort, i);
    CHECK_EQ(nvx_thread_join(reader, 0), 0);
    CHECK_EQ(ikc_barrier(&e), 0);

    /* drain everything: each port's messages once, in order */
    expect_seq(quota_in, kQuotaPort, 0, NVX_MAILBOX_PORT_QUOTA);
    long late_in = nvx_mailbox_create(e.me, kLatePort);
    CHECK(late_in >= 0);
    expect_seq(late_in, kLatePort, 0, 1);
    expect_seq(flood_in, kFloodPort, 0, NVX_MAILBOX_BUFFERS - NVX_MAILBOX_PORT_QUOTA + kFlood);
    CHECK_EQ(nvx_thread_join(t, 0), 0);
    CHECK_EQ(g_flood_result, 1);
    CHECK_EQ(ikc_barrier(&e), 0);
    CHECK_EQ(ikc_env_fini(&e), 0);
    return check_finish("ikc_hol");
}
