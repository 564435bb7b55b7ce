#include "hal/firmware/noc_engine.hpp"

#include "hal/board/current.hpp"
#include "hal/firmware/devices.hpp"
#include "hal/firmware/noc_time.hpp"
#include "hal/noc/noc_abi.hpp"
#include "support/atomic.hpp"
#include "support/bits.hpp"
#include "support/spinlock.hpp"
#include "support/mem.hpp"

namespace nvx::firmware {
namespace {
using board::kBoard;
using sbi::Result;
using namespace noc;

struct PortalState {
    bool allowed;
    u32 sender;
    PortalSegment segments[kPortalMaxSegments];  // the posted window, copied at allow time
    u32 count;
    u32 segment;    // segment being filled
    u64 offset;     // bytes filled in that segment
    u64 filled;     // bytes filled in the whole window
    u64 window;     // bytes of the whole window
    u64 remaining;  // what the receiver's whole read can still take
    u64 allowed_at; // virtual time the allow reaches the sender
    u64 arrival;    // virtual time the window's last byte so far arrived
};

struct NodeEngine {
    SpinLock lock;     // held only while one request is applied to this node
    EventArea* events; // physical address in the owner's memory; null until attached
    u64 credit_waiters;
    u64 portal_waiters;  // senders that found no window allowing them
    PortalState portal[kPortalWindows];  // by logical port
    u64 sync_expected[kSyncsPerNode];
    u64 sync_value[kSyncsPerNode];
    NodeStats stats;
    // Virtual time: when each sender's slot here is free again as that sender sees it (the
    // credit or drained notice reached it), when each sync register was armed and its
    // latest signal arrived.
    u64 slot_free_at[kMaxNodes];
    // When the message now in each sender's slot left, and when the slot was free before it.
    u64 slot_taken_at[kMaxNodes];
    u64 slot_before_at[kMaxNodes];
    u64 sync_armed_at[kSyncsPerNode];
    u64 sync_arrival[kSyncsPerNode];
};

constexpr u64 later(u64 a, u64 b) { return a > b ? a : b; }

NodeEngine g_nodes[kBoard.node_count];

constexpr u64 bit(u64 n) { return 1ull << n; }

// A cluster may send from any of its nodes (I/O clusters have several interfaces): an
// allow names the sender's cluster through one of its nodes.
u64 nodes_of_cluster_of(u32 node) {
    const board::Cluster& c = kBoard.cluster(kBoard.cluster_of_node(node));
    return (c.nodes == 64 ? ~0ull : bit(c.nodes) - 1) << c.first_node;
}
constexpr Result ok(u64 value = 0) { return {sbi::kSuccess, value}; }
constexpr Result error(i64 code) { return {code, 0}; }

bool in_caller(const board::Cluster& c, u64 phys, u64 len) { return range_contains(c.mem_base, c.mem_size, phys, len); }

void interrupt_owner(u32 node) {
    EventArea* events = atomic::load_acquire(&g_nodes[node].events);
    if (events != nullptr) atomic::store_release(&events->raised, u64{1});
    atomic::fence();
    *msip(kBoard.cluster(kBoard.cluster_of_node(node)).first_hart) = 1;
}

// Sets an event bit in `node`'s area and interrupts its cluster's kernel core.
void notify(u32 node, u64 EventArea::*field, u64 bits) {
    EventArea* events = atomic::load_acquire(&g_nodes[node].events);
    if (events == nullptr) return;  // delivered at attach
    atomic::fetch_or(&(events->*field), bits);
    interrupt_owner(node);
}

void notify_each(u64 nodes, u64 EventArea::*field, u32 from) {
    for (; nodes != 0; nodes &= nodes - 1) notify(lowest_set_bit(nodes), field, bit(from));
}

Result attach(const board::Cluster& c, u32 node, u64 area, u64 clock_offsets) {
    if (area % 8 != 0 || !in_caller(c, area, sizeof(EventArea))) return error(sbi::kErrInvalidAddress);
    if (clock_offsets != 0 && !noc_time::register_offsets(c, clock_offsets)) return error(sbi::kErrInvalidAddress);
    NodeEngine& n = g_nodes[node];
    u64 credit_waiters, portal_waiters;
    {
        noc_time::TimedLockGuard guard(n.lock);
        atomic::store_release(&n.events, reinterpret_cast<EventArea*>(area));
        credit_waiters = n.credit_waiters;
        portal_waiters = n.portal_waiters;
        n.credit_waiters = n.portal_waiters = 0;
    }
    // Senders that found this node unattached try again now.
    notify_each(credit_waiters, &EventArea::mailbox_credit, node);
    notify_each(portal_waiters, &EventArea::portal_ready, node);
    return ok();
}

Result mailbox_send(const board::Cluster& c, u32 src, u32 dst, u64 message) {
    if (!in_caller(c, message, sizeof(MailboxMessage))) return error(sbi::kErrInvalidAddress);
    NodeEngine& target = g_nodes[dst];
    u64 cycles = kBoard.transfer_cycles(src, dst, sizeof(MailboxMessage));
    noc_time::Dma dma(c);
    {
        noc_time::TimedLockGuard guard(target.lock);
        EventArea* events = target.events;
        // A message dst refused waits in the sender's own area until its kernel took it
        // back: later ones must not overtake it (the kernel retries after taking it back).
        EventArea* own = atomic::load_acquire(&g_nodes[src].events);
        if (own == nullptr || (atomic::load_acquire(&own->mailbox_returned) & bit(dst))) {
            g_nodes[src].stats.mailbox_busy++;
            return error(kBusy);
        }
        if (events == nullptr || (atomic::load_acquire(&events->mailbox_full) & bit(src))) {
            target.credit_waiters |= bit(src);
            g_nodes[src].stats.mailbox_busy++;
            return error(kBusy);
        }
        MailboxMessage& slot = events->slots[src];
        noc_time::Dma::copy(&slot.header, reinterpret_cast<const void*>(message), sizeof slot.header);
        slot.header.source = static_cast<u16>(src);
        if (slot.header.length > kMailboxPayload) slot.header.length = kMailboxPayload;
        // Only the payload's bytes travel (the receiver reads no more than the length).
        noc_time::Dma::copy(slot.payload, reinterpret_cast<const MailboxMessage*>(message)->payload, slot.header.length);
        // It leaves once the sender knows the slot is free, after the transfers ahead of it.
        // A message the host let take the slot first but that left later in virtual time
        // is not waited for: only what held the slot before it.
        u64 ready = dma.stamp();
        bool first = ready >= target.slot_taken_at[src];
        u64 depart = later(ready, first ? target.slot_free_at[src] : target.slot_before_at[src]);
        if (first) {
            target.slot_before_at[src] = target.slot_free_at[src];
            target.slot_taken_at[src] = depart;
        }
        dma.send(src, dst, depart, sizeof slot.header + slot.header.length);
        events->slot_stamp[src] = dma.sent().arrival;
        atomic::fetch_or(&events->mailbox_full, bit(src));
        target.stats.mailbox_received++;
    }
    dma.complete();
    g_nodes[src].stats.mailbox_sent++;
    g_nodes[src].stats.modeled_cycles_sent += cycles;
    interrupt_owner(dst);
    return ok(cycles);
}

Result mailbox_release(const board::Cluster& c, u32 node, u32 sender) {
    NodeEngine& n = g_nodes[node];
    bool wake = false;
    u64 credit = noc_time::notice_arrival(node, sender, noc_time::now(c));
    {
        noc_time::TimedLockGuard guard(n.lock);
        if (n.events == nullptr || !(n.events->mailbox_full & bit(sender))) return error(sbi::kErrInvalidParam);
        atomic::fetch_and(&n.events->mailbox_full, ~bit(sender));
        n.slot_free_at[sender] = later(n.slot_free_at[sender], credit);
        wake = n.credit_waiters & bit(sender);
        n.credit_waiters &= ~bit(sender);
    }
    if (wake) notify(sender, &EventArea::mailbox_credit, bit(node));
    return ok();
}

// The receiving kernel cannot keep slots[sender] (that port is full): the message goes
// back into the sender's area and the slot frees. The sender cannot have another message
// refused before it took this one back (mailbox_send refuses to send until then).
Result mailbox_refuse(const board::Cluster& c, u32 node, u32 sender) {
    NodeEngine& n = g_nodes[node];
    EventArea* back = atomic::load_acquire(&g_nodes[sender].events);
    u64 credit = noc_time::notice_arrival(node, sender, noc_time::now(c));
    {
        noc_time::TimedLockGuard guard(n.lock);
        if (n.events == nullptr || back == nullptr || !(n.events->mailbox_full & bit(sender)) ||
            (atomic::load_acquire(&back->mailbox_returned) & bit(node)))
            return error(sbi::kErrInvalidParam);
        const MailboxMessage& slot = n.events->slots[sender];
        noc_time::Dma::copy(&back->returned[node].header, &slot.header, sizeof slot.header);
        noc_time::Dma::copy(back->returned[node].payload, slot.payload, slot.header.length);
        atomic::fetch_or(&back->mailbox_returned, bit(node));
        atomic::fetch_and(&n.events->mailbox_full, ~bit(sender));
        n.slot_free_at[sender] = later(n.slot_free_at[sender], credit);
        n.credit_waiters &= ~bit(sender);  // its kernel retries once it took the message back
        n.stats.mailbox_refused++;
    }
    interrupt_owner(sender);
    return ok();
}

// `port` of `node` takes messages again: each sender it refused may send there again.
Result mailbox_drained(const board::Cluster& c, u32 node, u32 port, u64 senders) {
    u64 valid = kBoard.node_count == 64 ? ~0ull : bit(kBoard.node_count) - 1;
    if (port >= kMailboxPortBits || senders == 0 || (senders & ~valid) != 0) return error(sbi::kErrInvalidParam);
    u64 now = noc_time::now(c);
    for (; senders != 0; senders &= senders - 1) {
        u32 s = lowest_set_bit(senders);
        {  // the resent message leaves once the notice reached its sender
            NodeEngine& n = g_nodes[node];
            noc_time::TimedLockGuard guard(n.lock);
            n.slot_free_at[s] = later(n.slot_free_at[s], noc_time::notice_arrival(node, s, now));
        }
        EventArea* events = atomic::load_acquire(&g_nodes[s].events);
        if (events == nullptr) continue;
        atomic::fetch_or(&events->drained_ports[node], static_cast<u32>(bit(port)));
        notify(s, &EventArea::mailbox_drained, bit(node));
    }
    return ok();
}

Result portal_allow(const board::Cluster& c, u32 node, u32 sender, u64 port, u64 list, u64 lengths) {
    u32 count = static_cast<u32>(lengths);
    u64 remaining = lengths >> 32;
    if (count == 0 || count > kPortalMaxSegments || port >= kPortalWindows) return error(sbi::kErrInvalidParam);
    if (list % 8 != 0 || !in_caller(c, list, count * sizeof(PortalSegment))) return error(sbi::kErrInvalidAddress);
    PortalSegment segments[kPortalMaxSegments];
    memcpy(segments, reinterpret_cast<const void*>(list), count * sizeof(PortalSegment));
    u64 wake;
    u64 window = 0;
    for (u32 i = 0; i < count; i++) {
        if (segments[i].length == 0) return error(sbi::kErrInvalidParam);
        if (!in_caller(c, segments[i].phys, segments[i].length)) return error(sbi::kErrInvalidAddress);
        window += segments[i].length;
    }
    if (remaining < window) return error(sbi::kErrInvalidParam);
    NodeEngine& n = g_nodes[node];
    {
        noc_time::TimedLockGuard guard(n.lock);
        if (n.events == nullptr) return error(sbi::kErrInvalidParam);
        PortalState& p = n.portal[port];
        if (p.allowed) return error(sbi::kErrAlreadyAvailable);  // one transfer per port at a time
        p.allowed = true;
        p.sender = sender;
        memcpy(p.segments, segments, sizeof segments);
        p.count = count;
        p.segment = 0;
        p.offset = p.filled = 0;
        p.window = window;
        p.remaining = remaining;
        p.allowed_at = noc_time::notice_arrival(node, sender, noc_time::now(c));
        p.arrival = 0;
        wake = n.portal_waiters & nodes_of_cluster_of(sender);
        n.portal_waiters &= ~wake;
    }
    notify_each(wake | bit(sender), &EventArea::portal_ready, node);
    return ok();
}

// The engine's DMA copies up to `length` bytes into the posted window; returns the bytes taken.
u64 fill_window(PortalState& p, const u8* data, u64 length) {
    u64 moved = 0;
    while (moved < length && p.segment < p.count) {
        PortalSegment& seg = p.segments[p.segment];
        u64 step = seg.length - p.offset < length - moved ? seg.length - p.offset : length - moved;
        noc_time::Dma::copy(reinterpret_cast<void*>(seg.phys + p.offset), data + moved, step);
        moved += step;
        p.offset += step;
        if (p.offset == seg.length) {
            p.segment++;
            p.offset = 0;
        }
    }
    p.filled += moved;
    return moved;
}

Result portal_write(const board::Cluster& c, u32 src, u32 dst, u64 port, u64 data, u64 lengths) {
    u32 length = static_cast<u32>(lengths);
    u64 remaining = lengths >> 32;
    if (length == 0 || length > kPortalMaxWrite || remaining < length) return error(sbi::kErrInvalidParam);
    if (!in_caller(c, data, length)) return error(sbi::kErrInvalidAddress);
    NodeEngine& target = g_nodes[dst];
    u32 moved;
    bool complete, ended;
    noc_time::Dma dma(c);
    {
        noc_time::TimedLockGuard guard(target.lock);
        if (port >= kPortalWindows) return error(sbi::kErrInvalidParam);
        PortalState& p = target.portal[port];
        bool sender_allowed = kBoard.cluster_of_node(p.sender) == kBoard.cluster_of_node(src);
        if (target.events == nullptr || !p.allowed || !sender_allowed) {
            target.portal_waiters |= bit(src);
            g_nodes[src].stats.portal_busy++;
            return error(kBusy);
        }
        if (remaining > p.remaining) return error(kTooLong);
        moved = static_cast<u32>(fill_window(p, reinterpret_cast<const u8*>(data), length));
        p.remaining -= moved;
        ended = moved == remaining;
        complete = p.filled == p.window || ended;
        // The bytes leave once the allow reached the sender, after the transfers ahead of them.
        if (moved > 0) {
            dma.send(src, dst, later(dma.stamp(), p.allowed_at), moved);
            p.arrival = later(p.arrival, dma.sent().arrival);
        }
        if (complete) {  // the event is set under the lock so a cancel can withdraw it
            p.allowed = false;
            target.events->portal_stamp[port] = p.arrival;
            target.events->portal_bytes[port] = p.filled;
            target.events->portal_ended[port] = ended ? 1 : 0;
            atomic::fetch_or(&target.events->portal_done, bit(port));
        }
        target.stats.portal_bytes_received += moved;
    }
    // The bytes went as hardware transfers of at most kPortalMaxTransfer each.
    NodeStats& s = g_nodes[src].stats;
    for (u32 done = 0; done < moved; done += kPortalMaxTransfer) {
        u32 piece = moved - done < kPortalMaxTransfer ? moved - done : kPortalMaxTransfer;
        s.portal_transfers_sent++;
        s.modeled_cycles_sent += kBoard.transfer_cycles(src, dst, piece);
    }
    s.portal_bytes_sent += moved;
    // The pieces of one window queue on the DMA: the sender takes the completion of the
    // last only, so the link does not idle while its kernel prepares the next piece.
    if (complete) {
        dma.complete();
        interrupt_owner(dst);
    }
    return ok(moved);
}

// The owner's program ended: its posted window, a completion not yet seen and its armed
// syncs go; signals already received stay (they belong to the peers' protocol).
Result forget_program(u32 node) {
    NodeEngine& n = g_nodes[node];
    noc_time::TimedLockGuard guard(n.lock);
    for (PortalState& p : n.portal) p.allowed = false;
    if (n.events != nullptr) atomic::store_release(&n.events->portal_done, u64{0});
    for (u64& expected : n.sync_expected) expected = 0;
    return ok();
}

// Fires register k of `n` if every expected signal arrived; the caller holds n.lock.
bool sync_check(NodeEngine& n, u32 k) {
    u64 expected = n.sync_expected[k];
    if (expected == 0 || (n.sync_value[k] & expected) != expected) return false;
    n.sync_value[k] &= ~expected;
    n.sync_expected[k] = 0;  // one shot: the owner arms it again for the next round
    if (n.events != nullptr) n.events->sync_stamp[k] = later(n.sync_armed_at[k], n.sync_arrival[k]);
    n.sync_arrival[k] = 0;
    n.stats.sync_fired++;
    return true;
}

Result sync_arm(const board::Cluster& c, u32 node, u32 k, u64 expected) {
    u64 valid = kBoard.node_count == 64 ? ~0ull : bit(kBoard.node_count) - 1;
    if (k >= kSyncsPerNode || expected == 0 || (expected & ~valid) != 0) return error(sbi::kErrInvalidParam);
    NodeEngine& n = g_nodes[node];
    bool fired;
    {
        noc_time::TimedLockGuard guard(n.lock);
        if (n.events == nullptr) return error(sbi::kErrInvalidParam);
        n.sync_expected[k] = expected;
        n.sync_armed_at[k] = noc_time::now(c);
        fired = sync_check(n, k);
    }
    if (fired) notify(node, &EventArea::sync_fired, bit(k));
    return ok();
}

Result sync_signal(const board::Cluster& c, u32 src, u32 dst, u32 k) {
    if (k >= kSyncsPerNode) return error(sbi::kErrInvalidParam);
    NodeEngine& n = g_nodes[dst];
    bool fired;
    noc_time::Transfer sent = noc_time::transfer(src, dst, noc_time::now(c), 8);
    {
        noc_time::TimedLockGuard guard(n.lock);
        n.sync_value[k] |= bit(src);
        n.sync_arrival[k] = later(n.sync_arrival[k], sent.arrival);
        fired = sync_check(n, k);
    }
    noc_time::advance_to(c, sent.sent);
    g_nodes[src].stats.sync_signals_sent++;
    g_nodes[src].stats.modeled_cycles_sent += kBoard.transfer_cycles(src, dst, 8);
    if (fired) notify(dst, &EventArea::sync_fired, bit(k));
    return ok();
}

Result stats(const board::Cluster& c, u32 node, u64 out) {
    if (!in_caller(c, out, sizeof(NodeStats))) return error(sbi::kErrInvalidAddress);
    memcpy(reinterpret_cast<void*>(out), &g_nodes[node].stats, sizeof(NodeStats));
    return ok();
}
}  // namespace

Result noc_call(const board::Cluster& c, u64 fn, const u64 a[6]) {
    // The first argument always names one of the caller's own nodes; a second node
    // argument (a target or a sender) must exist on the board.
    if (a[0] >= kBoard.node_count || !c.owns_node(static_cast<u32>(a[0]))) return error(sbi::kErrInvalidParam);
    u32 own = static_cast<u32>(a[0]);
    bool names_peer = fn == kMailboxSend || fn == kMailboxRelease || fn == kPortalAllow || fn == kPortalWrite ||
                      fn == kSyncSignal || fn == kMailboxRefuse;
    if (names_peer && a[1] >= kBoard.node_count) return error(sbi::kErrInvalidParam);
    u32 peer = static_cast<u32>(a[1]);
    switch (fn) {
    case kAttach: return attach(c, own, a[1], a[2]);
    case kMailboxSend: return mailbox_send(c, own, peer, a[2]);
    case kMailboxRelease: return mailbox_release(c, own, peer);
    case kPortalAllow: return portal_allow(c, own, peer, a[2], a[3], a[4]);
    case kPortalWrite: return portal_write(c, own, peer, a[2], a[3], a[4]);
    case kSyncArm: return sync_arm(c, own, static_cast<u32>(a[1]), a[2]);
    case kSyncSignal: return sync_signal(c, own, peer, static_cast<u32>(a[2]));
    case kStats: return stats(c, own, a[1]);
    case kForgetProgram: return forget_program(own);
    case kMailboxRefuse: return mailbox_refuse(c, own, peer);
    case kMailboxDrained: return mailbox_drained(c, own, static_cast<u32>(a[1]), a[2]);
    default: return error(sbi::kErrNotSupported);
    }
}
}  // namespace nvx::firmware
