#include "ikc/message_buffers.hpp"

#include "support/bits.hpp"
#include "support/mem.hpp"

namespace nvx::ikc {
namespace {
constexpr u64 kAllBuffers = kMessageBuffers == 64 ? ~0ull : (1ull << kMessageBuffers) - 1;
}

bool MessageBuffers::has_room(u32 node, u32 port) const {
    if (node >= board::kMaxNodes || port >= kPorts) return false;
    if ((used_mask_ & kAllBuffers) == kAllBuffers || count_[node][port] >= kPortQuota) return false;
    return claimed(node, port) || unclaimed_ < kUnclaimedAllowance;
}

bool MessageBuffers::store(u32 node, u32 port, Origin origin, const u8* payload, u32 length, u64 stamp) {
    if (!has_room(node, port)) return false;
    u32 index = lowest_set_bit(~used_mask_);
    if (length > NVX_MAILBOX_MSG_MAX) length = NVX_MAILBOX_MSG_MAX;  // the engine bounds it too
    BufferedMessage& m = buffers_[index];
    m.used = true;
    m.node = node;
    m.port = port;
    m.length = length;
    m.origin = origin;
    m.stamp = stamp;
    m.next = 0;
    memcpy(m.payload, payload, length);
    memset(m.payload + length, 0, sizeof m.payload - length);  // no byte of an older message stays
    used_mask_ |= 1ull << index;
    count_[node][port]++;
    if (!claimed(node, port)) unclaimed_++;
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
    count_[m->node][m->port]--;
    if (!claimed(m->node, m->port)) unclaimed_--;
    m->used = false;
    used_mask_ &= ~(1ull << (m - buffers_));
}

void MessageBuffers::set_claimed(u32 node, u32 port, bool now) {
    if (node >= board::kMaxNodes || port >= kPorts || claimed(node, port) == now) return;
    claimed_[node] ^= 1u << port;
    if (now) unclaimed_ -= count_[node][port];
    else unclaimed_ += count_[node][port];
}

void MessageBuffers::unclaim_all() {
    for (u32 node = 0; node < board::kMaxNodes; node++)
        for (u32 left = claimed_[node]; left != 0; left &= left - 1) set_claimed(node, lowest_set_bit(left), false);
}

u32 MessageBuffers::used() const {
    u32 n = 0;
    for (u64 left = used_mask_; left != 0; left &= left - 1) n++;
    return n;
}
}  // namespace nvx::ikc
