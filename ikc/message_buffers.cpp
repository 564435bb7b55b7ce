#include "ikc/message_buffers.hpp"
#include "support/mem.hpp"

namespace nvx::ikc {
bool MessageBuffers::store(u32 node, u32 port, const u8* payload, u32 length) {
    if (length > NVX_MAILBOX_MSG_MAX) length = NVX_MAILBOX_MSG_MAX;  // the engine bounds it too
    for (BufferedMessage& m : buffers_) {
        if (m.used) continue;
        m = {true, node, port, length, next_order_++, {}};
        memcpy(m.payload, payload, length);
        return true;
    }
    return false;
}

BufferedMessage* MessageBuffers::oldest(u32 node, u32 port) {
    BufferedMessage* best = nullptr;
    for (BufferedMessage& m : buffers_)
        if (m.used && m.node == node && m.port == port && (best == nullptr || m.order < best->order)) best = &m;
    return best;
}

u32 MessageBuffers::used() const {
    u32 n = 0;
    for (const BufferedMessage& m : buffers_) n += m.used ? 1 : 0;
    return n;
}
}  // namespace nvx::ikc
