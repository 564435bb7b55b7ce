/* Asynchronous IKC (nvx/ikc.h, struct nvx_ikc_op): many reads under way on one port complete
 * in order as messages arrive; reads on several ports complete in the order their messages
 * come and nvx_ikc_wait_any names each; a completion bumps and wakes its notify word; writes
 * pushed back by a full port complete as it drains, with the message taken at the start;
 * the per-thread and per-cluster bounds answer -EAGAIN and start nothing; cancellation; a
 * thread that ends (returning, or killed by a fault) with reads under way loses no message
 * of the others and its slots come back; bad calls get clear errors; between compute clusters, an asynchronous mailbox
 * exchange and portal transfers of every size, several under way at once, reads on
 * different ports of a node that do not wait for each other, and a portal
 * write that overlaps computation in virtual time. */
#include <stdlib.h>
#include <nvx/clock.h>
#include "check.h"
#include "ikc_test.h"

enum {                  /* ports 0..3 are left to system services */
    kQueuePort = 4,
    kAnyPort = 5,       /* kAnyPort .. kAnyPort + kAnyPorts - 1 */
    kAnyPorts = 4,
    kNotifyPort = 9,
    kPushPort = 10,
    kBoundPort = 11,
    kLeftPort = 12,
    kErrorPort = 13,
    kRemoteMailPort = 14,
    kRemotePortalA = 15,
    kRemotePortalB = 16,
    kOverlapPort = 17,
    kReadyPort = 18,
    kApartPort = 19,    /* kApartPort .. kApartPort + kApartPorts - 1 */
    kApartPorts = 3,
    kApartReadyPort = 22,
    kQueued = 6,
};

static struct ikc_env g_env;

static void init_op(struct nvx_ikc_op *op, uint32_t *notify)
{
    memset(op, 0x5a, sizeof *op); /* the kernel must write what it reports */
    op->notify = notify;
    op->flags = 0;
}

static long make_input(unsigned port) { return nvx_mailbox_create(g_env.me, port); }
static long open_output(uint32_t node, unsigned port) { return nvx_mailbox_open(node, port); }

static void sleep_ms(unsigned ms) { nvx_thread_sleep_until(nvx_rdtime() + (uint64_t)ms * (NVX_TIMER_HZ / 1000)); }

/* ---- many reads under way on one port, completed in order ---- */
static void queued_reads(void)
{
    long in = make_input(kQueuePort), out = open_output(g_env.me, kQueuePort);
    TCHECK(in >= 0 && out >= 0);
    uint32_t notify = 0;
    struct nvx_ikc_op op[kQueued];
    uint8_t buf[kQueued][NVX_MAILBOX_MSG_MAX];
    for (unsigned i = 0; i < kQueued; i++) {
        init_op(&op[i], &notify);
        TCHECK_EQ(nvx_mailbox_aread(in, buf[i], sizeof buf[i], &op[i]), 0);
        TCHECK_EQ(op[i].done, 0);
    }
    for (unsigned i = 0; i < kQueued; i++) {
        uint8_t msg[NVX_MAILBOX_MSG_MAX];
        size_t len = ikc_make_msg(msg, g_env.rank, 0, kQueuePort, i, 0);
        TCHECK_EQ(nvx_mailbox_write(out, msg, len), (long)len);
        TCHECK_EQ(nvx_ikc_test(&op[i]), 1); /* a local message reaches the first read at once */
    }
    for (unsigned i = 0; i < kQueued; i++) {
        struct ikc_tag tag;
        TCHECK_EQ(ikc_check_msg(buf[i], op[i].result, &tag), 0);
        TCHECK_EQ(tag.seq, i);
        TCHECK_EQ(op[i].origin.node, g_env.me);
        TCHECK_EQ(nvx_ikc_wait(&op[i]), op[i].result); /* a completed op: at once */
    }
    TCHECK_EQ(notify, kQueued);
    TCHECK_EQ(nvx_mailbox_close(out), 0);
    TCHECK_EQ(nvx_mailbox_unlink(in), 0);
}

/* ---- reads on several ports: completion in any order, wait for any ---- */
struct any_writer {
    long out[kAnyPorts];
};

