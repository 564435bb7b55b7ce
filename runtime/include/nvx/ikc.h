/* Inter-cluster communication: mailboxes (small messages), portals (bulk data) and syncs
 * (one-to-all / all-to-one signals). Addresses are (NoC node, logical port); a cluster's
 * nodes are in struct nvx_info (node, nodes) and nvx_node_of() maps any cluster to its
 * nodes. Every function returns >= 0 on success or a negative errno; the reads, writes and
 * waits sleep in the kernel until they can complete, except the asynchronous ones (below). */
#ifndef NVX_IKC_H
#define NVX_IKC_H
#include <stddef.h>
#include <stdint.h>
#include <nvx/clock.h>
#include <nvx/syscall.h>

#ifdef __cplusplus
extern "C" {
#endif

/* NoC node of interface `interface` of cluster `cluster` (compute clusters have one). */
static inline long nvx_node_of(unsigned cluster, unsigned interface)
{
    return nvx_syscall2(NVX_SYS_NODE_OF, (long)cluster, (long)interface);
}

/* Mailboxes: messages of 1..NVX_MAILBOX_MSG_MAX bytes, in order per sender and port.
 * Flow control is per port (NVX_MAILBOX_PORT_QUOTA in nvx_abi.h): a port nobody reads
 * stops its own senders, never the other ports of its node. */
static inline long nvx_mailbox_create(unsigned node, unsigned port) { return nvx_syscall2(NVX_SYS_MAILBOX_CREATE, node, port); }
static inline long nvx_mailbox_open(unsigned node, unsigned port) { return nvx_syscall2(NVX_SYS_MAILBOX_OPEN, node, port); }
/* Returns the message's length; -EMSGSIZE (message kept) if size is smaller. */
static inline long nvx_mailbox_read(long id, void *buf, size_t size) { return nvx_syscall4(NVX_SYS_MAILBOX_READ, id, (long)buf, (long)size, 0); }
/* The same, and who sent it: the node the NoC stamped and whether that cluster's system
 * program sent it (struct nvx_mailbox_origin); servers decide from this, never from the body. */
static inline long nvx_mailbox_read_from(long id, void *buf, size_t size, struct nvx_mailbox_origin *from)
{
    return nvx_syscall4(NVX_SYS_MAILBOX_READ, id, (long)buf, (long)size, (long)from);
}
static inline long nvx_mailbox_write(long id, const void *buf, size_t size) { return nvx_syscall4(NVX_SYS_MAILBOX_WRITE, id, (long)buf, (long)size, 0); }
/* Never sleeps behind a message the target port refused: -EAGAIN, nothing sent, when this
 * cluster already has a message waiting for that port to drain. */
static inline long nvx_mailbox_try_write(long id, const void *buf, size_t size)
{
    return nvx_syscall4(NVX_SYS_MAILBOX_WRITE, id, (long)buf, (long)size, NVX_MAILBOX_NONBLOCK);
}
static inline long nvx_mailbox_close(long id) { return nvx_syscall1(NVX_SYS_MAILBOX_CLOSE, id); }
static inline long nvx_mailbox_unlink(long id) { return nvx_syscall1(NVX_SYS_MAILBOX_UNLINK, id); }
static inline long nvx_mailbox_stats(long id, struct nvx_ikc_stats *s) { return nvx_syscall2(NVX_SYS_MAILBOX_STATS, id, (long)s); }

/* Portals: the receiver allows one sender node, then reads one message of up to `size`
 * bytes (returns its length); the writer sleeps until every byte was delivered. */
static inline long nvx_portal_create(unsigned node, unsigned port) { return nvx_syscall2(NVX_SYS_PORTAL_CREATE, node, port); }
static inline long nvx_portal_allow(long id, unsigned remote_node) { return nvx_syscall2(NVX_SYS_PORTAL_ALLOW, id, remote_node); }
static inline long nvx_portal_open(unsigned node, unsigned port) { return nvx_syscall2(NVX_SYS_PORTAL_OPEN, node, port); }
static inline long nvx_portal_read(long id, void *buf, size_t size) { return nvx_syscall3(NVX_SYS_PORTAL_READ, id, (long)buf, (long)size); }
static inline long nvx_portal_write(long id, const void *buf, size_t size) { return nvx_syscall3(NVX_SYS_PORTAL_WRITE, id, (long)buf, (long)size); }
static inline long nvx_portal_close(long id) { return nvx_syscall1(NVX_SYS_PORTAL_CLOSE, id); }
static inline long nvx_portal_unlink(long id) { return nvx_syscall1(NVX_SYS_PORTAL_UNLINK, id); }
static inline long nvx_portal_stats(long id, struct nvx_ikc_stats *s) { return nvx_syscall2(NVX_SYS_PORTAL_STATS, id, (long)s); }

/* Asynchronous reads and writes (struct nvx_ikc_op in nvx_abi.h; Kalray's aio_read and
 * aio_write on NoC connectors, Nanvix's kportal_aread/awrite): a start returns 0 at once and
 * the operation goes on in the kernel and the NoC; when it completes, the kernel writes its
 * result into *op, sets op->done, adds 1 to *op->notify (if set) and wakes that word's
 * futex waiters. Set op->notify before the start. A mailbox write takes the message at the
 * start (buf is free again); a read's buffer and a portal write's must stay until done. At
 * most NVX_IKC_THREAD_OPS per thread and NVX_IKC_ASYNC_OPS per cluster are under way:
 * -EAGAIN (nothing started) beyond. The other errors are the synchronous calls', returned
 * by the start (nothing started) or, found later, as op->result. */
static inline long nvx_mailbox_aread(long id, void *buf, size_t size, struct nvx_ikc_op *op)
{
    return nvx_syscall4(NVX_SYS_MAILBOX_AREAD, id, (long)buf, (long)size, (long)op);
}
static inline long nvx_mailbox_awrite(long id, const void *buf, size_t size, struct nvx_ikc_op *op)
{
    return nvx_syscall4(NVX_SYS_MAILBOX_AWRITE, id, (long)buf, (long)size, (long)op);
}
static inline long nvx_portal_aread(long id, void *buf, size_t size, struct nvx_ikc_op *op)
{
    return nvx_syscall4(NVX_SYS_PORTAL_AREAD, id, (long)buf, (long)size, (long)op);
}
static inline long nvx_portal_awrite(long id, const void *buf, size_t size, struct nvx_ikc_op *op)
{
    return nvx_syscall4(NVX_SYS_PORTAL_AWRITE, id, (long)buf, (long)size, (long)op);
}
/* 1 if `op` completed (its result is op->result; the caller's clock goes on from the
 * completion's time if that is later), 0 while it is under way. No kernel call. */
static inline int nvx_ikc_test(struct nvx_ikc_op *op)
{
    if (!__atomic_load_n(&op->done, __ATOMIC_ACQUIRE)) return 0;
    nvx_clock_take(op->at);
    return 1;
}
/* Sleeps until one of ops[0..count) completed (count <= NVX_IKC_WAIT_MAX); returns its
 * index, or -errno (-ENOENT: ops[i] was never started). */
static inline long nvx_ikc_wait_any(struct nvx_ikc_op *const *ops, unsigned count)
{
    long i = nvx_syscall2(NVX_SYS_IKC_WAIT, (long)ops, count);
    if (i >= 0) nvx_clock_take(ops[i]->at);
    return i;
}
/* Sleeps until `op` completed; returns its result. */
static inline long nvx_ikc_wait(struct nvx_ikc_op *op)
{
    struct nvx_ikc_op *one[1] = {op};
    long i = nvx_ikc_wait_any(one, 1);
    return i < 0 ? i : op->result;
}
/* Ends `op` at once with -ECANCELED if nothing of it moved yet: 0; -EBUSY once the NoC
 * moves it (it completes as usual); -ENOENT if it is not under way. */
static inline long nvx_ikc_cancel(struct nvx_ikc_op *op) { return nvx_syscall1(NVX_SYS_IKC_CANCEL, (long)op); }

/* Receive rings (struct nvx_mailbox_ring in nvx_abi.h): the kernel puts each message of a
 * created mailbox into the caller's ring as it arrives; a reader already running takes it
 * with no kernel call, a reader with nothing to do sleeps on the ring's notify word
 * (nvx_sys_futex_wait: read the word, look at the ring, sleep if it is still empty). Set
 * notify, flags and slots, then attach; the ring (NVX_MAILBOX_RING_BYTES(slots) bytes)
 * must stay until it is detached or its thread ends. One reader at a time (or a lock). */
static inline long nvx_mailbox_ring_attach(long id, struct nvx_mailbox_ring *ring)
{
    return nvx_syscall2(NVX_SYS_MAILBOX_RING, id, (long)ring);
}
static inline long nvx_mailbox_ring_detach(long id) { return nvx_syscall2(NVX_SYS_MAILBOX_RING, id, 0); }
/* Moves the messages the kernel holds into the ring's free slots: how many (-EINVAL: no ring). */
static inline long nvx_mailbox_ring_refill(long id) { return nvx_syscall1(NVX_SYS_MAILBOX_RING_REFILL, id); }
/* The oldest message not taken yet, or NULL. Its `at` is the virtual time it came: the
 * reader that acts on it takes that time (nvx_clock_take), when it does. */
static inline const struct nvx_mailbox_slot *nvx_mailbox_ring_peek(const struct nvx_mailbox_ring *ring)
{
    uint32_t head = ring->head;
    if (__atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE) == head) return 0;
    return &ring->slot[head & (ring->slots - 1)];
}
/* Frees the slot nvx_mailbox_ring_peek returned (the caller is done with it). If the kernel
 * stalled on the full ring, asks it to refill (a kernel call): returns its result, else 0. */
