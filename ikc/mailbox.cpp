#include "ikc/mailbox.hpp"

#include "ikc/mailbox_ring.hpp"

#include "hal/noc/noc_driver.hpp"
#include "hal/riscv/sv39.hpp"
#include "ikc/held_messages.hpp"
#include "ikc/message_buffers.hpp"
#include "ikc/endpoint_calls.hpp"
#include "ikc/own_nodes.hpp"
#include "kernel/console.hpp"
#include "kernel/layout.hpp"
#include "kernel/mm/address_space.hpp"
#include "kernel/proc/process.hpp"
#include "ikc/ops.hpp"
#include "support/atomic.hpp"
#include "support/bits.hpp"

namespace nvx::ikc {
namespace {
using kernel::g_space;
using kernel::UserAddr;
using noc::MailboxMessage;

EndpointTable<kVirtualMailboxes> g_mailboxes;
MessageBuffers g_buffers;
OpQueue g_credit_waits[board::kMaxNodes];  // remote sends waiting for a slot at that node
OpQueue g_held_waits;                       // remote sends behind a refused message for their port
OpQueue g_local_waits;                      // local sends waiting for room at their port
// Sending side: our messages receivers refused, kept until their port drains; and the
// receivers whose refused message found the pool full (it waits in the event area, and
// the engine lets nothing else go there until we take it).
HeldMessages g_held;
u64 g_stuck_targets;
// Receiving side: per own node and port, the senders we refused (told when it drains).
u64 g_refused[kMaxOwnNodes][kPorts];
u32 g_refused_ports;  // (node, port) pairs with refused senders: 0 in the common case

bool g_look_again;     // the program ended: look at the slots once more, whatever was raised

MailboxMessage& staged(IkcOp* op) { return *reinterpret_cast<MailboxMessage*>(op->staging); }
static_assert(sizeof(IkcOp::staging) >= sizeof(MailboxMessage));

u32 target_port(IkcOp* op) { return staged(op).header.target_port; }

// A port keeps the order of each sender's messages: a thread's for the messages it sends
// inside the cluster, a source node's for those that come over the NoC (its one slot
// towards us). Threads are told apart by slot: a later thread in the slot of one whose
// messages are still buffered only waits behind them.
constexpr Sender kLocalSender = 1u << 31;
Sender local_sender(const Thread* t) { return kLocalSender | kernel::thread_slot(t); }
Sender remote_sender(u16 node) { return node; }

Endpoint& endpoint_of(IkcOp* op) { return g_mailboxes.at(op->endpoint); }
u64 phys_of(const void* p) { return kernel::g_layout.virt_to_phys(reinterpret_cast<u64>(p)); }

bool copy_origin(UserAddr to, Origin origin) {
    if (to.is_null()) return true;
    nvx_mailbox_origin o = {origin.node, (origin.flags & noc::kFromSystem) ? NVX_ORIGIN_SYSTEM : 0u};
    return g_space.copy_to_user(to, &o, sizeof o);
}

// Copies a message to a reader's buffers: its length, or -errno (the message stays).
i64 copy_to_reader(UserAddr buffer, u64 size, UserAddr origin, const u8* payload, u32 length, Origin from) {
    if (size < length) return -NVX_EMSGSIZE;  // it stays for a larger read
    if (!g_space.copy_to_user(buffer, payload, length) || !copy_origin(origin, from)) return -NVX_EFAULT;
    return length;
}

// Read `reader` takes the message `m` that `in`'s port hands out next, whichever of the two
// the host presented first (OpClock::serve_take). Returns the read's result (the message
// stays on failure) and, in `at`, the time the reader goes on from.
IKC_SHARED_SERVICE i64 take_buffered(IkcOp* reader, Endpoint& in, BufferedMessage* m, u64* at) {
    u64 taken = reader->clock.serve_take(m->stamp);
    i64 r = copy_to_reader(reader->buffer, reader->size, reader->origin, m->payload, m->length, m->origin);
    if (r >= 0) {
        g_buffers.release(m);
        PortClock::of(in.node, in.port).left(taken);
        count_message(in, static_cast<u64>(r));
    }
    *at = core_now();
    return r;
}

// The readers asleep on `in` take its buffered messages, in a context of their own: the
// caller's time goes on as if none had been waiting.
void serve_waiters(Endpoint& in) {
    ServiceAside aside;
    while (!in.waiters.empty()) {
        BufferedMessage* m = g_buffers.next_out(in.node, in.port);
        if (m == nullptr) break;
        IkcOp* reader = in.waiters.pop();
        u64 at;
        i64 r = take_buffered(reader, in, m, &at);
        wake_at(reader, in, r, at);
    }
}

// The ring of `in` takes the port's buffered messages while it has room, each from the
// later of its arrival and `request` (0: from its arrival, as a server reader takes it);
// the caller's time goes on as if none had been waiting. Returns how many it took.
u32 fill_ring(Endpoint& in, u64 request) {
    u32 id = g_mailboxes.id_of(&in);
    const OpClock ring_reader = {request, false, 0, 0};
    ServiceAside aside;
    u64 last = 0;
    u32 moved = 0;
    while (BufferedMessage* m = g_buffers.next_out(in.node, in.port)) {
        if (!ring_has_room(id) && !ring_stall(id)) break;
        ring_reader.serve_take(m->stamp);
        if (!ring_put(id, m->payload, m->length, m->origin, &last)) break;  // it stays for reads
        count_message(in, m->length);
        g_buffers.release(m);
        PortClock::of(in.node, in.port).left(last);
        moved++;
    }
    if (moved != 0) ring_notify(id, last);
    return moved;
}

// True if a message for `in`'s port may go straight into its ring: it has room and no
// earlier message of the port waits in the kernel.
bool ring_takes(const Endpoint* in) {
    if (in == nullptr) return false;
    u32 id = g_mailboxes.id_of(in);
    return ring_attached(id) && g_buffers.held_by(in->node, in->port) == 0 && ring_has_room(id);
}

// Puts a message that arrived for `in` straight into its ring (ring_takes said it may);
// false if the ring went away meanwhile (the caller buffers it).
bool put_in_ring(Endpoint& in, const u8* payload, u32 length, Origin origin) {
    u32 id = g_mailboxes.id_of(&in);
    u64 at;
    if (!ring_put(id, payload, length, origin, &at)) return false;
    count_message(in, length);
    PortClock::of(in.node, in.port).passed(at);
    ring_notify(id, at);
    return true;
}

// A message from `sender` that arrived on own node `node` goes into its port's ring, or is
// buffered, then handed to the readers asleep on its port (the same path as a reader that
// comes after it); false when the port is full (the caller pushes back). Should the pool
// be full while a reader waits with nothing buffered, the message goes straight to it.
bool deliver(u32 node, u32 port, Origin origin, Sender sender, const u8* payload, u32 length) {
    Endpoint* in = g_mailboxes.find_input(node, port);
    if (ring_takes(in) && put_in_ring(*in, payload, length, origin)) return true;
    if (g_buffers.store(node, port, origin, sender, payload, length, core_now())) {
        PortClock::of(node, port).entered();
        if (in == nullptr) return true;
        if (ring_attached(g_mailboxes.id_of(in)))
            fill_ring(*in, 0);
        else
            serve_waiters(*in);
        return true;
    }
    if (in == nullptr || g_buffers.held_by(node, port) != 0) return false;
    while (!in->waiters.empty()) {
        IkcOp* reader = in->waiters.pop();
        i64 r = copy_to_reader(reader->buffer, reader->size, reader->origin, payload, length, origin);
        if (r >= 0) {
            count_message(*in, length);
            PortClock::of(node, port).passed(core_now());
        }
        wake(reader, *in, r);
        if (r >= 0) return true;
    }
    return false;
}

// True if a message for (node, port) would be taken now (by a waiting reader or a buffer).
bool can_take(u32 node, u32 port) {
    Endpoint* in = g_mailboxes.find_input(node, port);
    if (ring_takes(in)) return true;
    if (in != nullptr && !in->waiters.empty() && g_buffers.held_by(node, port) == 0) return true;
    return g_buffers.has_room(node, port);
}

// Receiving side: tells the senders we refused that their port takes messages again.
void tell_drained() {
    if (g_refused_ports == 0) return;
    for (u32 i = 0; i < own_node_count(); i++) {
        for (u32 port = 0; port < kPorts; port++) {
            u64 senders = g_refused[i][port];
            if (senders == 0 || !can_take(own_node(i).node, port)) continue;
            sbi::Result r = noc::mailbox_drained(own_node(i).node, port, senders);
            if (r.error != sbi::kSuccess) kernel::panic("NoC engine refused a drained notice (%ld)", r.error);
            g_refused[i][port] = 0;
            g_refused_ports--;
        }
    }
}

// A local write, the first attempt or a retry, goes into its port (PortClock::serve_entry);
// false when the port is full in host time. `at`: the time the writer goes on from.
IKC_SHARED_SERVICE bool send_local(IkcOp* op, u64* at) {
    MailboxMessage& m = staged(op);
    Endpoint& out = endpoint_of(op);
    PortClock::of(out.remote_node, m.header.target_port).serve_entry(op->clock);
    Origin origin = {static_cast<u16>(out.node), m.header.flags};
    if (!deliver(out.remote_node, m.header.target_port, origin, local_sender(op->owner), m.payload, m.header.length)) return false;
    count_message(out, m.header.length);
    *at = core_now();
    return true;
}

// Local senders pushed back (their port full), retried whenever a reader or room may
// have appeared; the caller's time goes on as if none had been waiting.
void retry_local_sends() {
    if (g_local_waits.empty()) return;
    ServiceAside aside;
    retry_in_port_order(g_local_waits, target_port, [](IkcOp* op) {
        u64 at;
        if (!send_local(op, &at)) return false;
        wake_at(op, endpoint_of(op), static_cast<i64>(op->size), at);
        return true;
    });
}

// Room may have appeared at our ports: local senders first, then the remote ones we refused.
void ports_drained() {
    retry_local_sends();
    tell_drained();
}

i64 try_send(IkcOp* op) {
    Endpoint& out = endpoint_of(op);
    sbi::Result r = noc::mailbox_send(out.node, out.remote_node, phys_of(&staged(op)));
    if (r.error == noc::kBusy) return noc::kBusy;
    if (r.error != sbi::kSuccess) return -NVX_EINVAL;
    count_transfer(out, sizeof(noc::MailboxHeader) + op->size);  // what the engine moves and times
    count_message(out, op->size);
    return 0;
}

// A remote writer whose port has a refused message of ours waiting: it waits behind it
// (order per port), or fails at once if it asked not to wait.
void behind_held(IkcOp* op) {
    if (op->nonblocking) {
        wake(op, endpoint_of(op), -NVX_EAGAIN);
        return;
    }
    g_held_waits.push(op);
    op->queue = &g_held_waits;
}

// The held message for (target, port) went out again: its port's writers queue for the slot.
void release_held_waiters(u32 target, u32 port) {
    auto behind = [&](IkcOp* op) { return endpoint_of(op).remote_node == target && target_port(op) == port; };
    while (IkcOp* op = g_held_waits.take_first(behind)) {
        g_credit_waits[target].push(op);
        op->queue = &g_credit_waits[target];
    }
}

// The slot at `target` may be free: held messages whose port drained go first, then the
// writers in order. A busy answer registers us with the engine: its credit brings us back.
void send_waiting(u32 target) {
    u32 from = source_node_for(target);
    while (HeldMessage* h = g_held.ready(target)) {
        serve_unstamped();  // its sender went on long ago: the engine times it from the notice
        sbi::Result r = noc::mailbox_send(from, target, phys_of(&h->message));
        if (r.error == noc::kBusy) return;
        if (r.error != sbi::kSuccess) kernel::panic("NoC engine refused to resend a held message (%ld)", r.error);
        u32 port = h->message.header.target_port;
        g_held.release(h);
        release_held_waiters(target, port);
    }
    OpQueue& queue = g_credit_waits[target];
    while (!queue.empty()) {
        IkcOp* op = queue.front();
        if (g_held.holds(target, target_port(op))) {
            queue.pop();
            behind_held(op);
            continue;
        }
        op->clock.serve_ready();
        i64 r = try_send(op);
        if (r == noc::kBusy) break;  // the engine registered us again; we keep our place
        queue.pop();
        wake(op, endpoint_of(op), r == 0 ? static_cast<i64>(op->size) : r);
    }
}

// Receivers that refused our messages: keep each until its port drains, and let the
// slot serve the other ports at once.
bool take_back(OwnNode& own) {
    u64 returned = atomic::load_acquire(&own.events->mailbox_returned);
    bool moved = false;
    for (; returned != 0; returned &= returned - 1) {
        u32 target = lowest_set_bit(returned);
        if (!g_held.keep(target, own.events->returned[target])) {
            g_stuck_targets |= 1ull << target;  // retried when the pool has room
            continue;
        }
        g_stuck_targets &= ~(1ull << target);
        atomic::fetch_and(&own.events->mailbox_returned, ~(u64{1} << target));
        send_waiting(target);
        moved = true;
    }
    return moved;
}

bool poll_drained(OwnNode& own) {
    u64 targets = atomic::exchange_acq_rel(&own.events->mailbox_drained, u64{0});
    bool moved = targets != 0;
    for (u64 left = targets; left != 0; left &= left - 1) {
        u32 target = lowest_set_bit(left);
        g_held.drained(target, atomic::exchange_acq_rel(&own.events->drained_ports[target], u32{0}));
    }
    for (u64 ready = targets & g_held.ready_targets(); ready != 0; ready &= ready - 1) send_waiting(lowest_set_bit(ready));
    return moved;
}

bool poll_credits(OwnNode& own) {
    u64 credits = atomic::exchange_acq_rel(&own.events->mailbox_credit, u64{0});
    bool moved = credits != 0;
    for (; credits != 0; credits &= credits - 1) send_waiting(lowest_set_bit(credits));
    return moved;
}

// The receiving side: every full slot is delivered, or refused back to its sender (its
// port is full) so that the slot serves that sender's other ports.
bool poll_arrivals(u32 index) {
    OwnNode& own = own_node(index);
    bool moved = false;
    // Earliest arrival first: messages the host delivered together are served in the
    // order the modeled kernel would see them.
    u32 senders[board::kMaxNodes];
    u32 n = 0;
    for (u64 full = atomic::load_acquire(&own.events->mailbox_full); full != 0; full &= full - 1) {
        u32 s = lowest_set_bit(full), i = n++;
        for (; i > 0 && own.events->slot_stamp[senders[i - 1]] > own.events->slot_stamp[s]; i--) senders[i] = senders[i - 1];
        senders[i] = s;
    }
    for (u32 k = 0; k < n; k++) {
        u32 sender = senders[k];
        EventService service(own.events->slot_stamp[sender]);  // each arrival from its own time on
        const MailboxMessage& m = own.events->slots[sender];
        u32 port = m.header.target_port;
        Origin origin = {m.header.source, m.header.flags};
        if (deliver(own.node, port, origin, remote_sender(m.header.source), m.payload, m.header.length)) {
            if (Endpoint* in = g_mailboxes.find_input(own.node, port)) in->stats.hw_transfers++;
            sbi::Result r = noc::mailbox_release(own.node, sender);  // a full slot of our own node
            if (r.error != sbi::kSuccess) kernel::panic("mailbox slot release refused by the NoC engine (%ld)", r.error);
        } else {
            sbi::Result r = noc::mailbox_refuse(own.node, sender);
            if (r.error != sbi::kSuccess) kernel::panic("mailbox refusal refused by the NoC engine (%ld)", r.error);
            if (port < kPorts) {  // a port out of range never drains: its sender keeps it
                if (g_refused[index][port] == 0) g_refused_ports++;
                g_refused[index][port] |= 1ull << sender;
            }
        }
        moved = true;
    }
    return moved;
}
}  // namespace

i64 mailbox_create(u64 node, u64 port) {
    i64 id = create_input(g_mailboxes, node, port);
    if (id < 0) return id;
    g_buffers.set_claimed(static_cast<u32>(node), static_cast<u32>(port), true);
    ports_drained();  // the port's messages no longer count as unclaimed
    return id;
}

i64 mailbox_open(u64 node, u64 port) { return open_output(g_mailboxes, node, port); }

namespace {
// A read of `id` into `buffer`: -errno if the call is wrong (nothing begun), else 0 with
// `size` bounded to a message's.
i64 check_read(u64 id, UserAddr buffer, u64* size) {
    if (g_mailboxes.lookup(id, Direction::Input) == nullptr) return -NVX_EBADF;
    if (ring_attached(static_cast<u32>(id))) return -NVX_EBUSY;  // its messages go to the ring
    if (*size == 0) return -NVX_EINVAL;
    if (*size > NVX_MAILBOX_MSG_MAX) *size = NVX_MAILBOX_MSG_MAX;
    return g_space.user_range_ok(buffer, *size, riscv::sv39::kWrite) ? 0 : -NVX_EFAULT;
}

// Read `op` (checked, begun) takes the message its port hands out next, or waits for one.
CallResult start_read(IkcOp* op) {
    Endpoint& in = endpoint_of(op);
    BufferedMessage* m = g_buffers.next_out(in.node, in.port);
    if (m == nullptr) {
        CallResult outcome = sleep_on(in.waiters, op, in);
        ports_drained();  // a pushed-back message may be for this reader
        return outcome;
    }
    u64 at;
    i64 r = take_buffered(op, in, m, &at);
    if (r >= 0) ports_drained();  // a buffer freed
    return finish_in_call(op, r, at);
}

// A write of `size` bytes of `buffer` to `id`: -errno if the call is wrong (nothing begun).
i64 check_write(u64 id, u64 size) {
    if (g_mailboxes.lookup(id, Direction::Output) == nullptr) return -NVX_EBADF;
    return size == 0 || size > NVX_MAILBOX_MSG_MAX ? -NVX_EINVAL : 0;
}

// Write `op` of `buffer`: the message is staged in the kernel now (the buffer is free
// again), then goes, or waits for room, a credit or a held message of its port.
CallResult start_write(IkcOp* op, u64 id, UserAddr buffer, u64 size) {
    Endpoint* out = g_mailboxes.lookup(id, Direction::Output);
    MailboxMessage& m = staged(op);
    if (!g_space.copy_from_user(m.payload, buffer, size)) return finish_in_call(op, -NVX_EFAULT, core_now());
    // The kernel vouches for the program; the engine stamps the node.
    u16 sender_flags = kernel::g_process.system ? noc::kFromSystem : u16{0};
    m.header = {static_cast<u16>(out->node), sender_flags, static_cast<u16>(out->remote_port), static_cast<u16>(size)};
    op->clock.ready_now();
    if (own_index(out->remote_node) >= 0) {  // same cluster: through the kernel only
        u64 at;
        if (!waiting_for_port(g_local_waits, out->remote_port, target_port) && send_local(op, &at))
            return finish_in_call(op, static_cast<i64>(size), at);
        if (op->nonblocking) return finish_in_call(op, -NVX_EAGAIN, core_now());
        return sleep_on(g_local_waits, op, *out);
    }
    u32 target = out->remote_node;
    if (g_held.holds(target, out->remote_port) || (g_stuck_targets >> target) & 1) {
        if (op->nonblocking) return finish_in_call(op, -NVX_EAGAIN, core_now());
        if (g_held.holds(target, out->remote_port)) return sleep_on(g_held_waits, op, *out);
    }
    OpQueue& queue = g_credit_waits[target];
    if (queue.empty()) {
        i64 r = try_send(op);
        if (r != noc::kBusy) return finish_in_call(op, r == 0 ? static_cast<i64>(size) : r, core_now());
    }
    return sleep_on(queue, op, *out);
}
}  // namespace

CallResult mailbox_read(Thread* t, u64 id, UserAddr buffer, u64 size, UserAddr origin) {
    if (i64 error = check_read(id, buffer, &size)) return resume_with(error);
    if (!origin.is_null() && !g_space.user_range_ok(origin, sizeof(nvx_mailbox_origin), riscv::sv39::kWrite))
        return resume_with(-NVX_EFAULT);
    IkcOp* op = sync_op(t, OpKind::MailboxRead);
    op->begin(static_cast<u32>(id), buffer, size);
    op->origin = origin;
    return start_read(op);
}

CallResult mailbox_aread(Thread* t, u64 id, UserAddr buffer, u64 size, UserAddr record) {
    if (i64 error = check_read(id, buffer, &size)) return resume_with(error);
    IkcOp* op;
    if (i64 error = async_op(t, OpKind::MailboxRead, record, &op)) return resume_with(error);
    op->begin(static_cast<u32>(id), buffer, size);
    op->origin = record + offsetof(nvx_ikc_op, origin);
    return start_read(op);
}

CallResult mailbox_write(Thread* t, u64 id, UserAddr buffer, u64 size, u64 flags) {
    if (i64 error = check_write(id, size)) return resume_with(error);
    if ((flags & ~u64{NVX_MAILBOX_NONBLOCK}) != 0) return resume_with(-NVX_EINVAL);
    IkcOp* op = sync_op(t, OpKind::MailboxWrite);
    op->begin(static_cast<u32>(id), buffer, size);
    op->nonblocking = flags & NVX_MAILBOX_NONBLOCK;
    return start_write(op, id, buffer, size);
}

CallResult mailbox_awrite(Thread* t, u64 id, UserAddr buffer, u64 size, UserAddr record) {
    if (i64 error = check_write(id, size)) return resume_with(error);
    if (!g_space.user_range_ok(buffer, size, riscv::sv39::kRead)) return resume_with(-NVX_EFAULT);
    IkcOp* op;
    if (i64 error = async_op(t, OpKind::MailboxWrite, record, &op)) return resume_with(error);
    op->begin(static_cast<u32>(id), buffer, size);
    return start_write(op, id, buffer, size);
}

CallResult mailbox_ring(Thread* t, u64 id, UserAddr ring) {
    Endpoint* in = g_mailboxes.lookup(id, Direction::Input);
    if (in == nullptr) return resume_with(-NVX_EBADF);
    u32 index = static_cast<u32>(id);
    if (ring.is_null()) {
        if (!ring_attached(index)) return resume_with(-NVX_EINVAL);
        ring_detach(index);
        return resume_with(0);
    }
    if (!in->waiters.empty()) return resume_with(-NVX_EBUSY);
    if (i64 error = ring_attach(index, t, ring)) return resume_with(error);
    if (fill_ring(*in, core_now()) != 0) ports_drained();  // what arrived before
    return resume_with(0);
}

i64 mailbox_ring_refill(u64 id) {
    Endpoint* in = g_mailboxes.lookup(id, Direction::Input);
    if (in == nullptr) return -NVX_EBADF;
    if (!ring_attached(static_cast<u32>(id))) return -NVX_EINVAL;
    ring_unstall(static_cast<u32>(id));
    u32 moved = fill_ring(*in, core_now());
    if (moved != 0) ports_drained();
    return moved;
}

void mailbox_thread_ended(const Thread* t) { rings_thread_ended(t); }

i64 mailbox_close(u64 id) { return release_endpoint(g_mailboxes, id, Direction::Output); }

i64 mailbox_unlink(u64 id) {  // arrived messages stay for the port
    Endpoint* in = g_mailboxes.lookup(id, Direction::Input);
    if (in == nullptr) return -NVX_EBADF;
    u32 node = in->node, port = in->port;
    i64 r = g_mailboxes.release(in);
    if (r == 0) ring_detach(static_cast<u32>(id));
    if (r == 0) g_buffers.set_claimed(node, port, false);
    return r;
}

i64 mailbox_stats(u64 id, UserAddr address) { return copy_stats(g_mailboxes, id, address); }

bool mailbox_needs_poll() { return g_look_again || (g_stuck_targets != 0 && !g_held.full()); }

bool mailbox_poll() {
    bool moved = false;
    g_look_again = false;
    for (u32 i = 0; i < own_node_count(); i++) {
        // Retries go on from the time each write was ready; the engine times them from the credit.
        serve_unstamped();
        // Refused messages are taken back before any retry, so none is overtaken.
        moved |= take_back(own_node(i));
        moved |= poll_drained(own_node(i));
        moved |= poll_credits(own_node(i));
        moved |= poll_arrivals(i);
    }
    return moved;
}

void mailbox_reset() {
    g_mailboxes.clear();
    g_buffers.unclaim_all();
    for (OpQueue& q : g_credit_waits) q = OpQueue{};
    g_held_waits = OpQueue{};
    g_local_waits = OpQueue{};
    rings_reset();
    g_look_again = true;
    // Held messages and refused senders stay: they are messages already sent, like those
    // in the slots, and are delivered when their ports drain.
}

void mailbox_report() {
    for (u32 id = 0; id < kVirtualMailboxes; id++) {
        const Endpoint* e = g_mailboxes.lookup(id, Direction::Input);
        if (e == nullptr) continue;
        char ring[64];
        bool has_ring = ring_describe(id, ring, sizeof ring);
        u32 held = g_buffers.held_by(e->node, e->port);
        if (held == 0 && !has_ring) continue;
        kernel::kprint("[cluster %u]   mailbox node %u port %u: %u held in the kernel%s%s\n", kernel::g_layout.index,
                       e->node, e->port, held, has_ring ? ", " : "", has_ring ? ring : "");
    }
    u32 credit_waits = 0;
    for (const OpQueue& q : g_credit_waits) credit_waits += q.count();
    u32 held_waits = g_held_waits.count(), local_waits = g_local_waits.count();
    if (credit_waits + held_waits + local_waits + g_held.count() != 0)
        kernel::kprint("[cluster %u]   mailbox sends waiting: %u for a slot, %u behind a refused one, %u local; %u refused"
                       " messages held\n", kernel::g_layout.index, credit_waits, held_waits, local_waits, g_held.count());
}

bool mailbox_describe_wait(const IkcOp* op, char* out, u64 size) {
    const Endpoint* e = op->waiting_on;
    return e != nullptr && g_mailboxes.owns(e) && describe_endpoint_wait(*e, "mailbox", out, size);
}
}  // namespace nvx::ikc
