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
// Bytes one portal write call may move, and one posted segment may hold (physically
// contiguous): the engine moves them as hardware transfers of at most kPortalMaxTransfer
// each, in one crossing into the engine.
inline constexpr u32 kPortalMaxWrite = kPortalMaxSegments * kPortalMaxTransfer;

// One physically contiguous piece of a posted receive buffer (at most kPortalMaxWrite).
struct PortalSegment {
    u64 phys;
    u64 length;
};

// A hardware mailbox message: the 8-byte header the sender fills in (the engine checks
// and overwrites `source`), then the payload (8-byte aligned: word copies).
struct MailboxHeader {
    u16 source;       // sender node (set by the engine)
    u16 source_port;  // sender's logical port
    u16 target_port;  // receiver's logical port
    u16 length;       // payload bytes used
};
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
    u64 portal_done;    // kPortalChunkDone, plus kPortalMessageEnded if the sender's message ended
    u64 portal_bytes;   // bytes the completed buffer received
    u64 sync_fired;     // bit k: sync register k saw every expected signal
    u64 raised;         // set after any of the above, before the interrupt: the kernel clears
                        // it and reads the other fields only when it was set
    MailboxMessage slots[kMaxNodes];  // one receive slot per possible sender
};

inline constexpr u64 kPortalChunkDone = 1;
inline constexpr u64 kPortalMessageEnded = 2;

// Per-node traffic counters kept by the engine (sent side and received side).
struct NodeStats {
    u64 mailbox_sent, mailbox_received, mailbox_busy;
    u64 portal_transfers_sent, portal_bytes_sent, portal_bytes_received, portal_busy;
    u64 sync_signals_sent, sync_fired;
    u64 modeled_cycles_sent;  // sum of transfer_cycles over everything this node sent
};

// Vendor extension functions (sbi::kExtVendorNvx), all in the NoC range.
enum Function : u64 {
    kAttach = sbi::kVendorNocFirst,  // (node, event_area_phys)
    kMailboxSend,     // (source node, target node, message_phys) -> modeled cycles | kBusy
    kMailboxRelease,  // (node, sender): slots[sender] consumed; credit goes back
    kPortalAllow,     // (node, sender node, ports, PortalSegment list_phys, count | remaining << 32)
    kPortalWrite,     // (source node, target node, ports, data_phys, length (<= kPortalMaxWrite) | remaining << 32) -> bytes
    kSyncArm,         // (node, register, expected node mask)
    kSyncSignal,      // (source node, target node, register)
    kStats,           // (node, NodeStats* phys)
    kForgetProgram,   // (node): its program ended: withdraw the posted window, disarm syncs
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
