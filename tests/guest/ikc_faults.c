/* IKC calls with bad arguments get a clear negative errno and do no harm: bad ids
 * (negative, too big, closed, unlinked, wrong direction), double close and unlink, bad
 * nodes and ports, ports in use, bad sizes, bad user pointers (NULL, kernel, unmapped,
 * read-only for a read, ranges running off the stack), endpoints busy with a sleeping
 * thread, full tables (-ENOSPC) and recovery, sync node lists that cannot be. After all
 * that, mailboxes, portals and syncs still work inside the cluster and between clusters. */
#include "check.h"
#include "ikc_test.h"

enum { kPort = 5, kOtherPort = 6, kRingPort = 7, kMailboxes = NVX_IKC_MAILBOXES, kPortals = NVX_IKC_PORTALS, kSyncs = 16 };

static struct ikc_env g_env;
static unsigned g_free_mailboxes, g_free_portals, g_free_syncs; /* table room at the start */
static const char g_text[64] = "read-only data of the program, fine as a source";
#define TEXT_ADDRESS ((void *)(uintptr_t)main)
#define STACK_END ((char *)NVX_USER_STACK_TOP)

int main(void);
static const long kBadIds[] = {-1, -64, 64, 65, 1000, 0x7fffffff};

static void node_tests(void)
{
    const struct nvx_info *i = &g_env.info;
    CHECK_EQ(nvx_node_of(i->cluster_count, 0), -EINVAL);
    CHECK_EQ(nvx_node_of(-1, 0), -EINVAL);
    CHECK_EQ(nvx_node_of(i->cluster, 1), -EINVAL); /* compute clusters have one node */
    CHECK_EQ(nvx_node_of(i->cluster, -1), -EINVAL);
    CHECK_EQ(nvx_node_of(i->cluster, 0), i->node);
    CHECK_EQ(i->nodes, 1);
    CHECK(i->node < i->node_count);
}

/* ---- mailboxes ---- */

struct blocked_read {
    long id;
    long rc;
    char buf[NVX_MAILBOX_MSG_MAX];
};

static void *read_once(void *arg)
{
    struct blocked_read *b = arg;
    b->rc = nvx_mailbox_read(b->id, b->buf, sizeof b->buf);
    return 0;
}

struct blocked_write {
    long id;
    long rc;
};

static void *write_once(void *arg)
{
    struct blocked_write *b = arg;
    b->rc = nvx_mailbox_write(b->id, "late", 5);
    return 0;
}

