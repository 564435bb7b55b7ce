// Arrived mailbox messages kept until a reader takes them. Bounded, and shared fairly by
// the ports: one port holds at most kPortQuota messages, and ports nobody created
// (unclaimed) at most kUnclaimedAllowance together, so a port nobody reads can never take
// the buffers the other ports need. A message that does not fit is refused (the caller
// sends it back to its sender: push-back per port, never a drop).
// Each (node, port) keeps its messages in a FIFO list and free slots are bits of one word,
// so storing, finding the oldest and releasing cost the same however full the table is.
#pragma once
#include "ikc/ikc_config.hpp"

namespace nvx::ikc {
// Who sent a message: the node the NoC engine (or, inside the cluster, the kernel) stamped,
// and the sending kernel's flags (noc::kFromSystem).
struct Origin {
    u16 node;
    u16 flags;
};

struct BufferedMessage {
    bool used;
    u32 node;    // own node it arrived on
    u32 port;    // target port
    u32 length;
    Origin origin;
    u64 stamp;   // virtual time it was in the buffer (the reader's answer is no earlier)
    u8 next;     // next message of the same (node, port), plus one; 0 = none
    alignas(16) u8 payload[NVX_MAILBOX_MSG_MAX];  // aligned as user buffers usually are: word copies
};

class MessageBuffers {
public:
    // True if a message for (node, port) would be stored now.
    bool has_room(u32 node, u32 port) const;
    // False when it does not fit (see has_room), or node or port is out of range. `stamp`:
    // the virtual time it arrived (0 under the wall clock).
    bool store(u32 node, u32 port, Origin origin, const u8* payload, u32 length, u64 stamp = 0);
    // The oldest message for (node, port), or nullptr.
    BufferedMessage* oldest(u32 node, u32 port);
    // Frees a message returned by oldest(); the next one of its (node, port) becomes oldest.
    void release(BufferedMessage* m);
    // A reader endpoint now listens on (node, port) (claimed) or no longer does: its
    // messages stop or start counting against the unclaimed allowance.
    void set_claimed(u32 node, u32 port, bool claimed);
    // Every port loses its reader (the program ended); the messages stay.
    void unclaim_all();
    u32 used() const;
    u32 held_by(u32 node, u32 port) const { return node < board::kMaxNodes && port < kPorts ? count_[node][port] : 0; }
    u32 unclaimed() const { return unclaimed_; }

private:
    static_assert(kMessageBuffers <= 64, "free slots are the clear bits of one word");
    static_assert(kPortQuota <= kMessageBuffers && kUnclaimedAllowance <= kMessageBuffers, "quotas fit the table");
    bool claimed(u32 node, u32 port) const { return claimed_[node] & (1u << port); }
    BufferedMessage buffers_[kMessageBuffers];
    u64 used_mask_ = 0;
    // Per (node, port): the oldest and newest message, plus one; 0 = none. Zeroed storage
    // is an empty table.
    u8 head_[board::kMaxNodes][kPorts] = {};
    u8 tail_[board::kMaxNodes][kPorts] = {};
    u8 count_[board::kMaxNodes][kPorts] = {};  // messages kept per port
    u32 claimed_[board::kMaxNodes] = {};       // bit p: a reader endpoint listens on port p
    u32 unclaimed_ = 0;                         // messages kept for unclaimed ports
};
}  // namespace nvx::ikc
