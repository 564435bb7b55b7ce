// Arrived mailbox messages kept until a reader takes them (bounded: when full, arrivals
// stay in the hardware slots and their senders get no credit: push-back, never a drop).
// Each (node, port) keeps its messages in a FIFO list and free slots are bits of one word,
// so storing, finding the oldest and releasing cost the same however full the table is.
#pragma once
#include "ikc/ikc_config.hpp"

namespace nvx::ikc {
struct BufferedMessage {
    bool used;
    u32 node;    // own node it arrived on
    u32 port;    // target port
    u32 length;
    u8 next;     // next message of the same (node, port), plus one; 0 = none
    alignas(16) u8 payload[NVX_MAILBOX_MSG_MAX];  // aligned as user buffers usually are: word copies
};

class MessageBuffers {
public:
    // False when the table is full, or node or port is out of range (it can never be read).
    bool store(u32 node, u32 port, const u8* payload, u32 length);
    // The oldest message for (node, port), or nullptr.
    BufferedMessage* oldest(u32 node, u32 port);
    // Frees a message returned by oldest(); the next one of its (node, port) becomes oldest.
    void release(BufferedMessage* m);
    u32 used() const;

private:
    static_assert(kMessageBuffers <= 64, "free slots are the clear bits of one word");
    BufferedMessage buffers_[kMessageBuffers];
    u64 used_mask_ = 0;
    // Per (node, port): the oldest and newest message, plus one; 0 = none. Zeroed storage
    // is an empty table.
    u8 head_[board::kMaxNodes][kPorts] = {};
    u8 tail_[board::kMaxNodes][kPorts] = {};
};
}  // namespace nvx::ikc