static void mailbox_tests(void)
{
    const uint32_t me = g_env.me, other = g_env.nodes[(g_env.rank + 1) % g_env.n];
    const uint32_t count = g_env.info.node_count;
    char buf[NVX_MAILBOX_MSG_MAX + 8];
    struct nvx_ikc_stats s;

    /* create: only own nodes, existing ports, one endpoint per port */
    CHECK_EQ(nvx_mailbox_create(count, kPort), -EINVAL);
    CHECK_EQ(nvx_mailbox_create(-1, kPort), -EINVAL);
    CHECK_EQ(nvx_mailbox_create(other, kPort), -EINVAL);
    CHECK_EQ(nvx_mailbox_create(nvx_node_of(0, 0), kPort), -EINVAL); /* an I/O cluster's node */
    CHECK_EQ(nvx_mailbox_create(me, NVX_IKC_PORTS), -EINVAL);
    CHECK_EQ(nvx_mailbox_create(me, -1), -EINVAL);
    long in = nvx_mailbox_create(me, kPort);
    CHECK(in >= 0);
    CHECK_EQ(nvx_mailbox_create(me, kPort), -EADDRINUSE);
    /* open: any existing node and port */
    CHECK_EQ(nvx_mailbox_open(count, kPort), -EINVAL);
    CHECK_EQ(nvx_mailbox_open(-1, kPort), -EINVAL);
    CHECK_EQ(nvx_mailbox_open(me, NVX_IKC_PORTS), -EINVAL);
    CHECK_EQ(nvx_mailbox_open(other, 1000), -EINVAL);
    long out = nvx_mailbox_open(me, kPort);
    CHECK(out >= 0);

    /* bad ids and wrong directions */
    for (unsigned k = 0; k < sizeof kBadIds / sizeof kBadIds[0]; k++) {
        long id = kBadIds[k];
        CHECK_EQ(nvx_mailbox_read(id, buf, sizeof buf), -EBADF);
        CHECK_EQ(nvx_mailbox_write(id, "x", 1), -EBADF);
        CHECK_EQ(nvx_mailbox_close(id), -EBADF);
        CHECK_EQ(nvx_mailbox_unlink(id), -EBADF);
        CHECK_EQ(nvx_mailbox_stats(id, &s), -EBADF);
    }
    CHECK_EQ(nvx_mailbox_read(out, buf, sizeof buf), -EBADF);
    CHECK_EQ(nvx_mailbox_write(in, "x", 1), -EBADF);
    CHECK_EQ(nvx_mailbox_close(in), -EBADF);
    CHECK_EQ(nvx_mailbox_unlink(out), -EBADF);

    /* sizes */
    CHECK_EQ(nvx_mailbox_write(out, buf, 0), -EINVAL);
    CHECK_EQ(nvx_mailbox_write(out, buf, NVX_MAILBOX_MSG_MAX + 1), -EINVAL);
    CHECK_EQ(nvx_mailbox_write(out, buf, (size_t)-1), -EINVAL);
    CHECK_EQ(nvx_mailbox_read(in, buf, 0), -EINVAL);
    CHECK_EQ(nvx_syscall4(NVX_SYS_MAILBOX_WRITE, out, (long)buf, 1, 2), -EINVAL);  /* unknown flag */
    CHECK_EQ(nvx_syscall4(NVX_SYS_MAILBOX_WRITE, out, (long)buf, 1, -1), -EINVAL);

    /* pointers: the write's source must be readable, the read's buffer writable */
    CHECK_EQ(nvx_mailbox_write(out, 0, 8), -EFAULT);
    CHECK_EQ(nvx_mailbox_write(out, KERNEL_ADDRESS, 8), -EFAULT);
    CHECK_EQ(nvx_mailbox_write(out, UNMAPPED, 8), -EFAULT);
    CHECK_EQ(nvx_mailbox_write(out, STACK_END - 64, 128), -EFAULT); /* runs off the stack */
    CHECK_EQ(nvx_mailbox_stats(out, &s), 0);
    CHECK_EQ(s.messages, 0); /* nothing was sent */
    CHECK_EQ(nvx_mailbox_write(out, g_text, sizeof g_text), (long)sizeof g_text); /* read-only source: fine */
    CHECK_EQ(nvx_mailbox_read(in, 0, sizeof buf), -EFAULT);
    CHECK_EQ(nvx_mailbox_read(in, KERNEL_ADDRESS, sizeof buf), -EFAULT);
    CHECK_EQ(nvx_mailbox_read(in, UNMAPPED, sizeof buf), -EFAULT);
    CHECK_EQ(nvx_mailbox_read(in, TEXT_ADDRESS, sizeof buf), -EFAULT);
    CHECK_EQ(nvx_mailbox_read(in, (void *)g_text, sizeof buf), -EFAULT);
    CHECK_EQ(nvx_mailbox_read(in, STACK_END - 64, 128), -EFAULT);
    /* the origin must be writable too */
    CHECK_EQ(nvx_mailbox_read_from(in, buf, sizeof buf, KERNEL_ADDRESS), -EFAULT);
    CHECK_EQ(nvx_mailbox_read_from(in, buf, sizeof buf, UNMAPPED), -EFAULT);
    CHECK_EQ(nvx_mailbox_read_from(in, buf, sizeof buf, (struct nvx_mailbox_origin *)g_text), -EFAULT);
    /* ... and the message is still there */
    memset(buf, 0, sizeof buf);
    CHECK_EQ(nvx_mailbox_read(in, buf, sizeof buf), (long)sizeof g_text);
    CHECK_EQ(memcmp(buf, g_text, sizeof g_text), 0);
    CHECK_EQ(nvx_mailbox_stats(in, 0), -EFAULT);
    CHECK_EQ(nvx_mailbox_stats(in, KERNEL_ADDRESS), -EFAULT);
    CHECK_EQ(nvx_mailbox_stats(in, UNMAPPED), -EFAULT);
    CHECK_EQ(nvx_mailbox_stats(in, TEXT_ADDRESS), -EFAULT);
    CHECK_EQ(nvx_mailbox_stats(in, (void *)(STACK_END - 8)), -EFAULT);
    CHECK_EQ(nvx_mailbox_stats(in, &s), 0);
    CHECK_EQ(s.messages, 1);

    /* an input with a sleeping reader cannot be unlinked */
    static struct blocked_read br;
    nvx_thread_t t;
    br.id = in;
    br.rc = -1;
    uint64_t waits = ikc_waits(in, 0);
    CHECK_EQ(ikc_spawn(&t, read_once, &br), 0);
    CHECK_EQ(ikc_wait_for_sleeper(in, 0, waits), 0);
    CHECK_EQ(nvx_mailbox_unlink(in), -EBUSY);
    CHECK_EQ(nvx_mailbox_write(out, "wake", 5), 5);
    CHECK_EQ(nvx_thread_join(t, 0), 0);
    CHECK_EQ(br.rc, 5);
    CHECK_EQ(memcmp(br.buf, "wake", 5), 0);

    /* an output with a sleeping (pushed-back) writer cannot be closed: fill the port to
     * its quota first; a non-blocking write then fails at once, sending nothing */
    unsigned filled = 0;
    for (unsigned i = 0; i < NVX_MAILBOX_PORT_QUOTA; i++) filled += nvx_mailbox_write(out, &i, sizeof i) == (long)sizeof i;
    CHECK_EQ(filled, NVX_MAILBOX_PORT_QUOTA);
    CHECK_EQ(nvx_mailbox_try_write(out, "no", 3), -EAGAIN);
    static struct blocked_write bw;
    bw.id = out;
    bw.rc = -1;
    waits = ikc_waits(out, 0);
    CHECK_EQ(ikc_spawn(&t, write_once, &bw), 0);
    CHECK_EQ(ikc_wait_for_sleeper(out, 0, waits), 0);
    CHECK_EQ(nvx_mailbox_close(out), -EBUSY);
    unsigned in_order = 0;
    for (unsigned i = 0; i < NVX_MAILBOX_PORT_QUOTA; i++) {
        unsigned v = ~0u;
        in_order += nvx_mailbox_read(in, &v, sizeof v) == (long)sizeof v && v == i;
    }
    CHECK_EQ(in_order, NVX_MAILBOX_PORT_QUOTA);
    CHECK_EQ(nvx_thread_join(t, 0), 0);
    CHECK_EQ(bw.rc, 5);
    CHECK_EQ(nvx_mailbox_read(in, buf, sizeof buf), 5);
    CHECK_EQ(memcmp(buf, "late", 5), 0);

    /* close and unlink once; then the ids are gone */
    CHECK_EQ(nvx_mailbox_close(out), 0);
    CHECK_EQ(nvx_mailbox_close(out), -EBADF);
    CHECK_EQ(nvx_mailbox_write(out, "x", 1), -EBADF);
    CHECK_EQ(nvx_mailbox_stats(out, &s), -EBADF);
    CHECK_EQ(nvx_mailbox_unlink(in), 0);
    CHECK_EQ(nvx_mailbox_unlink(in), -EBADF);
    CHECK_EQ(nvx_mailbox_read(in, buf, sizeof buf), -EBADF);
    CHECK_EQ(nvx_mailbox_stats(in, &s), -EBADF);
    CHECK_EQ(nvx_mailbox_close(in), -EBADF);

    /* a full table: -ENOSPC for open and create, until something is freed */
    long ids[kMailboxes + 1];
    unsigned got = 0;
    for (; got <= kMailboxes; got++) {
        ids[got] = nvx_mailbox_open(other, got % NVX_IKC_PORTS);
        if (ids[got] < 0) break;
    }
    CHECK_EQ(got, g_free_mailboxes); /* the same as at the start: nothing leaked */
    CHECK_EQ(ids[got < kMailboxes ? got : kMailboxes], -ENOSPC);
    CHECK_EQ(nvx_mailbox_open(me, kPort), -ENOSPC);
    CHECK_EQ(nvx_mailbox_create(me, kPort), -ENOSPC);
    CHECK_EQ(nvx_mailbox_close(ids[17]), 0);
    in = nvx_mailbox_create(me, kPort);
    CHECK_EQ(in, ids[17]); /* the freed slot */
    CHECK_EQ(nvx_mailbox_open(me, kPort), -ENOSPC);
    CHECK_EQ(nvx_mailbox_unlink(in), 0);
    unsigned closed = 0;
    for (unsigned i = 0; i < got; i++)
        if (i != 17) closed += nvx_mailbox_close(ids[i]) == 0;
    CHECK_EQ(closed, got - 1);

    /* everything works again */
    in = nvx_mailbox_create(me, kPort);
    out = nvx_mailbox_open(me, kPort);
    CHECK(in >= 0 && out >= 0);
    CHECK_EQ(nvx_mailbox_write(out, "again", 6), 6);
    CHECK_EQ(nvx_mailbox_read(in, buf, sizeof buf), 6);
    CHECK_EQ(memcmp(buf, "again", 6), 0);
    CHECK_EQ(nvx_mailbox_close(out), 0);
    CHECK_EQ(nvx_mailbox_unlink(in), 0);
}