/* Writes to the ports last to first, a pause between: the reads complete in that order. */
static void *write_backwards(void *arg)
{
    struct any_writer *w = arg;
    for (int p = kAnyPorts - 1; p >= 0; p--) {
        sleep_ms(2);
        uint8_t msg[NVX_MAILBOX_MSG_MAX];
        size_t len = ikc_make_msg(msg, g_env.rank, 1, kAnyPort + (unsigned)p, 0, 0);
        TCHECK_EQ(nvx_mailbox_write(w->out[p], msg, len), (long)len);
    }
    return 0;
}

static void wait_any_order(void)
{
    long in[kAnyPorts];
    struct any_writer w;
    struct nvx_ikc_op op[kAnyPorts];
    struct nvx_ikc_op *list[kAnyPorts];
    uint8_t buf[kAnyPorts][NVX_MAILBOX_MSG_MAX];
    for (unsigned p = 0; p < kAnyPorts; p++) {
        in[p] = make_input(kAnyPort + p);
        w.out[p] = open_output(g_env.me, kAnyPort + p);
        TCHECK(in[p] >= 0 && w.out[p] >= 0);
        init_op(&op[p], 0);
        TCHECK_EQ(nvx_mailbox_aread(in[p], buf[p], sizeof buf[p], &op[p]), 0);
    }
    nvx_thread_t t;
    TCHECK_EQ(nvx_thread_create(&t, 0, write_backwards, &w), 0);
    unsigned left = kAnyPorts;
    for (unsigned p = 0; p < kAnyPorts; p++) list[p] = &op[p];
    for (int expect = kAnyPorts - 1; expect >= 0; expect--) {
        long i = nvx_ikc_wait_any(list, left);
        TCHECK(i >= 0 && i < (long)left);
        if (i < 0 || i >= (long)left) break;
        struct ikc_tag tag;
        TCHECK_EQ(list[i] - op, expect); /* the port written next */
        TCHECK_EQ(ikc_check_msg(buf[list[i] - op], list[i]->result, &tag), 0);
        TCHECK_EQ(tag.port, kAnyPort + (unsigned)(list[i] - op));
        list[i] = list[--left]; /* the others stay listed */
    }
    TCHECK_EQ(nvx_thread_join(t, 0), 0);
    for (unsigned p = 0; p < kAnyPorts; p++) {
        TCHECK_EQ(nvx_mailbox_close(w.out[p]), 0);
        TCHECK_EQ(nvx_mailbox_unlink(in[p]), 0);
    }
}

/* ---- a completion bumps and wakes its notify word ---- */
struct notified {
    uint32_t word;
    uint64_t woke;
};

static void *sleep_on_word(void *arg)
{
    struct notified *n = arg;
    while (__atomic_load_n(&n->word, __ATOMIC_ACQUIRE) == 0) nvx_sys_futex_wait(&n->word, 0);
    n->woke = nvx_clock_cycles();
    return 0;
}

static void notify_wakes(void)
{
    long in = make_input(kNotifyPort), out = open_output(g_env.me, kNotifyPort);
    TCHECK(in >= 0 && out >= 0);
    struct notified n = {0, 0};
    struct nvx_ikc_op op;
    uint8_t buf[NVX_MAILBOX_MSG_MAX];
    init_op(&op, &n.word);
    TCHECK_EQ(nvx_mailbox_aread(in, buf, sizeof buf, &op), 0);
    nvx_thread_t t;
    TCHECK_EQ(nvx_thread_create(&t, 0, sleep_on_word, &n), 0);
    sleep_ms(2); /* it sleeps on the word by now */
    uint8_t msg[8] = "notify!";
    TCHECK_EQ(nvx_mailbox_write(out, msg, sizeof msg), (long)sizeof msg);
    TCHECK_EQ(nvx_thread_join(t, 0), 0);
    TCHECK_EQ(n.word, 1);
    TCHECK_EQ(op.done, 1);
    TCHECK_EQ(op.result, (long)sizeof msg);
    TCHECK(memcmp(buf, msg, sizeof msg) == 0);
    if (nvx_clock_is_virtual()) TCHECK(n.woke >= op.at); /* woken from the completion's time */
    TCHECK_EQ(nvx_mailbox_close(out), 0);
    TCHECK_EQ(nvx_mailbox_unlink(in), 0);
}

