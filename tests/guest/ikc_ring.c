/* Receive rings (struct nvx_mailbox_ring, nvx_mailbox_ring_attach): messages that arrived
 * before the attach and after it come in each sender's order with their origin and a
 * virtual time no earlier than their sending; a full ring stalls the kernel, whose messages
 * then wait in its buffers and at their senders (a nonblocking write is refused, a blocking
 * one sleeps) and come in order, nothing lost, once the reader makes room; several local
 * threads and a remote cluster write at once while the reader sleeps on the notify word;
 * detaching, unlinking and the attaching thread's end give the port back to reads, and
 * the messages still in the kernel go to them; bad calls get clear errors. */
#include <stdlib.h>
#include <nvx/clock.h>
#include "check.h"
#include "ikc_test.h"

enum {                  /* ports 0..3 are left to system services */
    kOrderPort = 4,
    kFullPort = 5,
    kThreadsPort = 6,
    kDetachPort = 7,
    kEndPort = 8,
    kErrorPort = 9,
    kRemotePort = 10,
    kWriters = 3,
    kPerWriter = 40,
    kRemoteMessages = 100,
};

static struct ikc_env g_env;

/* A ring of `slots` slots (on the heap: the ring must outlive the calls that use it). */
static struct nvx_mailbox_ring *new_ring(uint32_t slots, uint32_t *notify)
{
    struct nvx_mailbox_ring *r = malloc(NVX_MAILBOX_RING_BYTES(slots));
    if (r == 0) return 0;
    memset(r, 0x5a, NVX_MAILBOX_RING_BYTES(slots)); /* the kernel must set what it owns */
    r->notify = notify;
    r->flags = 0;
    r->slots = slots;
    return r;
}

/* Sends message `seq` of `sender` on `out` to `port`: its length, or -errno. */
static long send_tagged(long out, unsigned sender, unsigned port, uint32_t seq, int nonblocking)
{
    uint8_t msg[NVX_MAILBOX_MSG_MAX];
    size_t len = ikc_make_msg(msg, g_env.rank, sender, port, seq, 0);
    return nonblocking ? nvx_mailbox_try_write(out, msg, len) : nvx_mailbox_write(out, msg, len);
}

/* Takes the next message from the ring (sleeping on the notify word while it is empty),
 * checks it came from `node` and is the next of its sender; returns the sender's index. */
static unsigned take_next(long in, struct nvx_mailbox_ring *r, uint32_t *notify, uint32_t node, uint32_t *next_seq)
{
    const struct nvx_mailbox_slot *s;
    for (;;) {
        uint32_t seen = __atomic_load_n(notify, __ATOMIC_ACQUIRE);
        s = nvx_mailbox_ring_peek(r);
        if (s != 0) break;
        nvx_sys_futex_wait(notify, seen);
    }
    struct ikc_tag tag;
    TCHECK_EQ(ikc_check_msg(s->payload, s->length, &tag), 0);
    TCHECK_EQ(s->node, node);
    TCHECK_EQ(s->flags, 0);
    TCHECK_EQ(tag.seq, next_seq[tag.sender % kWriters]);
    next_seq[tag.sender % kWriters]++;
    if (nvx_clock_is_virtual()) TCHECK(s->at > 0);
    nvx_clock_take(s->at);
    TCHECK(nvx_clock_cycles() >= s->at);
    TCHECK(nvx_mailbox_ring_pop(in, r) >= 0);
    return tag.sender;
}

