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

bool MessageBuffers::store(u32 node, u32 port, Origin origin, Sender sender, const u8* payload, u32 length, u64 stamp) {
    if (!has_room(node, port)) return false;
    u32 index = lowest_set_bit(~used_mask_);
    if (length > NVX_MAILBOX_MSG_MAX) length = NVX_MAILBOX_MSG_MAX;  // the engine bounds it too
    BufferedMessage& m = buffers_[index];
    m.used = true;
    m.behind = false;
    for (u8 link = head_[node][port]; link != 0 && !m.behind; link = buffers_[link - 1].next)
        m.behind = buffers_[link - 1].sender == sender;
    m.node = node;
    m.port = port;
    m.length = length;
    m.origin = origin;
    m.sender = sender;
    m.stamp = stamp;
    memcpy(m.payload, payload, length);
    memset(m.payload + length, 0, sizeof m.payload - length);  // no byte of an older message stays
    used_mask_ |= 1ull << index;
    count_[node][port]++;
    if (!claimed(node, port)) unclaimed_++;
    u8 link = static_cast<u8>(index + 1);
    m.next = 0;
    m.prev = tail_[node][port];
    if (m.prev == 0) {
        head_[node][port] = link;
    } else {
        buffers_[m.prev - 1].next = link;
    }
    tail_[node][port] = link;
    return true;
}

BufferedMessage* MessageBuffers::next_out(u32 node, u32 port) {
    if (node >= board::kMaxNodes || port >= kPorts) return nullptr;
    BufferedMessage* best = nullptr;
    for (u8 link = head_[node][port]; link != 0; link = buffers_[link - 1].next) {
        BufferedMessage* m = &buffers_[link - 1];
        if (!m->behind && (best == nullptr || m->stamp < best->stamp)) best = m;
    }
    return best;
}

void MessageBuffers::release(BufferedMessage* m) {
    u32 node = m->node, port = m->port;
    if (!m->behind) {  // its sender's next message, if any, is no longer held back
        for (u8 link = m->next; link != 0; link = buffers_[link - 1].next) {
            if (buffers_[link - 1].sender == m->sender) {
                buffers_[link - 1].behind = false;
                break;
            }
        }
    }
    if (m->prev == 0) head_[node][port] = m->next;
    else buffers_[m->prev - 1].next = m->next;
    if (m->next == 0) tail_[node][port] = m->prev;
    else buffers_[m->next - 1].prev = m->prev;
    count_[node][port]--;
    if (!claimed(node, port)) unclaimed_--;
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