/* ---- writes pushed back by a full port complete as it drains ---- */
static void pushed_back_writes(void)
{
    long in = make_input(kPushPort), out = open_output(g_env.me, kPushPort);
    TCHECK(in >= 0 && out >= 0);
    uint8_t msg[NVX_MAILBOX_MSG_MAX];
    for (unsigned i = 0; i < NVX_MAILBOX_PORT_QUOTA; i++) {
        size_t len = ikc_make_msg(msg, g_env.rank, 2, kPushPort, i, 0);
        TCHECK_EQ(nvx_mailbox_write(out, msg, len), (long)len);
    }
    enum { kMore = 4 };
    struct nvx_ikc_op op[kMore];
    for (unsigned i = 0; i < kMore; i++) {
        size_t len = ikc_make_msg(msg, g_env.rank, 2, kPushPort, NVX_MAILBOX_PORT_QUOTA + i, 0);
        init_op(&op[i], 0);
        TCHECK_EQ(nvx_mailbox_awrite(out, msg, len, &op[i]), 0);
        memset(msg, 0xee, sizeof msg); /* the message was taken at the start */
        TCHECK_EQ(nvx_ikc_test(&op[i]), 0);    /* the port is full */
    }
    TCHECK_EQ(nvx_mailbox_try_write(out, msg, 8), -EAGAIN); /* behind them, never ahead */
    for (unsigned i = 0; i < NVX_MAILBOX_PORT_QUOTA + kMore; i++) {
        uint8_t buf[NVX_MAILBOX_MSG_MAX];
        struct ikc_tag tag;
        long got = nvx_mailbox_read(in, buf, sizeof buf);
        TCHECK_EQ(ikc_check_msg(buf, got, &tag), 0);
        TCHECK_EQ(tag.seq, i);
    }
    for (unsigned i = 0; i < kMore; i++) {
        TCHECK_EQ(nvx_ikc_test(&op[i]), 1);
        TCHECK(op[i].result >= (long)sizeof(struct ikc_tag));
    }
    TCHECK_EQ(nvx_mailbox_close(out), 0);
    TCHECK_EQ(nvx_mailbox_unlink(in), 0);
}

/* ---- bounds, cancellation, a thread that ends with reads under way ---- */
struct bound_job {
    long in;
    unsigned started;
    long refused;          /* the start past the bound */
    struct nvx_ikc_op op[NVX_IKC_THREAD_OPS + 1];
    uint8_t buf[NVX_MAILBOX_MSG_MAX];
    nvx_thread_t self;
    uint32_t stopped;      /* futex: it started all it could */
    uint32_t go;           /* futex: the main thread lets it end */
};

/* Starts reads until the bound, then waits to be told to end, reads still under way. */
static void *start_until_refused(void *arg)
{
    struct bound_job *j = arg;
    for (j->started = 0; j->started <= NVX_IKC_THREAD_OPS; j->started++) {
        init_op(&j->op[j->started], 0);
        long rc = nvx_mailbox_aread(j->in, j->buf, sizeof j->buf, &j->op[j->started]);
        if (rc != 0) {
            j->refused = rc;
            break;
        }
    }
    __atomic_store_n(&j->stopped, 1, __ATOMIC_RELEASE);
    nvx_sys_futex_wake(&j->stopped, 1);
    while (__atomic_load_n(&j->go, __ATOMIC_ACQUIRE) == 0) nvx_sys_futex_wait(&j->go, 0);
    return 0;
}

/* Starts NVX_IKC_THREAD_OPS reads, then dies of a store fault with them under way. */
static void *start_then_fault(void *arg)
{
    struct bound_job *j = arg;
    for (j->started = 0; j->started < NVX_IKC_THREAD_OPS; j->started++) {
        init_op(&j->op[j->started], 0);
        if (nvx_mailbox_aread(j->in, j->buf, sizeof j->buf, &j->op[j->started]) != 0) break;
    }
    *(volatile int *)UNMAPPED = 1;
    return 0;
}