/* ---- order, origin and time; messages that came before the attach ---- */
static void order_and_time(void)
{
    long in = nvx_mailbox_create(g_env.me, kOrderPort), out = nvx_mailbox_open(g_env.me, kOrderPort);
    TCHECK(in >= 0 && out >= 0);
    for (uint32_t seq = 0; seq < 3; seq++) TCHECK(send_tagged(out, 0, kOrderPort, seq, 0) > 0);
    uint32_t notify = 0;
    struct nvx_mailbox_ring *r = new_ring(8, &notify);
    TCHECK(r != 0);
    TCHECK_EQ(nvx_mailbox_ring_attach(in, r), 0);
    TCHECK_EQ(r->tail, 3); /* the three that waited in the kernel */
    TCHECK_EQ(r->stalled, 0);
    TCHECK_EQ(notify, 1);
    uint64_t before = nvx_clock_cycles();
    TCHECK(send_tagged(out, 0, kOrderPort, 3, 0) > 0);
    TCHECK_EQ(r->tail, 4);
    TCHECK_EQ(r->slot[3].at >= before, 1);
    uint32_t next[kWriters] = {0};
    for (unsigned i = 0; i < 4; i++) TCHECK_EQ(take_next(in, r, &notify, g_env.me, next), 0);
    TCHECK_EQ(r->head, 4);
    TCHECK(nvx_mailbox_ring_peek(r) == 0);
    TCHECK_EQ(nvx_mailbox_close(out), 0);
    TCHECK_EQ(nvx_mailbox_unlink(in), 0);
    free(r);
}

/* ---- a full ring: the kernel stalls, its buffers and the senders hold the rest ---- */
struct writer {
    long out;
    unsigned index;
    unsigned port;
    unsigned count;
    uint32_t first;
    long failures;
};

static void *write_all(void *arg)
{
    struct writer *w = arg;
    for (uint32_t i = 0; i < w->count; i++)
        if (send_tagged(w->out, w->index, w->port, w->first + i, 0) <= 0) w->failures++;
    return 0;
}

static void full_ring(void)
{
    long in = nvx_mailbox_create(g_env.me, kFullPort), out = nvx_mailbox_open(g_env.me, kFullPort);
    TCHECK(in >= 0 && out >= 0);
    uint32_t notify = 0;
    struct nvx_mailbox_ring *r = new_ring(2, &notify);
    TCHECK(r != 0);
    TCHECK_EQ(nvx_mailbox_ring_attach(in, r), 0);
    /* Two fit the ring and the port's quota the kernel's buffers; the next is refused. */
    const unsigned fit = 2 + NVX_MAILBOX_PORT_QUOTA;
    for (uint32_t seq = 0; seq < fit; seq++) TCHECK(send_tagged(out, 0, kFullPort, seq, 1) > 0);
    TCHECK_EQ(send_tagged(out, 0, kFullPort, fit, 1), -EAGAIN);
    TCHECK_EQ(r->tail, 2);
    TCHECK_EQ(r->stalled, 1);
    /* A blocking writer sleeps until the reader makes room; then everything comes, in order. */
    struct writer w = {nvx_mailbox_open(g_env.me, kFullPort), 1, kFullPort, 10, 0, 0};
    TCHECK(w.out >= 0);
    nvx_thread_t t;
    TCHECK_EQ(nvx_thread_create(&t, 0, write_all, &w), 0);
    uint32_t next[kWriters] = {0};
    unsigned from[2] = {0, 0};
    for (unsigned i = 0; i < fit + 10; i++) from[take_next(in, r, &notify, g_env.me, next) & 1]++;
    TCHECK_EQ(nvx_thread_join(t, 0), 0);
    TCHECK_EQ(w.failures, 0);
    TCHECK_EQ(from[0], fit);
    TCHECK_EQ(from[1], 10);
    TCHECK(nvx_mailbox_ring_peek(r) == 0);
    TCHECK_EQ(r->stalled, 0);
    struct nvx_ikc_stats st;
    TCHECK_EQ(nvx_mailbox_stats(in, &st), 0);
    TCHECK_EQ(st.messages, fit + 10);
    TCHECK_EQ(nvx_mailbox_close(w.out), 0);
    TCHECK_EQ(nvx_mailbox_close(out), 0);
    TCHECK_EQ(nvx_mailbox_unlink(in), 0);
    free(r);
}