/* ---- portals ---- */

struct portal_read_job {
    long id;
    void *buf;
    size_t size;
    long rc;
};

static void *portal_read_once(void *arg)
{
    struct portal_read_job *j = arg;
    j->rc = nvx_portal_read(j->id, j->buf, j->size);
    return 0;
}

static void portal_tests(void)
{
    const uint32_t me = g_env.me, other = g_env.nodes[(g_env.rank + 1) % g_env.n];
    const uint32_t count = g_env.info.node_count;
    static char buf[8192];
    struct nvx_ikc_stats s;

    CHECK_EQ(nvx_portal_create(count, kPort), -EINVAL);
    CHECK_EQ(nvx_portal_create(-1, kPort), -EINVAL);
    CHECK_EQ(nvx_portal_create(other, kPort), -EINVAL);
    CHECK_EQ(nvx_portal_create(nvx_node_of(0, 0), kPort), -EINVAL);
    CHECK_EQ(nvx_portal_create(me, NVX_IKC_PORTS), -EINVAL);
    long in = nvx_portal_create(me, kPort);
    CHECK(in >= 0);
    CHECK_EQ(nvx_portal_create(me, kPort), -EADDRINUSE);
    CHECK_EQ(nvx_portal_open(count, kPort), -EINVAL);
    CHECK_EQ(nvx_portal_open(me, NVX_IKC_PORTS), -EINVAL);
    CHECK_EQ(nvx_portal_open(me, -1), -EINVAL);
    long out = nvx_portal_open(me, kPort);
    CHECK(out >= 0);

    for (unsigned k = 0; k < sizeof kBadIds / sizeof kBadIds[0]; k++) {
        long id = kBadIds[k];
        CHECK_EQ(nvx_portal_allow(id, me), -EBADF);
        CHECK_EQ(nvx_portal_read(id, buf, 16), -EBADF);
        CHECK_EQ(nvx_portal_write(id, buf, 16), -EBADF);
        CHECK_EQ(nvx_portal_close(id), -EBADF);
        CHECK_EQ(nvx_portal_unlink(id), -EBADF);
        CHECK_EQ(nvx_portal_stats(id, &s), -EBADF);
    }
    CHECK_EQ(nvx_portal_allow(out, me), -EBADF);
    CHECK_EQ(nvx_portal_read(out, buf, 16), -EBADF);
    CHECK_EQ(nvx_portal_write(in, buf, 16), -EBADF);
    CHECK_EQ(nvx_portal_close(in), -EBADF);
    CHECK_EQ(nvx_portal_unlink(out), -EBADF);

    /* reads need an allow; allow needs an existing node */
    CHECK_EQ(nvx_portal_read(in, buf, 16), -EPERM);
    CHECK_EQ(nvx_portal_allow(in, count), -EINVAL);
    CHECK_EQ(nvx_portal_allow(in, -1), -EINVAL);
    CHECK_EQ(nvx_portal_read(in, buf, 16), -EPERM);
    CHECK_EQ(nvx_portal_allow(in, me), 0);
    CHECK_EQ(nvx_portal_allow(in, me), 0); /* allowing again before reading is fine */

    /* sizes and pointers, with the allow in place: none of them uses it up */
    CHECK_EQ(nvx_portal_read(in, buf, 0), -EINVAL);
    CHECK_EQ(nvx_portal_read(in, buf, NVX_PORTAL_MAX + 1ul), -EINVAL);
    CHECK_EQ(nvx_portal_read(in, buf, (size_t)-1), -EINVAL);
    CHECK_EQ(nvx_portal_read(in, buf, NVX_PORTAL_MAX), -EFAULT); /* far past the buffer */
    CHECK_EQ(nvx_portal_read(in, 0, 16), -EFAULT);
    CHECK_EQ(nvx_portal_read(in, KERNEL_ADDRESS, 16), -EFAULT);
    CHECK_EQ(nvx_portal_read(in, UNMAPPED, 16), -EFAULT);
    CHECK_EQ(nvx_portal_read(in, TEXT_ADDRESS, 16), -EFAULT);
    CHECK_EQ(nvx_portal_read(in, (void *)g_text, 16), -EFAULT);
    CHECK_EQ(nvx_portal_read(in, STACK_END - 100, 200), -EFAULT);
    CHECK_EQ(nvx_portal_write(out, buf, 0), -EINVAL);
    CHECK_EQ(nvx_portal_write(out, buf, NVX_PORTAL_MAX + 1ul), -EINVAL);
    CHECK_EQ(nvx_portal_write(out, buf, (size_t)-1), -EINVAL);
    CHECK_EQ(nvx_portal_write(out, 0, 16), -EFAULT);
    CHECK_EQ(nvx_portal_write(out, KERNEL_ADDRESS, 16), -EFAULT);
    CHECK_EQ(nvx_portal_write(out, UNMAPPED, 16), -EFAULT);
    CHECK_EQ(nvx_portal_write(out, STACK_END - 100, 200), -EFAULT);
    CHECK_EQ(nvx_portal_write(out, buf, NVX_PORTAL_MAX), -EFAULT);
    CHECK_EQ(nvx_portal_stats(in, 0), -EFAULT);
    CHECK_EQ(nvx_portal_stats(in, KERNEL_ADDRESS), -EFAULT);
    CHECK_EQ(nvx_portal_stats(in, TEXT_ADDRESS), -EFAULT);
    CHECK_EQ(nvx_portal_stats(out, UNMAPPED), -EFAULT);
    CHECK_EQ(nvx_portal_stats(out, &s), 0);
    CHECK_EQ(s.messages, 0);
    CHECK_EQ(s.waits, 0);

    /* a reader asleep: a second read and a new allow are refused, unlink too; a write
     * from read-only memory completes the read */
    static struct portal_read_job rj;
    nvx_thread_t t;
    rj = (struct portal_read_job){in, buf, sizeof buf, -1};
    uint64_t waits = ikc_waits(in, 1);
    CHECK_EQ(ikc_spawn(&t, portal_read_once, &rj), 0);
    CHECK_EQ(ikc_wait_for_sleeper(in, 1, waits), 0);
    CHECK_EQ(nvx_portal_read(in, buf, 16), -EBUSY);
    CHECK_EQ(nvx_portal_allow(in, me), -EBUSY);
    CHECK_EQ(nvx_portal_unlink(in), -EBUSY);
    CHECK_EQ(nvx_portal_write(out, g_text, sizeof g_text), (long)sizeof g_text);
    CHECK_EQ(nvx_thread_join(t, 0), 0);
    CHECK_EQ(rj.rc, (long)sizeof g_text);
    CHECK_EQ(memcmp(buf, g_text, sizeof g_text), 0);
    CHECK_EQ(nvx_portal_read(in, buf, 16), -EPERM); /* the allow was used */
    CHECK_EQ(nvx_portal_stats(in, &s), 0);
    CHECK_EQ(s.messages, 1);
    CHECK_EQ(s.bytes, sizeof g_text);

    /* lifecycle */
    CHECK_EQ(nvx_portal_close(out), 0);
    CHECK_EQ(nvx_portal_close(out), -EBADF);
    CHECK_EQ(nvx_portal_write(out, buf, 16), -EBADF);
    CHECK_EQ(nvx_portal_unlink(in), 0);
    CHECK_EQ(nvx_portal_unlink(in), -EBADF);
    CHECK_EQ(nvx_portal_allow(in, me), -EBADF);
    CHECK_EQ(nvx_portal_read(in, buf, 16), -EBADF);
    CHECK_EQ(nvx_portal_stats(in, &s), -EBADF);

    /* a full table */
    long ids[kPortals + 1];
    unsigned got = 0;
    for (; got <= kPortals; got++) {
        ids[got] = nvx_portal_open(other, got % NVX_IKC_PORTS);
        if (ids[got] < 0) break;
    }
    CHECK_EQ(got, g_free_portals);
    CHECK_EQ(ids[got < kPortals ? got : kPortals], -ENOSPC);
    CHECK_EQ(nvx_portal_create(me, kPort), -ENOSPC);
    CHECK_EQ(nvx_portal_close(ids[5]), 0);
    in = nvx_portal_create(me, kPort);
    CHECK_EQ(in, ids[5]);
    CHECK_EQ(nvx_portal_open(me, kPort), -ENOSPC);
    CHECK_EQ(nvx_portal_unlink(in), 0);
    unsigned closed = 0;
    for (unsigned i = 0; i < got; i++)
        if (i != 5) closed += nvx_portal_close(ids[i]) == 0;
    CHECK_EQ(closed, got - 1);

    /* works again: a read with the allow made before errors */
    in = nvx_portal_create(me, kPort);
    out = nvx_portal_open(me, kPort);
    CHECK(in >= 0 && out >= 0);
    CHECK_EQ(nvx_portal_allow(in, me), 0);
    CHECK_EQ(nvx_portal_read(in, 0, 16), -EFAULT);
    rj = (struct portal_read_job){in, buf, 100, -1};
    waits = ikc_waits(in, 1);
    CHECK_EQ(ikc_spawn(&t, portal_read_once, &rj), 0);
    CHECK_EQ(ikc_wait_for_sleeper(in, 1, waits), 0);
    CHECK_EQ(nvx_portal_write(out, "again", 6), 6);
    CHECK_EQ(nvx_thread_join(t, 0), 0);
    CHECK_EQ(rj.rc, 6);
    CHECK_EQ(memcmp(buf, "again", 6), 0);
    CHECK_EQ(nvx_portal_close(out), 0);
    CHECK_EQ(nvx_portal_unlink(in), 0);
}