static void bounds_and_endings(void)
{
    long in = make_input(kBoundPort), out = open_output(g_env.me, kBoundPort);
    TCHECK(in >= 0 && out >= 0);
    /* One thread: NVX_IKC_THREAD_OPS start, the next is refused and its record untouched. */
    struct nvx_ikc_op op[NVX_IKC_THREAD_OPS + 1];
    uint8_t buf[NVX_MAILBOX_MSG_MAX];
    for (unsigned i = 0; i < NVX_IKC_THREAD_OPS; i++) {
        init_op(&op[i], 0);
        TCHECK_EQ(nvx_mailbox_aread(in, buf, sizeof buf, &op[i]), 0);
    }
    init_op(&op[NVX_IKC_THREAD_OPS], 0);
    TCHECK_EQ(nvx_mailbox_aread(in, buf, sizeof buf, &op[NVX_IKC_THREAD_OPS]), -EAGAIN);
    TCHECK_EQ(op[NVX_IKC_THREAD_OPS].done, 0x5a5a5a5a);
    /* Cancellation: each ends with -ECANCELED; again, nothing is under way. */
    for (unsigned i = 0; i < NVX_IKC_THREAD_OPS; i++) {
        TCHECK_EQ(nvx_ikc_cancel(&op[i]), 0);
        TCHECK_EQ(op[i].done, 1);
        TCHECK_EQ(op[i].result, -ECANCELED);
        TCHECK_EQ(nvx_ikc_cancel(&op[i]), -ENOENT);
    }
    /* The cluster: NVX_IKC_ASYNC_OPS / NVX_IKC_THREAD_OPS threads fill it, one more is refused. */
    enum { kThreads = NVX_IKC_ASYNC_OPS / NVX_IKC_THREAD_OPS };
    static struct bound_job jobs[kThreads + 1];
    for (unsigned k = 0; k <= kThreads; k++) {
        memset(&jobs[k], 0, sizeof jobs[k]);
        jobs[k].in = in;
        TCHECK_EQ(nvx_thread_create(&jobs[k].self, 0, start_until_refused, &jobs[k]), 0);
        while (__atomic_load_n(&jobs[k].stopped, __ATOMIC_ACQUIRE) == 0) nvx_sys_futex_wait(&jobs[k].stopped, 0);
    }
    for (unsigned k = 0; k < kThreads; k++) {
        TCHECK_EQ(jobs[k].started, NVX_IKC_THREAD_OPS);
        TCHECK_EQ(jobs[k].refused, -EAGAIN);
    }
    TCHECK_EQ(jobs[kThreads].started, 0); /* the pool is full */
    TCHECK_EQ(jobs[kThreads].refused, -EAGAIN);
    /* They end with their reads under way: the kernel takes them back, and the port's next
     * message goes to a live reader, not to a dead one's record. */
    for (unsigned k = 0; k <= kThreads; k++) {
        __atomic_store_n(&jobs[k].go, 1, __ATOMIC_RELEASE);
        nvx_sys_futex_wake(&jobs[k].go, 1);
        TCHECK_EQ(nvx_thread_join(jobs[k].self, 0), 0);
    }
    for (unsigned k = 0; k < kThreads; k++)
        for (unsigned i = 0; i < NVX_IKC_THREAD_OPS; i++) {
            TCHECK_EQ(jobs[k].op[i].done, 1); /* cancelled as the thread ended */
            TCHECK_EQ(jobs[k].op[i].result, -ECANCELED);
        }
    uint8_t msg[16] = "after the end";
    TCHECK_EQ(nvx_mailbox_write(out, msg, sizeof msg), (long)sizeof msg);
    TCHECK_EQ(nvx_mailbox_read(in, buf, sizeof buf), (long)sizeof msg);
    TCHECK(memcmp(buf, msg, sizeof msg) == 0);
    for (unsigned i = 0; i < NVX_IKC_THREAD_OPS; i++) { /* slots came back */
        init_op(&op[i], 0);
        TCHECK_EQ(nvx_mailbox_aread(in, buf, sizeof buf, &op[i]), 0);
    }
    for (unsigned i = 0; i < NVX_IKC_THREAD_OPS; i++) TCHECK_EQ(nvx_ikc_cancel(&op[i]), 0);
    /* A thread killed by a fault with reads under way: the same. */
    static struct bound_job crash;
    memset(&crash, 0, sizeof crash);
    crash.in = in;
    struct nvx_thread_status st;
    TCHECK_EQ(nvx_thread_create(&crash.self, 0, start_then_fault, &crash), 0);
    TCHECK_EQ(nvx_thread_join_status(crash.self, &st), 0);
    TCHECK_EQ(st.how, NVX_THREAD_KILLED);
    TCHECK_EQ(crash.started, NVX_IKC_THREAD_OPS);
    TCHECK_EQ(nvx_mailbox_write(out, msg, sizeof msg), (long)sizeof msg);
    TCHECK_EQ(nvx_mailbox_read(in, buf, sizeof buf), (long)sizeof msg);
    for (unsigned i = 0; i < NVX_IKC_THREAD_OPS; i++) TCHECK_EQ(crash.op[i].result, -ECANCELED);
    TCHECK_EQ(nvx_mailbox_close(out), 0);
    TCHECK_EQ(nvx_mailbox_unlink(in), 0);
}

