// Arrived mailbox messages kept until a reader takes them (bounded: when full, arrivals
// stay in the hardware slots and their senders get no credit: push-back, never a drop).
#pragma once
#include "ikc/ikc_config.hpp"

namespace nvx::ikc {
struct BufferedMessage {
    bool used;
    u32 node;    // own node it arrived on
    u32 port;    // target port
    u32 length;
    u64 order;   // arrival order
    u8 payload[NVX_MAILBOX_MSG_MAX];
};

class MessageBuffers {
public:
    bool store(u32 node, u32 port, const u8* payload, u32 length);
    // The oldest message for (node, port), or nullptr.
    BufferedMessage* oldest(u32 node, u32 port);
    void release(BufferedMessage* m) { m->used = false; }
    u32 used() const;

private:
    BufferedMessage buffers_[kMessageBuffers];
    u64 next_order_ = 0;
};
}  // namespace nvx::ikc
