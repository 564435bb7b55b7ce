// Point-to-point transport of the contract. A rank's queues (posted receives, unexpected
// messages) live in cluster memory under the rank's lock; senders of its cluster (opt
// build) and the rank's own progress (progress.cpp) match against them. Protocols:
//   local (opt):   match in the receiver's queue, one copy sender -> receiver (small
//                  messages may wait in a cell so that the sender returns at once);
//   remote/unopt:  eager (one mailbox message, while the sender has credit) or
//                  rendezvous (RTS, CTS, portal straight into the receive buffer).
// Waits sleep on the rank's doorbell (futex); nothing spins.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvx/clock.h>
#include <nvx/ikc.h>
#include <nvx/private_globals.h>

#include "state.hpp"
#include "wait_note.hpp"
#include "wire.hpp"

namespace mputil {

namespace {

RankState* me_or_die()
{
    RankState* me = self_state();
    if (me == nullptr) {
        printf("[lwmpi] a transport call from a thread that is not a rank\n");
        abort_run(1);
    }
    return me;
}

bool is_done(const Op* op) { return __atomic_load_n(&op->done, __ATOMIC_ACQUIRE) != 0; }

// The owner saw `op` done: its time moves to the completer's (Lamport).
void take_completion_time(const Op* op) { nvx_clock_take(op->stamp); }

// The heap a local cell of `bytes` of data takes: its entry and the data, since for small
// messages the entry is a large part of what a receiver's backlog holds.
size_t cell_footprint(size_t bytes) { return sizeof(Unexpected) + bytes; }

// The cluster's budget of heap in local cells: taken when a cell is made, given back when
// its message is received.
bool take_cell_bytes(size_t bytes)
{
    size_t held = __atomic_load_n(&g_cluster.cell_bytes, __ATOMIC_ACQUIRE);
    do {
        if (held + bytes > config::kLocalCellBytes) return false;
    } while (!__atomic_compare_exchange_n(&g_cluster.cell_bytes, &held, held + bytes, false, __ATOMIC_ACQ_REL,
                                          __ATOMIC_ACQUIRE));
    return true;
}

void give_cell_bytes(size_t bytes) { __atomic_sub_fetch(&g_cluster.cell_bytes, bytes, __ATOMIC_ACQ_REL); }

Op* new_op(OpKind kind, RankState* me)  // nullptr when out of memory
{
    Op* op = me->spare_ops.pop_front();
    if (op == nullptr) op = static_cast<Op*>(malloc(sizeof(Op)));
    if (op == nullptr) return nullptr;
    memset(op, 0, sizeof *op);
    op->kind = kind;
    op->owner = me->world_rank;
    op->stamp = now_stamp();
    return op;
}

Completion send_completion(const Op* send) { return Completion{send->dest, send->tag, send->bytes, false, false}; }

// Consumes an unexpected message for `recv` (the receiver's lock is held).
void consume(RankState* me, Op* recv, Unexpected* u)
{
    switch (u->holding) {
    case Holding::Cell:
        if (u->remote_eager && me->debts.consumed(u->env.source)) me->credits_due = 1;
        if (u->local_cell) give_cell_bytes(cell_footprint(u->bytes));
        deliver_bytes(recv, u->env, u->payload(), u->bytes);
        break;
    case Holding::LocalRef: {
        Op* send = u->sender;
        deliver_bytes(recv, u->env, send->data, u->bytes);
        complete(send, send_completion(send));
        break;
    }
    case Holding::Rendezvous:
        recv->rdv = RendezvousMatch{u->env, u->cookie, u->node, u->bytes, 0};
        queue_rendezvous(me, recv);
        break;
    }
    free(u);
}

// An unexpected entry for a local send: a cell holding the data while the cluster's cell
// budget and memory allow, else a reference to the sender's buffer. nullptr when even that
// cannot be had (peer's lock held).
Unexpected* local_unexpected(Op* send, const Envelope& e)
{
    size_t footprint = cell_footprint(send->bytes);
    bool cell = send->mode != SendMode::Synchronous && send->bytes <= config::kLocalCellMax &&
                take_cell_bytes(footprint);
    Unexpected* u = cell ? static_cast<Unexpected*>(malloc(footprint)) : nullptr;
    if (u == nullptr) {
        if (cell) give_cell_bytes(footprint);
        cell = false;
        u = static_cast<Unexpected*>(malloc(sizeof(Unexpected)));
        if (u == nullptr) return nullptr;
    }
    memset(u, 0, sizeof *u);
    u->env = e;
    u->bytes = send->bytes;
    if (cell) {
        u->holding = Holding::Cell;
        u->local_cell = true;
        if (send->bytes > 0) memcpy(u->payload(), send->data, send->bytes);  // data may be null
    } else {
        u->holding = Holding::LocalRef;
        u->sender = send;
    }
    return u;
}

// Opt build, both ranks on this cluster: match in the receiver's queue. False, with nothing
// done, when out of memory for an unexpected entry.
bool local_send(RankState* me, RankState* peer, Op* send)
{
    Envelope e{me->world_rank, send->context, send->tag, send->stamp};
    bool sent = true;
    Op* recv;
    {
        MutexGuard guard(&peer->lock);
        recv = peer->posted.take_first([&](Op* op) { return matches(op->source, op->context, op->tag, e); });
        if (recv != nullptr) {
            deliver_bytes(recv, e, send->data, send->bytes);
        } else {
            Unexpected* u = local_unexpected(send, e);
            if (u == nullptr) return false;
            sent = u->holding != Holding::LocalRef;
            peer->unexpected.push_back(u);
        }
    }
    if (recv == nullptr) peer->bell.ring();  // a matched receive's completion rang it already
    if (sent) complete(send, send_completion(send));
    return true;
}

// Between clusters (every message in the unopt build): eager while credit lasts, else
// rendezvous, which needs no credit (its RTS is an envelope only; the data stays with
// the sender until the receiver clears it). Either waits in the outbox for a write slot.
void remote_send(RankState* me, Op* send)
{
    bool eager = send->mode != SendMode::Synchronous && send->bytes <= config::kEagerMax && me->credits.take(send->dest);
    if (eager) nvx_clock_take(me->credits.returned_at(send->dest));  // not before its credit came back
    queue_wire(me, send, eager ? WireKind::Eager : WireKind::Rts);
}

// Before the rank sleeps in wait_some: the first operation still pending.
void note_wait(RankState* me, Op* const* ops, int n)
{
    int pending = 0;
    const Op* first = nullptr;
    for (int i = 0; i < n; i++)
        if (ops[i] != nullptr && !is_done(ops[i])) {
            if (first == nullptr) first = ops[i];
            pending++;
        }
    if (first == nullptr) return;
    if (first->kind == OpKind::Recv)
        show_wait_note(me, WaitKey{"receive from", true, first->source, first->tag, first->context, pending - 1});
    else
        show_wait_note(me, WaitKey{"send to", true, first->dest, first->tag, first->context, pending - 1});
}

// The first unexpected message a receive of (source, context, tag) would match; `take`
// removes it from matching (a matched probe). nullptr when there is none.
Unexpected* probe_queue(RankState* me, int source, uint32_t context, int tag, bool take, Completion* out)
{
    auto match = [&](Unexpected* x) { return matches(source, context, tag, x->env); };
    Unexpected* u;
    uint64_t stamp;
    {
        MutexGuard guard(&me->lock);
        u = take ? me->unexpected.take_first(match) : me->unexpected.find_first(match);
        if (u != nullptr && out != nullptr) *out = Completion{u->env.source, u->env.tag, u->bytes, false, false};
        stamp = u != nullptr ? u->env.stamp : 0;
    }
    if (u != nullptr) nvx_clock_take(stamp);  // the probe sees the message once it is there
    return u;
}

// A rank's wait: progress, then stop if `ready()`, else sleep on the doorbell showing
// `note()`'s wait note. The snapshot before the look makes a ring after it end the sleep.
template <class Ready, class Note>
void wait_loop(RankState* me, Ready ready, Note note)
{
    for (;;) {
        uint32_t seen = me->bell.snapshot();
        progress(me);
        if (ready()) {
            settle_thread(me);
            return;
        }
        note();
        me->bell.sleep(seen);
        clear_wait_note(me);
    }
}

Unexpected* probe_blocking(int source, uint32_t context, int tag, bool take, Completion* out)
{
    RankState* me = me_or_die();
    Unexpected* u = nullptr;
    wait_loop(
        me, [&] { return (u = probe_queue(me, source, context, tag, take, out)) != nullptr; },
        [&] { show_wait_note(me, WaitKey{"probe for", true, source, tag, context, 0}); });
    return u;
}

Message* as_message(Unexpected* u) { return reinterpret_cast<Message*>(u); }

}  // namespace

void transport_failure(const char* what, long err)
{
    printf("[lwmpi] rank %d (cluster %u): %s failed (%ld): ending the run\n", world_rank(), g_cluster.my_cluster, what, err);
    abort_run(1);
}

void complete(Op* op, const Completion& c, uint64_t stamp)
{
    RankState* owner = state_of(op->owner);
    uint64_t now = now_stamp();
    op->result = c;
    op->stamp = stamp > now ? stamp : now;
    __atomic_store_n(&op->done, 1, __ATOMIC_RELEASE);  // the owner may free op from here on
    owner->bell.ring();
}

void deliver_bytes(Op* recv, const Envelope& e, const void* data, size_t bytes)
{
    size_t n = delivered_bytes(bytes, recv->capacity);
    if (n > 0) memcpy(recv->buf, data, n);
    complete(recv, Completion{e.source, e.tag, n, truncates(bytes, recv->capacity), false}, e.stamp);
}

namespace {

// The fields of a send, then its protocol: matched in a local receiver's queue, or queued
// for the wire. False, with nothing started, when out of memory for an unexpected entry.
bool start_send(RankState* me, Op* send, int dest_world, uint32_t context, int tag, const void* buf, size_t bytes,
                SendMode mode)
{
    send->mode = mode;
    send->dest = dest_world;
    send->context = context;
    send->tag = tag;
    send->data = nvx_shared_address(buf);  // a local receiver's thread reads it
    send->bytes = bytes;
    RankState* peer = state_of(dest_world);
    if (peer == nullptr || !g_cluster.local_path) {
        remote_send(me, send);
        settle_thread(me);
        return true;
    }
    return local_send(me, peer, send);
}

// The fields of a receive, then its match: an unexpected message consumed now, or posted.
void start_recv(RankState* me, Op* recv, int source_world_or_any, uint32_t context, int tag_or_any, void* buf,
                size_t capacity)
{
    recv->source = source_world_or_any;
    recv->context = context;
    recv->tag = tag_or_any;
    recv->buf = nvx_shared_address(buf);  // a local sender's thread writes it
    recv->capacity = capacity;
    {
        MutexGuard guard(&me->lock);
        Unexpected* u = me->unexpected.take_first(
            [&](Unexpected* x) { return matches(recv->source, recv->context, recv->tag, x->env); });
        if (u != nullptr) consume(me, recv, u);
        else me->posted.push_back(recv);
    }
    // A request to send it matched: its read is posted and its sender cleared now, so the
    // data moves while the rank computes, not only once it waits.
    if (!me->ready.empty()) {
        progress(me);
        settle_thread(me);
    }
}

bool counter_is_at(const Counter* c, uint32_t target)
{
    return static_cast<int32_t>(__atomic_load_n(&c->value, __ATOMIC_ACQUIRE) - target) >= 0;
}

bool end_met(const WaitEnd& end)
{
    return (end.counter != nullptr && counter_is_at(end.counter, end.target)) ||
           (end.sync != nullptr && leader_sync_is_fired(end.sync));
}

// wait_some's loop, which `end` also ends.
int wait_ops_or_end(Op* const* ops, int n, int* done_index, int max_done, const WaitEnd& end)
{
    RankState* me = me_or_die();
    int k = 0;
    auto ready = [&] {
        for (int i = 0; i < n && k < max_done; i++)
            if (ops[i] != nullptr && is_done(ops[i])) {
                take_completion_time(ops[i]);
                done_index[k++] = i;
            }
        return k > 0 || end_met(end);
    };
    auto note = [&] {
        if (end.counter != nullptr) show_wait_note(me, "a shared-memory collective of its cluster");
        else if (end.sync != nullptr) show_wait_note(me, "the barrier of its cluster's leaders (NoC sync)");
        else note_wait(me, ops, n);
    };
    wait_loop(me, ready, note);
    return k;
}

// An operation of the blocking calls, on the caller's stack: never in spare_ops. Only the
// fields every path reads are set here (start_send / start_recv set their side's, a match
// sets the protocol's).
struct StackOp : Op {
    StackOp(OpKind k, const RankState* me)
    {
        next = nullptr;
        kind = k;
        mode = SendMode::Standard;
        wire = WireKind::Eager;
        owner = me->world_rank;
        done = 0;
        stamp = now_stamp();
    }
};

// The blocking calls' wait for their one operation.
void wait_done(RankState* me, Op* op, Completion* out)
{
    wait_loop(me, [&] { return is_done(op); }, [&] { note_wait(me, &op, 1); });
    take_completion_time(op);
    if (out != nullptr) *out = op->result;
}

}  // namespace

Op* isend(int dest_world, uint32_t context, int tag, const void* buf, size_t bytes, SendMode mode)
{
    RankState* me = me_or_die();
    Op* send = new_op(OpKind::Send, me);
    if (send == nullptr) return nullptr;
    if (!start_send(me, send, dest_world, context, tag, buf, bytes, mode)) {
        free(send);
        return nullptr;
    }
    return send;
}

Op* irecv(int source_world_or_any, uint32_t context, int tag_or_any, void* buf, size_t capacity)
{
    RankState* me = me_or_die();
    Op* recv = new_op(OpKind::Recv, me);
    if (recv == nullptr) return nullptr;
    start_recv(me, recv, source_world_or_any, context, tag_or_any, buf, capacity);
    return recv;
}

bool send(int dest_world, uint32_t context, int tag, const void* buf, size_t bytes, SendMode mode, Completion* out)
{
    RankState* me = me_or_die();
    StackOp op(OpKind::Send, me);
    if (!start_send(me, &op, dest_world, context, tag, buf, bytes, mode)) return false;
    wait_done(me, &op, out);
    return true;
}

void recv(int source_world_or_any, uint32_t context, int tag_or_any, void* buf, size_t capacity, Completion* out)
{
    RankState* me = me_or_die();
    StackOp op(OpKind::Recv, me);
    start_recv(me, &op, source_world_or_any, context, tag_or_any, buf, capacity);
    wait_done(me, &op, out);
}

bool test(Op* op, Completion* out)
{
    RankState* me = me_or_die();
    progress(me);
    settle_thread(me);
    if (!is_done(op)) return false;
    take_completion_time(op);
    if (out != nullptr) *out = op->result;
    return true;
}


int wait_some(Op* const* ops, int n, int* done_index, int max_done)
{
    bool any = false;
    for (int i = 0; i < n; i++) any |= ops[i] != nullptr;
    if (!any || max_done <= 0) return 0;
    return wait_ops_or_end(ops, n, done_index, max_done, WaitEnd{});
}

int wait_some(Op* const* ops, int n, int* done_index, int max_done, const WaitEnd& end)
{
    return wait_ops_or_end(ops, n, done_index, max_done, end);
}

void wait_all(Op* const* ops, int n)
{
    RankState* me = me_or_die();
    int first = 0;  // every operation before it is done and its time taken
    auto ready = [&] {
        for (; first < n; first++) {
            if (ops[first] == nullptr) continue;
            if (!is_done(ops[first])) return false;
            take_completion_time(ops[first]);
        }
        return true;
    };
    wait_loop(me, ready, [&] { note_wait(me, ops + first, n - first); });
}

uint32_t counter_add(Counter* c, uint32_t n)
{
    uint64_t now = now_stamp();
    uint64_t seen = __atomic_load_n(&c->stamp, __ATOMIC_RELAXED);
    // An atomic maximum: a failed exchange reloads `seen`, retried only while it is older.
    while (seen < now &&
           !__atomic_compare_exchange_n(&c->stamp, &seen, now, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
    return __atomic_add_fetch(&c->value, n, __ATOMIC_ACQ_REL);
}

bool counter_reached(const Counter* c, uint32_t target)
{
    if (!counter_is_at(c, target)) return false;
    nvx_clock_take(__atomic_load_n(&c->stamp, __ATOMIC_RELAXED));  // ordered by the value's acquire
    return true;
}

void wake_rank(int world_rank) { state_of(world_rank)->bell.ring(); }

bool cancel(Op* op)
{
    if (op->kind != OpKind::Recv) return false;
    RankState* me = me_or_die();
    bool removed;
    {
        MutexGuard guard(&me->lock);
        removed = me->posted.remove(op);
    }
    if (removed) complete(op, Completion{kAnySource, kAnyTag, 0, false, true});
    return removed;
}

// The rank's own threads keep a few for reuse (they run one at a time); any other frees it.
void release(Op* op)
{
    RankState* me = self_state();
    if (me == nullptr || me->world_rank != op->owner || me->spare_ops.size() >= g_cluster.spare_ops) {
        free(op);
        return;
    }
    me->spare_ops.push_front(op);
}

void drop_spare_ops(RankState* me)
{
    while (Op* op = me->spare_ops.pop_front()) free(op);
}

void poll_idle() { nvx_thread_yield(); }

bool iprobe(int source_or_any, uint32_t context, int tag_or_any, Completion* out)
{
    RankState* me = me_or_die();
    progress(me);
    settle_thread(me);
    return probe_queue(me, source_or_any, context, tag_or_any, false, out) != nullptr;
}

void probe(int source_or_any, uint32_t context, int tag_or_any, Completion* out)
{
    probe_blocking(source_or_any, context, tag_or_any, false, out);
}

Message* improbe(int source_or_any, uint32_t context, int tag_or_any, Completion* out)
{
    RankState* me = me_or_die();
    progress(me);
    settle_thread(me);
    return as_message(probe_queue(me, source_or_any, context, tag_or_any, true, out));
}

Message* mprobe(int source_or_any, uint32_t context, int tag_or_any, Completion* out)
{
    return as_message(probe_blocking(source_or_any, context, tag_or_any, true, out));
}

// The held entry is consumed as irecv consumes one it finds: every protocol (cell, local
// sender's buffer, rendezvous) completes the same way.
Op* imrecv(Message* message, void* buf, size_t capacity)
{
    RankState* me = me_or_die();
    Unexpected* u = reinterpret_cast<Unexpected*>(message);
    Op* recv = new_op(OpKind::Recv, me);
    if (recv == nullptr) return nullptr;
    recv->source = u->env.source;
    recv->context = u->env.context;
    recv->tag = u->env.tag;
    recv->buf = nvx_shared_address(buf);  // a local sender's thread writes it
    recv->capacity = capacity;
    MutexGuard guard(&me->lock);
    consume(me, recv, u);
    return recv;
}

void stats(Stats* out)
{
    out->first_contacts = g_cluster.first_contacts;
    out->first_contact_seconds = (double)g_cluster.first_contact_ticks / (double)NVX_TIMER_HZ;
    out->helper_threads = 0;  // every rank moves its own messages
}

}  // namespace mputil