/* ---- several threads write while the reader sleeps on the notify word ---- */
static void threads_write(void)
{
    long in = nvx_mailbox_create(g_env.me, kThreadsPort);
    TCHECK(in >= 0);
    uint32_t notify = 0;
    struct nvx_mailbox_ring *r = new_ring(4, &notify);
    TCHECK(r != 0);
    TCHECK_EQ(nvx_mailbox_ring_attach(in, r), 0);
    struct writer w[kWriters];
    nvx_thread_t t[kWriters];
    for (unsigned i = 0; i < kWriters; i++) {
        w[i] = (struct writer){nvx_mailbox_open(g_env.me, kThreadsPort), i, kThreadsPort, kPerWriter, 0, 0};
        TCHECK(w[i].out >= 0);
        TCHECK_EQ(nvx_thread_create(&t[i], 0, write_all, &w[i]), 0);
    }
    uint32_t next[kWriters] = {0};
    for (unsigned i = 0; i < kWriters * kPerWriter; i++) take_next(in, r, &notify, g_env.me, next);
    for (unsigned i = 0; i < kWriters; i++) {
        TCHECK_EQ(nvx_thread_join(t[i], 0), 0);
        TCHECK_EQ(w[i].failures, 0);
        TCHECK_EQ(next[i], kPerWriter);
        TCHECK_EQ(nvx_mailbox_close(w[i].out), 0);
    }
    TCHECK(notify > 0);
    TCHECK_EQ(nvx_mailbox_unlink(in), 0);
    free(r);
}

/* ---- detaching and unlinking give the port back to reads ---- */
static long read_tagged(long in, struct ikc_tag *tag)
{
    uint8_t buf[NVX_MAILBOX_MSG_MAX];
    long got = nvx_mailbox_read(in, buf, sizeof buf);
    return got < 0 ? got : ikc_check_msg(buf, got, tag);
}

static void detach_and_unlink(void)
{
    long in = nvx_mailbox_create(g_env.me, kDetachPort), out = nvx_mailbox_open(g_env.me, kDetachPort);
    TCHECK(in >= 0 && out >= 0);
    struct nvx_mailbox_ring *r = new_ring(1, 0);
    TCHECK(r != 0);
    TCHECK_EQ(nvx_mailbox_ring_attach(in, r), 0);
    for (uint32_t seq = 0; seq < 3; seq++) TCHECK(send_tagged(out, 0, kDetachPort, seq, 0) > 0);
    TCHECK_EQ(r->tail, 1);
    TCHECK_EQ(nvx_mailbox_ring_detach(in), 0);
    /* The first is the reader's, in its ring; the two the kernel kept go to reads. */
    struct ikc_tag tag;
    TCHECK_EQ(ikc_check_msg(r->slot[0].payload, r->slot[0].length, &tag), 0);
    TCHECK_EQ(tag.seq, 0);
    for (uint32_t seq = 1; seq < 3; seq++) {
        TCHECK_EQ(read_tagged(in, &tag), 0);
        TCHECK_EQ(tag.seq, seq);
    }
    TCHECK_EQ(nvx_mailbox_ring_detach(in), -EINVAL);
    /* Unlinking detaches too: the port created again has no ring. */
    TCHECK_EQ(nvx_mailbox_ring_attach(in, r), 0);
    TCHECK_EQ(nvx_mailbox_unlink(in), 0);
    in = nvx_mailbox_create(g_env.me, kDetachPort);
    TCHECK(in >= 0);
    TCHECK(send_tagged(out, 0, kDetachPort, 3, 0) > 0);
    TCHECK_EQ(read_tagged(in, &tag), 0);
    TCHECK_EQ(tag.seq, 3);
    TCHECK_EQ(nvx_mailbox_ring_refill(in), -EINVAL);
    TCHECK_EQ(nvx_mailbox_close(out), 0);
    TCHECK_EQ(nvx_mailbox_unlink(in), 0);
    free(r);
}

/* ---- a ring goes with the thread that attached it ---- */
struct ender {
    long in;
    struct nvx_mailbox_ring *ring;
    long attached;
};

