#include "ikc/message_buffers.hpp"

#include "support/bits.hpp"
#include "support/mem.hpp"

namespace nvx::ikc {
bool MessageBuffers::store(u32 node, u32 port, const u8* payload, u32 length) {
    if (node >= board::kMaxNodes || port >= kPorts) return false;
    u64 all = kMessageBuffers == 64 ? ~0ull : (1ull << kMessageBuffers) - 1;
    if ((used_mask_ & all) == all) return false;
    u32 index = lowest_set_bit(~used_mask_);
    if (length > NVX_MAILBOX_MSG_MAX) length = NVX_MAILBOX_MSG_MAX;  // the engine bounds it too
    BufferedMessage& m = buffers_[index];
    m.used = true;
    m.node = node;
    m.port = port;
    m.length = length;
    m.next = 0;
    memcpy(m.payload, payload, length);
    memset(m.payload + length, 0, sizeof m.payload - length);  // no byte of an older message stays
    used_mask_ |= 1ull << index;
    u8 link = static_cast<u8>(index + 1);
    if (tail_[node][port] == 0) {
        head_[node][port] = link;
    } else {
        buffers_[tail_[node][port] - 1].next = link;
    }
    tail_[node][port] = link;
    return true;
}

BufferedMessage* MessageBuffers::oldest(u32 node, u32 port) {
    if (node >= board::kMaxNodes || port >= kPorts || head_[node][port] == 0) return nullptr;
    return &buffers_[head_[node][port] - 1];
}

void MessageBuffers::release(BufferedMessage* m) {
    u8& head = head_[m->node][m->port];
    head = m->next;
    if (head == 0) tail_[m->node][m->port] = 0;
    m->used = false;
    used_mask_ &= ~(1ull << (m - buffers_));
}

u32 MessageBuffers::used() const {
    u32 n = 0;
    for (u64 left = used_mask_; left != 0; left &= left - 1) n++;
    return n;
}
}  // namespace nvx::ikc