/* ---- syncs ---- */

static void sync_tests(void)
{
    const uint32_t me = g_env.me, other = g_env.nodes[(g_env.rank + 1) % g_env.n];
    const uint32_t count = g_env.info.node_count;
    const uint32_t io = (uint32_t)nvx_node_of(0, 0);
    uint32_t list[4];

    /* ports and types */
    uint32_t ok_wait[2] = {me, other};   /* all-to-one: we wait */
    uint32_t ok_signal[2] = {other, me}; /* all-to-one: we signal */
    CHECK_EQ(nvx_sync_create(NVX_SYNC_PORTS, ok_wait, 2, NVX_SYNC_ALL_TO_ONE), -EINVAL);
    CHECK_EQ(nvx_sync_create(-1, ok_wait, 2, NVX_SYNC_ALL_TO_ONE), -EINVAL);
    CHECK_EQ(nvx_sync_create(0, ok_wait, 2, 2), -EINVAL);
    CHECK_EQ(nvx_sync_create(0, ok_wait, 2, -1), -EINVAL);
    CHECK_EQ(nvx_sync_open(NVX_SYNC_PORTS, ok_signal, 2, NVX_SYNC_ALL_TO_ONE), -EINVAL);
    CHECK_EQ(nvx_sync_open(0, ok_signal, 2, 7), -EINVAL);
    /* counts */
    CHECK_EQ(nvx_sync_create(0, ok_wait, 0, NVX_SYNC_ALL_TO_ONE), -EINVAL);
    CHECK_EQ(nvx_sync_create(0, ok_wait, 1, NVX_SYNC_ALL_TO_ONE), -EINVAL);
    CHECK_EQ(nvx_sync_open(0, ok_signal, 1, NVX_SYNC_ALL_TO_ONE), -EINVAL);
    CHECK_EQ(nvx_sync_create(0, ok_wait, count + 1, NVX_SYNC_ALL_TO_ONE), -EINVAL);
    CHECK_EQ(nvx_sync_open(0, ok_signal, -1, NVX_SYNC_ALL_TO_ONE), -EINVAL);
    /* list pointers */
    CHECK_EQ(nvx_sync_create(0, 0, 2, NVX_SYNC_ALL_TO_ONE), -EFAULT);
    CHECK_EQ(nvx_sync_create(0, KERNEL_ADDRESS, 2, NVX_SYNC_ALL_TO_ONE), -EFAULT);
    CHECK_EQ(nvx_sync_open(0, UNMAPPED, 2, NVX_SYNC_ALL_TO_ONE), -EFAULT);
    CHECK_EQ(nvx_sync_open(0, (uint32_t *)(STACK_END - 4), 2, NVX_SYNC_ALL_TO_ONE), -EFAULT);
    /* nodes that do not exist, duplicates */
    list[0] = me, list[1] = count;
    CHECK_EQ(nvx_sync_create(0, list, 2, NVX_SYNC_ALL_TO_ONE), -EINVAL);
    list[0] = me, list[1] = -1u;
    CHECK_EQ(nvx_sync_create(0, list, 2, NVX_SYNC_ALL_TO_ONE), -EINVAL);
    list[0] = me, list[1] = other, list[2] = other;
    CHECK_EQ(nvx_sync_create(0, list, 3, NVX_SYNC_ALL_TO_ONE), -EINVAL);
    list[0] = me, list[1] = me;
    CHECK_EQ(nvx_sync_create(0, list, 2, NVX_SYNC_ALL_TO_ONE), -EINVAL);
    list[0] = other, list[1] = me, list[2] = me;
    CHECK_EQ(nvx_sync_open(0, list, 3, NVX_SYNC_ALL_TO_ONE), -EINVAL);
    /* lists whose roles do not include this cluster */
    list[0] = other, list[1] = io;
    CHECK_EQ(nvx_sync_create(0, list, 2, NVX_SYNC_ALL_TO_ONE), -EINVAL); /* not ours to wait */
    CHECK_EQ(nvx_sync_open(0, list, 2, NVX_SYNC_ALL_TO_ONE), -EINVAL);
    CHECK_EQ(nvx_sync_create(0, list, 2, NVX_SYNC_ONE_TO_ALL), -EINVAL);
    CHECK_EQ(nvx_sync_open(0, list, 2, NVX_SYNC_ONE_TO_ALL), -EINVAL);
    CHECK_EQ(nvx_sync_create(0, ok_signal, 2, NVX_SYNC_ALL_TO_ONE), -EINVAL); /* we are not nodes[0] */
    CHECK_EQ(nvx_sync_open(0, ok_wait, 2, NVX_SYNC_ALL_TO_ONE), -EINVAL);     /* we are nodes[0] */
    CHECK_EQ(nvx_sync_create(0, ok_wait, 2, NVX_SYNC_ONE_TO_ALL), -EINVAL);   /* nodes[0] signals */
    CHECK_EQ(nvx_sync_open(0, ok_signal, 2, NVX_SYNC_ONE_TO_ALL), -EINVAL);

    /* good ones: ids, directions, ports in use */
    long wait_id = nvx_sync_create(0, ok_wait, 2, NVX_SYNC_ALL_TO_ONE);
    CHECK(wait_id >= 0);
    CHECK_EQ(nvx_sync_create(0, ok_wait, 2, NVX_SYNC_ALL_TO_ONE), -EADDRINUSE);
    CHECK_EQ(nvx_sync_create(0, ok_signal, 2, NVX_SYNC_ONE_TO_ALL), -EADDRINUSE); /* same register */
    long signal_id = nvx_sync_open(0, ok_signal, 2, NVX_SYNC_ALL_TO_ONE);
    CHECK(signal_id >= 0);
    long signal_id2 = nvx_sync_open(0, ok_signal, 2, NVX_SYNC_ALL_TO_ONE); /* outputs may repeat */
    CHECK(signal_id2 >= 0);
    for (unsigned k = 0; k < sizeof kBadIds / sizeof kBadIds[0]; k++) {
        long id = kBadIds[k];
        CHECK_EQ(nvx_sync_wait(id), -EBADF);
        CHECK_EQ(nvx_sync_signal(id), -EBADF);
        CHECK_EQ(nvx_sync_close(id), -EBADF);
        CHECK_EQ(nvx_sync_unlink(id), -EBADF);
    }
    CHECK_EQ(nvx_sync_wait(signal_id), -EBADF);
    CHECK_EQ(nvx_sync_signal(wait_id), -EBADF);
    CHECK_EQ(nvx_sync_close(wait_id), -EBADF);
    CHECK_EQ(nvx_sync_unlink(signal_id), -EBADF);
    CHECK_EQ(nvx_sync_close(signal_id), 0);
    CHECK_EQ(nvx_sync_close(signal_id), -EBADF);
    CHECK_EQ(nvx_sync_signal(signal_id), -EBADF);
    CHECK_EQ(nvx_sync_close(signal_id2), 0);
    CHECK_EQ(nvx_sync_unlink(wait_id), 0);
    CHECK_EQ(nvx_sync_unlink(wait_id), -EBADF);
    CHECK_EQ(nvx_sync_wait(wait_id), -EBADF);

    /* a full table */
    long ids[kSyncs + 1];
    unsigned got = 0;
    for (; got <= kSyncs; got++) {
        ids[got] = nvx_sync_open(got % NVX_SYNC_PORTS, ok_signal, 2, NVX_SYNC_ALL_TO_ONE);
        if (ids[got] < 0) break;
    }
    CHECK_EQ(got, g_free_syncs);
    CHECK_EQ(ids[got < kSyncs ? got : kSyncs], -ENOSPC);
    CHECK_EQ(nvx_sync_create(0, ok_wait, 2, NVX_SYNC_ALL_TO_ONE), -ENOSPC);
    CHECK_EQ(nvx_sync_close(ids[3]), 0);
    wait_id = nvx_sync_create(0, ok_wait, 2, NVX_SYNC_ALL_TO_ONE);
    CHECK_EQ(wait_id, ids[3]);
    CHECK_EQ(nvx_sync_unlink(wait_id), 0);
    unsigned closed = 0;
    for (unsigned i = 0; i < got; i++)
        if (i != 3) closed += nvx_sync_close(ids[i]) == 0;
    CHECK_EQ(closed, got - 1);
}