static void *attach_and_end(void *arg)
{
    struct ender *e = arg;
    e->attached = nvx_mailbox_ring_attach(e->in, e->ring);
    return 0;
}

static void ring_of_ended_thread(void)
{
    long in = nvx_mailbox_create(g_env.me, kEndPort), out = nvx_mailbox_open(g_env.me, kEndPort);
    TCHECK(in >= 0 && out >= 0);
    struct ender e = {in, new_ring(4, 0), -1};
    TCHECK(e.ring != 0);
    nvx_thread_t t;
    TCHECK_EQ(nvx_thread_create(&t, 0, attach_and_end, &e), 0);
    TCHECK_EQ(nvx_thread_join(t, 0), 0);
    TCHECK_EQ(e.attached, 0);
    uint32_t tail = e.ring->tail;
    TCHECK(send_tagged(out, 0, kEndPort, 0, 0) > 0);
    struct ikc_tag tag;
    TCHECK_EQ(read_tagged(in, &tag), 0);
    TCHECK_EQ(tag.seq, 0);
    TCHECK_EQ(e.ring->tail, tail); /* the ring was not touched */
    TCHECK_EQ(nvx_mailbox_close(out), 0);
    TCHECK_EQ(nvx_mailbox_unlink(in), 0);
    free(e.ring);
}

/* ---- bad calls ---- */
static void errors(void)
{
    long in = nvx_mailbox_create(g_env.me, kErrorPort), out = nvx_mailbox_open(g_env.me, kErrorPort);
    TCHECK(in >= 0 && out >= 0);
    uint32_t notify = 0;
    struct nvx_mailbox_ring *r = new_ring(4, &notify);
    TCHECK(r != 0);
    TCHECK_EQ(nvx_mailbox_ring_attach(out, r), -EBADF);
    TCHECK_EQ(nvx_mailbox_ring_attach(NVX_IKC_MAILBOXES + 1, r), -EBADF);
    TCHECK_EQ(nvx_mailbox_ring_refill(out), -EBADF);
    TCHECK_EQ(nvx_mailbox_ring_refill(in), -EINVAL);
    TCHECK_EQ(nvx_mailbox_ring_detach(in), -EINVAL);
    static const uint32_t bad_slots[] = {0, 3, 6, NVX_MAILBOX_RING_MAX * 2};
    for (unsigned i = 0; i < sizeof bad_slots / sizeof bad_slots[0]; i++) {
        r->slots = bad_slots[i];
        TCHECK_EQ(nvx_mailbox_ring_attach(in, r), -EINVAL);
    }
    r->slots = NVX_MAILBOX_RING_MAX; /* more than the 4 slots' memory malloc gave: maybe mapped, */
    long big = nvx_mailbox_ring_attach(in, r); /* but then it is the caller's memory */
    TCHECK(big == 0 || big == -EFAULT);
    if (big == 0) TCHECK_EQ(nvx_mailbox_ring_detach(in), 0);
    r->slots = 4;
    r->flags = 0x80;
    TCHECK_EQ(nvx_mailbox_ring_attach(in, r), -EINVAL);
    r->flags = 0;
    TCHECK_EQ(nvx_mailbox_ring_attach(in, (struct nvx_mailbox_ring *)((char *)r + 4)), -EFAULT);
    TCHECK_EQ(nvx_mailbox_ring_attach(in, (struct nvx_mailbox_ring *)UNMAPPED), -EFAULT);
    TCHECK_EQ(nvx_mailbox_ring_attach(in, (struct nvx_mailbox_ring *)KERNEL_ADDRESS), -EFAULT);
    r->notify = (uint32_t *)UNMAPPED;
    TCHECK_EQ(nvx_mailbox_ring_attach(in, r), -EFAULT);
    r->notify = (uint32_t *)((char *)&notify + 1);
    TCHECK_EQ(nvx_mailbox_ring_attach(in, r), -EFAULT);
    r->notify = &notify;
    /* A read waiting on the port: no ring; a ring: no reads, no second ring. */
    struct nvx_ikc_op op = {0};
    uint8_t buf[NVX_MAILBOX_MSG_MAX];
    TCHECK_EQ(nvx_mailbox_aread(in, buf, sizeof buf, &op), 0);
    TCHECK_EQ(nvx_mailbox_ring_attach(in, r), -EBUSY);
    TCHECK_EQ(nvx_ikc_cancel(&op), 0);
    TCHECK_EQ(nvx_mailbox_ring_attach(in, r), 0);
    TCHECK_EQ(nvx_mailbox_ring_attach(in, r), -EBUSY);
    TCHECK_EQ(nvx_mailbox_read(in, buf, sizeof buf), -EBUSY);
    TCHECK_EQ(nvx_mailbox_aread(in, buf, sizeof buf, &op), -EBUSY);
    TCHECK_EQ(nvx_mailbox_ring_refill(in), 0); /* nothing waits: nothing moves */
    /* A head the reader moved past what was filled: the kernel treats the ring as full. */
    r->head = 1000;
    TCHECK(send_tagged(out, 0, kErrorPort, 0, 0) > 0);
    TCHECK_EQ(r->tail, 0);
    r->head = 0;
    TCHECK_EQ(nvx_mailbox_ring_refill(in), 1);
    TCHECK_EQ(r->tail, 1);
    TCHECK_EQ(nvx_mailbox_close(out), 0);
    TCHECK_EQ(nvx_mailbox_unlink(in), 0);
    free(r);
}

