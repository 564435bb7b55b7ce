// Arrived mailbox messages kept until a reader takes them. Bounded, and shared fairly by
// the ports: one port holds at most kPortQuota messages, and ports nobody created
// (unclaimed) at most kUnclaimedAllowance together, so a port nobody reads can never take
// the buffers the other ports need. A message that does not fit is refused (the caller
// sends it back to its sender: push-back per port, never a drop).
// A port hands out the message stamped earliest in virtual time, not the one the host
// delivered first, so a reader is not moved on past messages that came before it; each
// sender's own messages still leave in the order they came. Each (node, port) keeps its
// messages in a list in arrival order (at most kPortQuota, so a scan of it is bounded) and
// free slots are bits of one word.
#pragma once
#include "ikc/ikc_config.hpp"

namespace nvx::ikc {
// Who sent a message: the node the NoC engine (or, inside the cluster, the kernel) stamped,
// and the sending kernel's flags (noc::kFromSystem).
struct Origin {
    u16 node;
    u16 flags;
};

// Whose messages keep their order on a port: a key the caller chooses, equal for messages
// that must not overtake each other.
using Sender = u32;

struct BufferedMessage {
    bool used;
    bool behind;  // an earlier message of the same sender is still on the port
    u32 node;    // own node it arrived on
    u32 port;    // target port
    u32 length;
    Origin origin;
    Sender sender;
    u64 stamp;   // virtual time it was in the buffer (the reader's answer is no earlier)
    u8 next;     // next and previous message of the same (node, port) in arrival order,
    u8 prev;     // plus one; 0 = none
    alignas(16) u8 payload[NVX_MAILBOX_MSG_MAX];  // aligned as user buffers usually are: word copies
};

class MessageBuffers {
public:
    // True if a message for (node, port) would be stored now.
    bool has_room(u32 node, u32 port) const;
    // False when it does not fit (see has_room), or node or port is out of range. `stamp`:
    // the virtual time it arrived (0 under the wall clock: arrival order alone).
    bool store(u32 node, u32 port, Origin origin, Sender sender, const u8* payload, u32 length, u64 stamp = 0);
    // The message (node, port) hands out next, or nullptr when it holds none: the earliest
    // stamp among the messages no earlier message of their sender is ahead of; of equal
    // stamps, the first to arrive.
    BufferedMessage* next_out(u32 node, u32 port);
    // Frees a message returned by next_out(); the next message of its sender may go out.
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
    // Per (node, port): the first and last message to arrive, plus one; 0 = none. Zeroed
    // storage is an empty table.
    u8 head_[board::kMaxNodes][kPorts] = {};
    u8 tail_[board::kMaxNodes][kPorts] = {};
    u8 count_[board::kMaxNodes][kPorts] = {};  // messages kept per port
    u32 claimed_[board::kMaxNodes] = {};       // bit p: a reader endpoint listens on port p
    u32 unclaimed_ = 0;                         // messages kept for unclaimed ports
};
}  // namespace nvx::ikc