/* ---- bad calls ---- */
static void errors(void)
{
    long in = make_input(kErrorPort), out = open_output(g_env.me, kErrorPort);
    TCHECK(in >= 0 && out >= 0);
    struct nvx_ikc_op op, other;
    uint8_t buf[NVX_MAILBOX_MSG_MAX] = {0};
    init_op(&op, 0);
    TCHECK_EQ(nvx_mailbox_aread(in, buf, sizeof buf, 0), -EFAULT);
    TCHECK_EQ(nvx_mailbox_aread(in, buf, sizeof buf, KERNEL_ADDRESS), -EFAULT);
    TCHECK_EQ(nvx_mailbox_aread(in, buf, sizeof buf, (struct nvx_ikc_op *)((char *)&op + 4)), -EFAULT);
    op.notify = KERNEL_ADDRESS;
    TCHECK_EQ(nvx_mailbox_aread(in, buf, sizeof buf, &op), -EFAULT);
    op.notify = (uint32_t *)((char *)&other + 1);
    TCHECK_EQ(nvx_mailbox_aread(in, buf, sizeof buf, &op), -EFAULT);
    init_op(&op, 0);
    op.flags = 2;
    TCHECK_EQ(nvx_mailbox_aread(in, buf, sizeof buf, &op), -EINVAL);
    init_op(&op, 0);
    TCHECK_EQ(nvx_mailbox_aread(in + 1000, buf, sizeof buf, &op), -EBADF);
    TCHECK_EQ(nvx_mailbox_aread(out, buf, sizeof buf, &op), -EBADF);
    TCHECK_EQ(nvx_mailbox_aread(in, buf, 0, &op), -EINVAL);
    TCHECK_EQ(nvx_mailbox_aread(in, UNMAPPED, sizeof buf, &op), -EFAULT);
    TCHECK_EQ(nvx_mailbox_awrite(out, buf, NVX_MAILBOX_MSG_MAX + 1, &op), -EINVAL);
    TCHECK_EQ(nvx_mailbox_awrite(out, UNMAPPED, 8, &op), -EFAULT);
    TCHECK_EQ(nvx_mailbox_awrite(in, buf, 8, &op), -EBADF);
    TCHECK_EQ(op.done, 0x5a5a5a5a); /* nothing started */
    TCHECK_EQ(nvx_ikc_wait(&op), -ENOENT);
    /* One record, one operation. */
    TCHECK_EQ(nvx_mailbox_aread(in, buf, sizeof buf, &op), 0);
    TCHECK_EQ(nvx_mailbox_aread(in, buf, sizeof buf, &op), -EBUSY);
    struct nvx_ikc_op *list[NVX_IKC_WAIT_MAX + 1];
    for (unsigned i = 0; i <= NVX_IKC_WAIT_MAX; i++) list[i] = &op;
    TCHECK_EQ(nvx_syscall2(NVX_SYS_IKC_WAIT, (long)list, 0), -EINVAL);
    TCHECK_EQ(nvx_syscall2(NVX_SYS_IKC_WAIT, (long)list, NVX_IKC_WAIT_MAX + 1), -EINVAL);
    TCHECK_EQ(nvx_syscall2(NVX_SYS_IKC_WAIT, (long)KERNEL_ADDRESS, 1), -EFAULT);
    TCHECK_EQ(nvx_ikc_cancel(&op), 0);
    TCHECK_EQ(nvx_ikc_cancel(KERNEL_ADDRESS), -ENOENT);
    /* Portals: a read needs an allow; a local write nobody reads can be cancelled. */
    long pin = nvx_portal_create(g_env.me, kErrorPort), pout = nvx_portal_open(g_env.me, kErrorPort);
    TCHECK(pin >= 0 && pout >= 0);
    init_op(&op, 0);
    TCHECK_EQ(nvx_portal_aread(pin, buf, sizeof buf, &op), -EPERM);
    TCHECK_EQ(nvx_portal_awrite(pout, buf, 0, &op), -EINVAL);
    TCHECK_EQ(nvx_portal_awrite(pout, buf, sizeof buf, &op), 0);
    TCHECK_EQ(nvx_ikc_test(&op), 0);
    TCHECK_EQ(nvx_portal_close(pout), -EBUSY); /* an operation waits on it */
    TCHECK_EQ(nvx_ikc_cancel(&op), 0);
    TCHECK_EQ(op.result, -ECANCELED);
    TCHECK_EQ(nvx_portal_close(pout), 0);
    TCHECK_EQ(nvx_portal_unlink(pin), 0);
    TCHECK_EQ(nvx_mailbox_close(out), 0);
    TCHECK_EQ(nvx_mailbox_unlink(in), 0);
}