/* ---- afterwards, between clusters: a mailbox and a portal ring, and barriers ---- */

static void ring_after_faults(void)
{
    const unsigned n = g_env.n, rank = g_env.rank;
    const uint32_t succ = g_env.nodes[(rank + 1) % n], pred = g_env.nodes[(rank + n - 1) % n];
    long min = nvx_mailbox_create(g_env.me, kRingPort), mout = nvx_mailbox_open(succ, kRingPort);
    long pin = nvx_portal_create(g_env.me, kRingPort), pout = nvx_portal_open(succ, kRingPort);
    CHECK(min >= 0 && mout >= 0 && pin >= 0 && pout >= 0);
    CHECK_EQ(nvx_portal_allow(pin, pred), 0);
    CHECK_EQ(ikc_barrier(&g_env), 0);
    uint32_t word = 0xc0de0000u + rank, got = 0;
    CHECK_EQ(nvx_mailbox_write(mout, &word, sizeof word), (long)sizeof word);
    CHECK_EQ(nvx_mailbox_read(min, &got, sizeof got), (long)sizeof got);
    CHECK_EQ(got, 0xc0de0000u + (rank + n - 1) % n);
    /* the portal: a reader thread, since the writes wait for the successor's read */
    static struct portal_read_job rj;
    static char page[5000];
    nvx_thread_t t;
    rj = (struct portal_read_job){pin, page, sizeof page, -1};
    CHECK_EQ(ikc_spawn(&t, portal_read_once, &rj), 0);
    static uint8_t data[5000];
    ikc_fill(data, sizeof data, 99 + rank);
    CHECK_EQ(nvx_portal_write(pout, data, sizeof data), (long)sizeof data);
    CHECK_EQ(nvx_thread_join(t, 0), 0);
    CHECK_EQ(rj.rc, (long)sizeof data);
    CHECK_EQ(ikc_verify((uint8_t *)page, sizeof page, 99 + (rank + n - 1) % n), -1);
    CHECK_EQ(ikc_barrier(&g_env), 0);
    CHECK_EQ(nvx_mailbox_close(mout), 0);
    CHECK_EQ(nvx_mailbox_unlink(min), 0);
    CHECK_EQ(nvx_portal_close(pout), 0);
    CHECK_EQ(nvx_portal_unlink(pin), 0);
}

