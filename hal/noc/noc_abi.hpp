// The NoC engine's interface (the emulated hardware, reached through the vendor SBI
// extension): message formats, the event area each node's kernel owns, call numbers.
#pragma once
#include "hal/board/board.hpp"
#include "hal/sbi/sbi_ids.hpp"

namespace nvx::noc {
using board::kMaxNodes;
using board::kSyncsPerNode;

// The board table's NoC parameters (one definition; every board uses kMppaNoc).
inline constexpr u32 kMailboxPayload = board::kMppaNoc.mailbox_payload;        // per hardware message
inline constexpr u32 kPortalMaxTransfer = board::kMppaNoc.portal_max_transfer;  // per portal transfer
inline constexpr u32 kPortalMaxSegments = 16;    // pieces of receive buffer one allow may post
// A node has one receive window per logical port (the MPPA's DMA has 256 receive tags
// per cluster): a read on one port never waits for another port's.
inline constexpr u32 kPortalWindows = 32;
// Bytes one portal write call may move (physically contiguous): the engine moves them as
// hardware transfers of at most kPortalMaxTransfer each, in one crossing into the engine.
inline constexpr u32 kPortalMaxWrite = kPortalMaxSegments * kPortalMaxTransfer;

// One physically contiguous piece of a posted receive buffer, of any length in the
// receiver's memory: a window covers a whole contiguous buffer, so a long message does
// not wait, window after window, for its receiver's kernel to post the next.
struct PortalSegment {
    u64 phys;
    u64 length;
};

// A hardware mailbox message: the 8-byte header the sender fills in (the engine checks
// and overwrites `source`: no sender can claim another node), then the payload (8-byte
// aligned: word copies).
struct MailboxHeader {
    u16 source;       // sender node (stamped by the engine)
    u16 flags;        // set by the sending kernel: kFromSystem
    u16 target_port;  // receiver's logical port
    u16 length;       // payload bytes used
};
inline constexpr u16 kFromSystem = 1;  // the sending cluster's system program sent it
inline constexpr u32 kMailboxPortBits = 32;  // drained_ports: one bit per logical port
struct MailboxMessage {
    MailboxHeader header;
    u8 payload[kMailboxPayload];
};
static_assert(sizeof(MailboxHeader) == 8 && sizeof(MailboxMessage) == 8 + kMailboxPayload);

// Where the engine leaves events for a node's kernel, in that kernel's own memory. Event
// bits are set by the engine (atomic OR) and cleared by the kernel (atomic AND): they are
// levels, so nothing can overflow or be lost; the interrupt only says "look".
struct EventArea {
    u64 mailbox_full;   // bit s: slots[s] holds a message from node s
    u64 mailbox_credit; // bit d: our message to node d left its slot: we may send to d again
    u64 portal_ready;   // bit d: node d's portal now allows us: retry the write
    u64 portal_done;    // bit p: port p's receive window completed (its fields below are written first)
    u64 sync_fired;     // bit k: sync register k saw every expected signal
    u64 mailbox_returned; // bit d: node d refused our message; it is back in returned[d]. Until
                          // the kernel clears the bit (after copying it out) we cannot send to d
    u64 mailbox_drained;  // bit d: node d takes messages again on the ports in drained_ports[d]
    u64 raised;         // set after any of the above, before the interrupt: the kernel clears
                        // it and reads the other fields only when it was set
    u32 drained_ports[kMaxNodes];       // per receiver node: ports that drained (bit per port)
    // Virtual time (all 0 under the wall clock): when each event happened at this
    // node, the sender's time plus the modeled NoC latency and queueing. The kernel serves
    // each event from that time on.
    u64 slot_stamp[kMaxNodes];          // slots[s]'s message arrived
    u64 portal_stamp[kPortalWindows];   // the completed window's last byte arrived
    u64 portal_bytes[kPortalWindows];   // bytes the completed window received
    u64 portal_ended[kPortalWindows];   // 1 if the sender's message ended with it
    u64 sync_stamp[kSyncsPerNode];      // register k fired
    MailboxMessage slots[kMaxNodes];    // one receive slot per possible sender
    MailboxMessage returned[kMaxNodes]; // per receiver node: our message it refused
};


// Per-node traffic counters kept by the engine (sent side and received side).
struct NodeStats {
    u64 mailbox_sent, mailbox_received, mailbox_busy;
    u64 mailbox_refused;  // received side: messages sent back to their sender (port full)
    u64 portal_transfers_sent, portal_bytes_sent, portal_bytes_received, portal_busy;
    u64 sync_signals_sent, sync_fired;
    u64 modeled_cycles_sent;  // sum of transfer_cycles over everything this node sent
};

// Vendor extension functions (sbi::kExtVendorNvx), all in the NoC range.
enum Function : u64 {
    kAttach = sbi::kVendorNocFirst,  // (node, event_area_phys, clock offsets_phys or 0: u64 per local hart)
    kMailboxSend,     // (source node, target node, message_phys) -> modeled cycles | kBusy
    kMailboxRelease,  // (node, sender): slots[sender] consumed; credit goes back
    kPortalAllow,     // (node, sender node, port, PortalSegment list_phys, count | remaining << 32)
    kPortalWrite,     // (source node, target node, port, data_phys, length (<= kPortalMaxWrite) | remaining << 32) -> bytes
    kSyncArm,         // (node, register, expected node mask)
    kSyncSignal,      // (source node, target node, register)
    kStats,           // (node, NodeStats* phys)
    kForgetProgram,   // (node): its program ended: withdraw the posted windows, disarm syncs
    kMailboxRefuse,   // (node, sender): slots[sender] goes back to the sender (returned event)
    kMailboxDrained,  // (node, port, sender mask): those senders may send to that port again
};

constexpr u64 pack_lengths(u32 length, u64 remaining) { return length | (remaining << 32); }
// The receiver's window (sum of its posted segments) fills across several transfers; the
// allow completes when the window is full or the sender's message ends.

// Returned as the SBI error when the engine cannot take the request now; the caller
// sleeps until the matching event (credit or portal_ready) and tries again.
inline constexpr i64 kBusy = -100;
// Portal write larger than what the receiver allowed in total.
inline constexpr i64 kTooLong = -101;
}  // namespace nvx::noc