/* ---- between compute clusters ---- */
static unsigned partner(void) { return g_env.rank ^ 1u; }
static int paired(void) { return partner() < g_env.n; }
static int leads(void) { return (g_env.rank & 1u) == 0; }

static uint8_t *page_aligned(size_t size)
{
    uint8_t *p = malloc(size + 4096);
    return p == 0 ? 0 : (uint8_t *)(((uintptr_t)p + 4095) & ~(uintptr_t)4095);
}

/* An asynchronous mailbox exchange: both sides post a read; the leader writes, the
 * follower answers what it read. */
static void remote_mailbox(void)
{
    long in = make_input(kRemoteMailPort), out = open_output(g_env.nodes[partner()], kRemoteMailPort);
    TCHECK(in >= 0 && out >= 0);
    TCHECK_EQ(ikc_barrier(&g_env), 0);
    struct nvx_ikc_op rd, wr;
    uint8_t buf[NVX_MAILBOX_MSG_MAX], msg[NVX_MAILBOX_MSG_MAX];
    for (uint32_t round = 0; round < 20; round++) {
        init_op(&rd, 0);
        TCHECK_EQ(nvx_mailbox_aread(in, buf, sizeof buf, &rd), 0);
        size_t len = ikc_make_msg(msg, g_env.rank, 3, kRemoteMailPort, round, 0);
        init_op(&wr, 0);
        if (leads()) {
            TCHECK_EQ(nvx_mailbox_awrite(out, msg, len, &wr), 0);
            TCHECK_EQ(nvx_ikc_wait(&wr), (long)len);
        }
        struct ikc_tag tag;
        TCHECK_EQ(ikc_check_msg(buf, nvx_ikc_wait(&rd), &tag), 0);
        TCHECK_EQ(tag.rank, partner());
        TCHECK_EQ(tag.seq, round);
        TCHECK_EQ(rd.origin.node, g_env.nodes[partner()]);
        if (!leads()) {
            TCHECK_EQ(nvx_mailbox_awrite(out, msg, len, &wr), 0);
            TCHECK_EQ(nvx_ikc_wait(&wr), (long)len);
        }
    }
    TCHECK_EQ(ikc_barrier(&g_env), 0);
    TCHECK_EQ(nvx_mailbox_close(out), 0);
    TCHECK_EQ(nvx_mailbox_unlink(in), 0);
}