/* Endpoints that can be opened now, until -ENOSPC (all closed again). */
static unsigned free_endpoints(int kind)
{
    static long ids[kMailboxes + kPortals + kSyncs];
    uint32_t list[2] = {g_env.nodes[(g_env.rank + 1) % g_env.n], g_env.me};
    unsigned got = 0;
    long rc = 0;
    for (; got < sizeof ids / sizeof ids[0]; got++) {
        rc = kind == 0 ? nvx_mailbox_open(list[0], got % NVX_IKC_PORTS)
           : kind == 1 ? nvx_portal_open(list[0], got % NVX_IKC_PORTS)
                       : nvx_sync_open(got % NVX_SYNC_PORTS, list, 2, NVX_SYNC_ALL_TO_ONE);
        if (rc < 0) break;
        ids[got] = rc;
    }
    CHECK_EQ(rc, -ENOSPC);
    unsigned closed = 0;
    for (unsigned i = 0; i < got; i++)
        closed += (kind == 0 ? nvx_mailbox_close(ids[i]) : kind == 1 ? nvx_portal_close(ids[i]) : nvx_sync_close(ids[i])) == 0;
    CHECK_EQ(closed, got);
    return got;
}

int main(void)
{
    CHECK_EQ(ikc_env_init(&g_env), 0);
    CHECK(g_env.n >= 2);
    /* the tables' free room before anything else: later exhaustion must find the same
     * (the program holds nothing else but the barrier's two syncs; a few slots may
     * belong to system services) */
    g_free_mailboxes = free_endpoints(0);
    g_free_portals = free_endpoints(1);
    g_free_syncs = free_endpoints(2);
    CHECK(g_free_mailboxes > kMailboxes - 8 && g_free_mailboxes <= kMailboxes);
    CHECK(g_free_portals > kPortals - 8 && g_free_portals <= kPortals);
    CHECK(g_free_syncs > kSyncs - 2 - 4 && g_free_syncs <= kSyncs - 2);
    node_tests();
    mailbox_tests();
    portal_tests();
    sync_tests();
    CHECK_EQ(ikc_barrier(&g_env), 0);
    ring_after_faults();
    CHECK_EQ(ikc_env_fini(&g_env), 0);
    return check_finish("ikc_faults");
}
