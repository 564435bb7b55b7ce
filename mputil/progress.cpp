// A rank's own progress: no helper thread moves its messages. The kernel puts the messages
// of the rank's mailbox input into its receive ring (notify: its doorbell), which the rank
// drains whenever it makes progress; it writes mailbox messages and portal data with
// asynchronous writes, at most its share of the cluster's operation pool under way (the
// rest waits in its queues, linked through the operations themselves, and starts when
// one of its own completes: that completion rings its own bell).
// Rendezvous: the receiver allows the sender's node on its portal input and posts its read
// straight into the receive buffer, then clears the sender (CTS); the sender starts an
// asynchronous write there. Each port of a node has its own receive window in the NoC
// engine, so a read posted before its writer comes holds up no other rank's read.
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <nvx/clock.h>
#include <nvx/ikc.h>

#include "state.hpp"

namespace mputil {

namespace {

bool record_done(const nvx_ikc_op& io) { return __atomic_load_n(&io.done, __ATOMIC_ACQUIRE) != 0; }

// A record whose completion bumps the rank's doorbell and hands it no time: the rank
// takes `at` itself when it consumes the result.
void prepare(nvx_ikc_op& io, RankState* me)
{
    memset(&io, 0, sizeof io);
    io.notify = &me->bell.seq;
    io.flags = NVX_IKC_NOTIFY_UNTIMED;
}

bool can_write(const RankState* me) { return me->writes < me->write_ops; }
bool can_write_portal(const RankState* me) { return can_write(me) && me->portal_writes + 1 < me->write_ops; }

size_t wire_size(const WireHeader& h) { return sizeof(WireHeader) + (h.kind == WireKind::Eager ? h.bytes : 0); }

Completion send_completion(const Op* send) { return Completion{send->dest, send->tag, send->bytes, false, false}; }

size_t rendezvous_bytes(const Op* recv) { return delivered_bytes(recv->rdv.bytes, recv->capacity); }

Completion rendezvous_completion(const Op* recv)
{
    return Completion{recv->rdv.matched.source, recv->rdv.matched.tag, rendezvous_bytes(recv),
                      truncates(recv->rdv.bytes, recv->capacity), false};
}

size_t piece_of(size_t bytes, size_t moved)
{
    return bytes - moved < config::kPortalPiece ? bytes - moved : config::kPortalPiece;
}

// ---- The mailbox input, drained by the rank itself. ----

Envelope arrived(const WireHeader& h, uint64_t at) { return Envelope{h.source, h.context, h.tag, at}; }

Unexpected* new_unexpected(const WireHeader& h, uint64_t at, size_t payload, Holding holding)
{
    Unexpected* u = static_cast<Unexpected*>(xmalloc(sizeof(Unexpected) + payload));
    memset(u, 0, sizeof *u);
    u->env = arrived(h, at);
    u->bytes = h.bytes;
    u->holding = holding;
    return u;
}

void on_eager(RankState* me, const WireMessage& m, uint64_t at)
{
    const WireHeader& h = m.h;
    Envelope e = arrived(h, at);
    MutexGuard guard(&me->lock);
    Op* recv = me->posted.take_first([&](Op* op) { return matches(op->source, op->context, op->tag, e); });
    if (recv != nullptr) {
        if (me->debts.consumed(h.source)) me->credits_due = 1;
        deliver_bytes(recv, e, m.payload, h.bytes);
    } else {
        Unexpected* u = new_unexpected(h, at, h.bytes, Holding::Cell);
        u->remote_eager = true;
        memcpy(u->payload(), m.payload, h.bytes);
        me->unexpected.push_back(u);
    }
}

void on_rts(RankState* me, const WireHeader& h, uint64_t at)
{
    Envelope e = arrived(h, at);
    MutexGuard guard(&me->lock);
    Op* recv = me->posted.take_first([&](Op* op) { return matches(op->source, op->context, op->tag, e); });
    if (recv != nullptr) {
        recv->rdv = RendezvousMatch{e, h.cookie, h.node, h.bytes, 0};
        queue_rendezvous(me, recv);
    } else {
        Unexpected* u = new_unexpected(h, at, 0, Holding::Rendezvous);
        u->cookie = h.cookie;
        u->node = h.node;
        me->unexpected.push_back(u);
    }
}

// The receiver's portal read is posted: the write may start from the clear-to-send's time.
void on_cts(RankState* me, const WireHeader& h, uint64_t at)
{
    Op* send = reinterpret_cast<Op*>(h.cookie);
    if (h.bytes == 0) {  // nothing to move (empty message or a zero-byte receive)
        complete(send, send_completion(send), at);
        return;
    }
    send->write = PortalWrite{h.node, h.port, h.bytes, 0, at};
    me->cleared.push_back(send);
}

void consume(RankState* me, const nvx_mailbox_slot& slot)
{
    long n = slot.length;
    if (n < (long)sizeof(WireHeader)) transport_failure("a short MPI mailbox message", n);
    uint64_t at = slot.at;
    const WireMessage& m = *reinterpret_cast<const WireMessage*>(slot.payload);
    const WireHeader& h = m.h;
    if (h.dest != me->world_rank) transport_failure("a message for another rank", h.dest);
    if (h.credits != 0) me->credits.give(h.source, h.credits, at);  // the sends they allow follow `at`
    switch (h.kind) {
    case WireKind::Eager:
        if (h.bytes > sizeof m.payload || (long)wire_size(h) != n) transport_failure("a malformed eager message", n);
        on_eager(me, m, at);
        break;
    case WireKind::Rts: on_rts(me, h, at); break;
    case WireKind::Cts: on_cts(me, h, at); break;
    case WireKind::Credit: me->credits.give(h.source, (uint32_t)h.bytes, at); break;
    case WireKind::Barrier:
        nvx_clock_take(at);
        __atomic_add_fetch(&g_cluster.barrier_messages, 1, __ATOMIC_ACQ_REL);
        break;
    default: transport_failure("an unknown message kind", (long)h.kind);
    }
}

// The messages the kernel put in the rank's ring; the slot is given back once consumed
// (everything of it is copied or acted on).
void drain_inbox(RankState* me)
{
    while (const nvx_mailbox_slot* slot = nvx_mailbox_ring_peek(me->inbox)) {
        consume(me, *slot);
        long err = nvx_mailbox_ring_pop(me->mailbox, me->inbox);
        if (err < 0) transport_failure("refilling the MPI receive ring", err);
    }
}

// ---- Writes. ----

// A start the rank's budget allowed but the pool refused: only operations nobody waits for
// (an ended thread's, orphaned) can hold the pool, and they complete on their own; the
// rank retries when one of its own completes, so it needs one under way.
bool refused(const RankState* me, long err, const char* what)
{
    if (err != -EAGAIN || me->writes == 0) transport_failure(what, err);
    return false;
}

WriteSlot* free_slot(RankState* me)
{
    if (!can_write(me)) return nullptr;
    for (WriteSlot& s : me->slots)
        if (!s.busy) return &s;
    return nullptr;  // cannot be: at most write_ops slots are busy
}

void occupy(RankState* me, WriteSlot* slot, Op* send)
{
    slot->busy = true;
    slot->send = send;
    slot->thread = nvx_thread_self();
    me->writes++;
    if (send != nullptr) me->portal_writes++;
}

// A piece of a cleared send finished: the next one goes first in the cleared queue, the
// last completes the send.
void piece_done(RankState* me, Op* send, const nvx_ikc_op& io)
{
    PortalWrite& w = send->write;
    long n = (long)io.result;
    if (n < 0 || (size_t)n != piece_of(w.bytes, w.moved)) transport_failure("portal write", n);
    w.moved += (size_t)n;
    if (w.moved < w.bytes) {
        me->cleared.push_front(send);
        return;
    }
    complete(send, send_completion(send), io.at);
}

void reap_writes(RankState* me)
{
    for (WriteSlot& s : me->slots) {
        if (!s.busy || !record_done(s.io)) continue;
        s.busy = false;
        me->writes--;
        if (s.send != nullptr) me->portal_writes--;
        if (s.send != nullptr) piece_done(me, s.send, s.io);
        else if (s.io.result < 0) transport_failure("MPI mailbox write", (long)s.io.result);
    }
}

// False (nothing started) when the budget or the pool has no room.
bool start_piece(RankState* me, Op* send)
{
    if (!can_write_portal(me)) return false;
    WriteSlot* slot = free_slot(me);
    if (slot == nullptr) return false;
    PortalWrite& w = send->write;
    Output out(g_cluster.out_portals, send->dest, w.node);
    nvx_clock_take(w.stamp);  // not before its clear-to-send arrived
    prepare(slot->io, me);
    const char* data = static_cast<const char*>(send->data);
    long err = nvx_portal_awrite(out.id(), data + w.moved, piece_of(w.bytes, w.moved), &slot->io);
    if (err < 0) return refused(me, err, "portal write");
    occupy(me, slot, send);
    return true;
}

void pump_cleared(RankState* me)
{
    while (can_write_portal(me) && !me->cleared.empty()) {
        Op* send = me->cleared.pop_front();
        if (!start_piece(me, send)) {
            me->cleared.push_front(send);
            return;
        }
    }
}

// The mailbox message an outbox entry stands for.
uint32_t build_wire(RankState* me, const Op* op, WireMessage* m)
{
    switch (op->wire) {
    case WireKind::Eager:
    case WireKind::Rts:
        m->h = header(op->wire, me->world_rank, op->dest);
        m->h.context = op->context;
        m->h.tag = op->tag;
        m->h.bytes = op->bytes;
        if (op->wire == WireKind::Eager) {
            if (op->bytes > 0) memcpy(m->payload, op->data, op->bytes);  // data may be null
        } else {
            m->h.synchronous = op->mode == SendMode::Synchronous;
            m->h.cookie = reinterpret_cast<uint64_t>(op);
            m->h.node = g_cluster.node;
        }
        return node_of_rank(op->dest);
    case WireKind::Cts:
        m->h = header(WireKind::Cts, me->world_rank, op->rdv.matched.source);
        m->h.cookie = op->rdv.cookie;
        m->h.bytes = rendezvous_bytes(op);
        m->h.node = g_cluster.node;
        m->h.port = g_cluster.port_of[me->world_rank];
        return op->rdv.node;
    default: transport_failure("an outbox entry of no kind", (long)op->wire);
    }
}

// An outbox entry went out: an eager send is complete (the kernel copied it), a zero-byte
// rendezvous receive too (its CTS needed it alive until now).
void sent(Op* op)
{
    if (op->wire == WireKind::Eager) complete(op, send_completion(op));
    else if (op->wire == WireKind::Cts && rendezvous_bytes(op) == 0) complete(op, rendezvous_completion(op));
}

void pump_outbox(RankState* me)
{
    while (can_write(me) && !me->outbox.empty()) {
        Op* op = me->outbox.front();
        WireMessage m;
        uint32_t node = build_wire(me, op, &m);
        // What this rank owes the destination rides along: a reply returns the credits of
        // the message it answers, with no Credit message of its own.
        m.h.credits = me->debts.collect(m.h.dest, 1);
        if (!try_wire(me, &m, node)) {
            me->debts.give_back(m.h.dest, m.h.credits);
            return;
        }
        me->outbox.pop_front();
        sent(op);
    }
}

void return_credits(RankState* me)
{
    if (__atomic_exchange_n(&me->credits_due, 0, __ATOMIC_ACQ_REL) == 0) return;
    uint32_t batch = me->debts.batch();
    for (int s = 0; s < g_cluster.world_size; s++) {
        if (!can_write(me)) {  // the rest when a write completes
            __atomic_store_n(&me->credits_due, 1, __ATOMIC_RELEASE);
            return;
        }
        uint32_t n = me->debts.collect(s, batch);
        if (n == 0) continue;
        WireHeader h = header(WireKind::Credit, me->world_rank, s);
        h.bytes = n;
        if (!try_wire(me, &h, node_of_rank(s))) {
            me->debts.give_back(s, n);
            __atomic_store_n(&me->credits_due, 1, __ATOMIC_RELEASE);
            return;
        }
    }
}

// ---- The portal input: one rendezvous receive at a time. ----

void post_piece(RankState* me)
{
    Op* recv = me->rdv_active;
    size_t bytes = rendezvous_bytes(recv);
    long err = nvx_portal_allow(me->portal, recv->rdv.node);
    if (err < 0) transport_failure("portal allow", err);
    prepare(me->portal_read, me);
    char* buf = static_cast<char*>(recv->buf);
    err = nvx_portal_aread(me->portal, buf + recv->rdv.moved, piece_of(bytes, recv->rdv.moved), &me->portal_read);
    if (err < 0) transport_failure("posting a portal read", err);  // its budget is reserved
    me->portal_posted = true;
    me->portal_thread = nvx_thread_self();
}

void pump_rendezvous(RankState* me)
{
    for (;;) {
        if (Op* recv = me->rdv_active) {
            if (!me->portal_posted) post_piece(me);
            if (!record_done(me->portal_read)) return;
            me->portal_posted = false;
            long n = (long)me->portal_read.result;
            size_t bytes = rendezvous_bytes(recv);
            if (n < 0 || (size_t)n != piece_of(bytes, recv->rdv.moved)) {  // never report a short read delivered
                printf("[lwmpi] rank %d: portal read failed (%ld): ending the run\n", me->world_rank, n);
                abort_run(1);
            }
            recv->rdv.moved += (size_t)n;
            if (recv->rdv.moved < bytes) continue;
            me->rdv_active = nullptr;
            complete(recv, rendezvous_completion(recv), me->portal_read.at);
            continue;
        }
        Op* recv = me->ready.pop_front();
        if (recv == nullptr) return;
        nvx_clock_take(recv->rdv.matched.stamp);  // the clear-to-send follows the RTS's arrival
        recv->rdv.moved = 0;
        if (rendezvous_bytes(recv) > 0) {  // the read is posted before the sender is cleared
            me->rdv_active = recv;
            post_piece(me);
        }
        queue_wire(me, recv, WireKind::Cts);
    }
}

bool thread_has_writes(const RankState* me, nvx_thread_t self)
{
    for (const WriteSlot& s : me->slots)
        if (s.busy && s.thread == self) return true;
    return false;
}

}  // namespace

bool try_wire(RankState* me, const void* msg, uint32_t node)
{
    WriteSlot* slot = free_slot(me);
    if (slot == nullptr) return false;
    const WireHeader* h = static_cast<const WireHeader*>(msg);
    prepare(slot->io, me);
    Output out(g_cluster.out_mailboxes, h->dest, node);
    long err = nvx_mailbox_awrite(out.id(), msg, wire_size(*h), &slot->io);
    if (err < 0) return refused(me, err, "MPI mailbox write");
    occupy(me, slot, nullptr);
    return true;
}

void queue_wire(RankState* me, Op* op, WireKind kind)
{
    op->wire = kind;
    me->outbox.push_back(op);
    pump_outbox(me);
}

void queue_rendezvous(RankState* me, Op* recv) { me->ready.push_back(recv); }

void progress_work(RankState* me)
{
    drain_inbox(me);
    if (me->writes != 0) reap_writes(me);
    if (me->rdv_active != nullptr || !me->ready.empty()) pump_rendezvous(me);
    if (!me->outbox.empty()) pump_outbox(me);
    if (!me->cleared.empty()) pump_cleared(me);
    if (__atomic_load_n(&me->credits_due, __ATOMIC_ACQUIRE) != 0) return_credits(me);
}

void flush_writes(RankState* me)
{
    for (;;) {
        uint32_t seen = me->bell.snapshot();
        progress(me);
        if (me->outbox.empty() && me->cleared.empty() && me->writes == 0) return;
        me->bell.sleep(seen);
    }
}

// A thread of a rank other than its own may end after this call, and the kernel forgets
// what an ended thread started: its writes and its portal read are waited for, making
// progress meanwhile as any wait does (each needs only its peer rank's progress, never
// this call's return: the read's clear-to-send goes out in that progress).
void settle_other_thread(RankState* me)
{
    nvx_thread_t self = nvx_thread_self();
    for (;;) {
        uint32_t seen = me->bell.snapshot();
        progress(me);
        bool reading = me->portal_posted && me->portal_thread == self;
        if (!thread_has_writes(me, self) && !reading) break;
        me->bell.sleep(seen);
    }
}

}  // namespace mputil