/* Portal transfers of every size, two under way at once (two ports), every byte checked. */
static void remote_portals(void)
{
    static const size_t sizes[] = {1, 4095, 4096, 4097, 100 * 1024};
    enum { kMax = 100 * 1024 };
    uint8_t *src = page_aligned(2 * kMax), *dst = page_aligned(2 * kMax);
    TCHECK(src != 0 && dst != 0);
    if (src == 0 || dst == 0) return;
    long in[2] = {nvx_portal_create(g_env.me, kRemotePortalA), nvx_portal_create(g_env.me, kRemotePortalB)};
    long out[2] = {nvx_portal_open(g_env.nodes[partner()], kRemotePortalA),
                   nvx_portal_open(g_env.nodes[partner()], kRemotePortalB)};
    long ready_in = make_input(kReadyPort), ready_out = open_output(g_env.nodes[partner()], kReadyPort);
    TCHECK(in[0] >= 0 && in[1] >= 0 && out[0] >= 0 && out[1] >= 0 && ready_in >= 0 && ready_out >= 0);
    TCHECK_EQ(ikc_barrier(&g_env), 0);
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        uint32_t seed = ikc_hash((uint32_t)n ^ (g_env.rank << 8));
        struct nvx_ikc_op op[2];
        uint8_t token[8] = "ready";
        /* Both sides post two reads, then say so; each then writes two messages at once. */
        for (unsigned k = 0; k < 2; k++) {
            TCHECK_EQ(nvx_portal_allow(in[k], g_env.nodes[partner()]), 0);
            init_op(&op[k], 0);
            memset(dst + k * kMax, 0xa5, n);
            TCHECK_EQ(nvx_portal_aread(in[k], dst + k * kMax, n, &op[k]), 0);
        }
        TCHECK_EQ(nvx_mailbox_write(ready_out, token, sizeof token), (long)sizeof token);
        TCHECK_EQ(nvx_mailbox_read(ready_in, token, sizeof token), (long)sizeof token);
        struct nvx_ikc_op w[2];
        for (unsigned k = 0; k < 2; k++) {
            ikc_fill(src + k * kMax, n, seed + k);
            init_op(&w[k], 0);
            TCHECK_EQ(nvx_portal_awrite(out[k], src + k * kMax, n, &w[k]), 0);
        }
        for (unsigned k = 0; k < 2; k++) {
            TCHECK_EQ(nvx_ikc_wait(&w[k]), (long)n);
            TCHECK_EQ(nvx_ikc_wait(&op[k]), (long)n);
            uint32_t theirs = ikc_hash((uint32_t)n ^ (partner() << 8)) + k;
            TCHECK_EQ(ikc_verify(dst + k * kMax, n, theirs), -1);
        }
    }
    TCHECK_EQ(ikc_barrier(&g_env), 0);
    for (unsigned k = 0; k < 2; k++) {
        TCHECK_EQ(nvx_portal_close(out[k]), 0);
        TCHECK_EQ(nvx_portal_unlink(in[k]), 0);
    }
    TCHECK_EQ(nvx_mailbox_close(ready_out), 0);
    TCHECK_EQ(nvx_mailbox_unlink(ready_in), 0);
}

/* Reads on different ports of one node do not wait for each other: the leader posts a read
 * on each of three ports, the follower writes them last port first, each write waiting
 * until delivered (it could not, were the node's reads served in posting order). */
static void ports_apart(void)
{
    enum { kBytes = 4097 };
    long in[kApartPorts], out[kApartPorts];
    for (unsigned k = 0; k < kApartPorts; k++) {
        in[k] = nvx_portal_create(g_env.me, kApartPort + k);
        out[k] = nvx_portal_open(g_env.nodes[partner()], kApartPort + k);
        TCHECK(in[k] >= 0 && out[k] >= 0);
    }
    long ready_in = make_input(kApartReadyPort), ready_out = open_output(g_env.nodes[partner()], kApartReadyPort);
    TCHECK(ready_in >= 0 && ready_out >= 0);
    TCHECK_EQ(ikc_barrier(&g_env), 0);
    static uint8_t data[kApartPorts][kBytes];
    uint8_t token[8] = "posted";
    if (leads()) {
        struct nvx_ikc_op op[kApartPorts];
        for (unsigned k = 0; k < kApartPorts; k++) {
            TCHECK_EQ(nvx_portal_allow(in[k], g_env.nodes[partner()]), 0);
            init_op(&op[k], 0);
            TCHECK_EQ(nvx_portal_aread(in[k], data[k], kBytes, &op[k]), 0);
        }
        TCHECK_EQ(nvx_mailbox_write(ready_out, token, sizeof token), (long)sizeof token);
        for (unsigned k = 0; k < kApartPorts; k++) {
            TCHECK_EQ(nvx_ikc_wait(&op[k]), kBytes);
            TCHECK_EQ(ikc_verify(data[k], kBytes, ikc_hash(kApartPort + k)), -1);
        }
    } else {
        TCHECK_EQ(nvx_mailbox_read(ready_in, token, sizeof token), (long)sizeof token);
        for (unsigned k = kApartPorts; k-- > 0;) {
            ikc_fill(data[k], kBytes, ikc_hash(kApartPort + k));
            TCHECK_EQ(nvx_portal_write(out[k], data[k], kBytes), kBytes);
        }
    }
    TCHECK_EQ(ikc_barrier(&g_env), 0);
    for (unsigned k = 0; k < kApartPorts; k++) {
        TCHECK_EQ(nvx_portal_close(out[k]), 0);
        TCHECK_EQ(nvx_portal_unlink(in[k]), 0);
    }
    TCHECK_EQ(nvx_mailbox_close(ready_out), 0);
    TCHECK_EQ(nvx_mailbox_unlink(ready_in), 0);
}

/* A portal write that overlaps computation: start + compute + wait takes less virtual time
 * than the write alone plus the computation alone. The follower reads; the leader writes
 * each round once its partner said the read is posted. */