static inline long nvx_mailbox_ring_pop(long id, struct nvx_mailbox_ring *ring)
{
    __atomic_store_n(&ring->head, ring->head + 1, __ATOMIC_RELEASE);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);  /* against the kernel's store of `stalled` */
    if (__atomic_load_n(&ring->stalled, __ATOMIC_RELAXED)) return nvx_mailbox_ring_refill(id);
    return 0;
}

/* Syncs over a node list: ALL_TO_ONE (nodes[0] waits for the others' signals) or
 * ONE_TO_ALL (nodes[1..] wait for nodes[0]'s signal). `port` (0..NVX_SYNC_PORTS-1)
 * must match on both sides. The waiting side creates, the signalling side opens. */
static inline long nvx_sync_create(unsigned port, const uint32_t *nodes, unsigned count, int type)
{
    return nvx_syscall4(NVX_SYS_SYNC_CREATE, port, (long)nodes, count, type);
}
static inline long nvx_sync_open(unsigned port, const uint32_t *nodes, unsigned count, int type)
{
    return nvx_syscall4(NVX_SYS_SYNC_OPEN, port, (long)nodes, count, type);
}
static inline long nvx_sync_wait(long id) { return nvx_syscall1(NVX_SYS_SYNC_WAIT, id); }
/* The same wait, asynchronous (struct nvx_ikc_op, as nvx_mailbox_aread): returns 0 at once
 * and `op` completes with result 0 when the sync fires, so a thread can sleep on "this
 * sync or any other event" through op->notify. Cancelling it lets that firing go. */
static inline long nvx_sync_await(long id, struct nvx_ikc_op *op)
{
    return nvx_syscall2(NVX_SYS_SYNC_AWAIT, id, (long)op);
}
static inline long nvx_sync_signal(long id) { return nvx_syscall1(NVX_SYS_SYNC_SIGNAL, id); }
static inline long nvx_sync_close(long id) { return nvx_syscall1(NVX_SYS_SYNC_CLOSE, id); }
static inline long nvx_sync_unlink(long id) { return nvx_syscall1(NVX_SYS_SYNC_UNLINK, id); }

#ifdef __cplusplus
}
#endif
#endif