/* ---- between compute clusters: the partner writes while this cluster's reader sleeps ---- */
static unsigned partner(void) { return g_env.rank ^ 1u; }
static int paired(void) { return partner() < g_env.n; }

static void remote_ring(void)
{
    long in = nvx_mailbox_create(g_env.me, kRemotePort);
    TCHECK(in >= 0);
    uint32_t notify = 0;
    struct nvx_mailbox_ring *r = new_ring(8, &notify);
    TCHECK(r != 0);
    r->flags = NVX_IKC_NOTIFY_UNTIMED;
    TCHECK_EQ(nvx_mailbox_ring_attach(in, r), 0);
    TCHECK_EQ(ikc_barrier(&g_env), 0);
    struct writer w = {nvx_mailbox_open(g_env.nodes[partner()], kRemotePort), 0, kRemotePort, kRemoteMessages, 0, 0};
    TCHECK(w.out >= 0);
    nvx_thread_t t;
    TCHECK_EQ(nvx_thread_create(&t, 0, write_all, &w), 0);
    uint32_t next[kWriters] = {0};
    for (unsigned i = 0; i < kRemoteMessages; i++) take_next(in, r, &notify, g_env.nodes[partner()], next);
    TCHECK_EQ(next[0], kRemoteMessages);
    TCHECK_EQ(nvx_thread_join(t, 0), 0);
    TCHECK_EQ(w.failures, 0);
    TCHECK_EQ(ikc_barrier(&g_env), 0);
    TCHECK_EQ(nvx_mailbox_close(w.out), 0);
    TCHECK_EQ(nvx_mailbox_unlink(in), 0);
    free(r);
}

int main(void)
{
    CHECK_EQ(ikc_env_init(&g_env), 0);
    order_and_time();
    full_ring();
    threads_write();
    detach_and_unlink();
    ring_of_ended_thread();
    errors();
    CHECK_EQ(ikc_barrier(&g_env), 0);
    if (paired()) {
        remote_ring();
    } else { /* an odd cluster out keeps the barriers' count */
        for (unsigned i = 0; i < 2; i++) CHECK_EQ(ikc_barrier(&g_env), 0);
    }
    CHECK_EQ(ikc_barrier(&g_env), 0);
    CHECK_EQ(ikc_env_fini(&g_env), 0);
    return check_finish("ikc_ring");
}