static void spin(uint64_t n)
{
    if (n > 0) __asm__ volatile("1: addi %0, %0, -1\n\tbnez %0, 1b" : "+r"(n));
}

static void overlap(void)
{
    enum { kBytes = 256 * 1024, kRounds = 3 };
    uint8_t *buf = page_aligned(kBytes);
    TCHECK(buf != 0);
    if (buf == 0) return;
    long pin = nvx_portal_create(g_env.me, kOverlapPort), pout = nvx_portal_open(g_env.nodes[partner()], kOverlapPort);
    long ready_in = make_input(kReadyPort), ready_out = open_output(g_env.nodes[partner()], kReadyPort);
    TCHECK(pin >= 0 && pout >= 0 && ready_in >= 0 && ready_out >= 0);
    TCHECK_EQ(ikc_barrier(&g_env), 0);
    uint64_t took[kRounds] = {0};
    uint64_t compute = 0;
    for (unsigned round = 0; round < kRounds; round++) {
        uint8_t token[8] = "ready";
        if (!leads()) {
            TCHECK_EQ(nvx_portal_allow(pin, g_env.nodes[partner()]), 0);
            struct nvx_ikc_op rd;
            init_op(&rd, 0);
            TCHECK_EQ(nvx_portal_aread(pin, buf, kBytes, &rd), 0);
            TCHECK_EQ(nvx_mailbox_write(ready_out, token, sizeof token), (long)sizeof token);
            TCHECK_EQ(nvx_ikc_wait(&rd), kBytes);
            TCHECK_EQ(ikc_verify(buf, kBytes, 77 + round), -1);
            continue;
        }
        ikc_fill(buf, kBytes, 77 + round);
        TCHECK_EQ(nvx_mailbox_read(ready_in, token, sizeof token), (long)sizeof token);
        uint64_t start = nvx_clock_cycles();
        if (round == 0) { /* the write alone */
            TCHECK_EQ(nvx_portal_write(pout, buf, kBytes), kBytes);
            took[0] = nvx_clock_cycles() - start;
            start = nvx_clock_cycles();
            spin(took[0] / 2); /* the computation alone: about as long as the write */
            compute = nvx_clock_cycles() - start;
            continue;
        }
        struct nvx_ikc_op wr;
        init_op(&wr, 0);
        TCHECK_EQ(nvx_portal_awrite(pout, buf, kBytes, &wr), 0);
        spin(took[0] / 2);
        TCHECK_EQ(nvx_ikc_wait(&wr), kBytes);
        took[round] = nvx_clock_cycles() - start;
    }
    if (leads() && nvx_clock_is_virtual()) {
        printf("ikc_async: cluster %u: %u-byte portal write %llu cycles, computation %llu, both overlapped %llu\n",
               g_env.info.cluster, kBytes, (unsigned long long)took[0], (unsigned long long)compute,
               (unsigned long long)took[kRounds - 1]);
        for (unsigned round = 1; round < kRounds; round++) {
            TCHECK(took[round] < took[0] + compute);                     /* they overlapped ...   */
            TCHECK(took[round] + took[round] / 10 >= (took[0] > compute ? took[0] : compute)); /* ... within reason */
        }
    }
    TCHECK_EQ(ikc_barrier(&g_env), 0);
    TCHECK_EQ(nvx_portal_close(pout), 0);
    TCHECK_EQ(nvx_portal_unlink(pin), 0);
    TCHECK_EQ(nvx_mailbox_close(ready_out), 0);
    TCHECK_EQ(nvx_mailbox_unlink(ready_in), 0);
}

int main(void)
{
    CHECK_EQ(ikc_env_init(&g_env), 0);
    queued_reads();
    wait_any_order();
    notify_wakes();
    pushed_back_writes();
    bounds_and_endings();
    errors();
    CHECK_EQ(ikc_barrier(&g_env), 0);
    if (paired()) {
        remote_mailbox();
        remote_portals();
        ports_apart();
        overlap();
    } else { /* an odd cluster out keeps the barriers' count */
        for (unsigned i = 0; i < 8; i++) CHECK_EQ(ikc_barrier(&g_env), 0);
    }
    CHECK_EQ(ikc_barrier(&g_env), 0);
    CHECK_EQ(ikc_env_fini(&g_env), 0);
    return check_finish("ikc_async");
}
