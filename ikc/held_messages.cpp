#include "ikc/held_messages.hpp"

#include "support/mem.hpp"

namespace nvx::ikc {
bool HeldMessages::keep(u32 target, const noc::MailboxMessage& message) {
    u32 port = message.header.target_port;
    if (target >= board::kMaxNodes || port >= kPorts || full() || holds(target, port)) return false;
    for (HeldMessage& m : slots_) {
        if (m.used) continue;
        m.used = true;
        m.target = target;
        u32 length = message.header.length <= sizeof m.message.payload ? message.header.length : sizeof m.message.payload;
        memcpy(&m.message.header, &message.header, sizeof message.header);
        m.message.header.length = static_cast<u16>(length);
        memcpy(m.message.payload, message.payload, length);
        held_[target] |= 1u << port;
        count_++;
        update_ready(target);
        return true;
    }
    return false;
}

void HeldMessages::drained(u32 target, u32 ports) {
    if (target >= board::kMaxNodes) return;
    drained_[target] |= ports;
    update_ready(target);
}

HeldMessage* HeldMessages::ready(u32 target) {
    if (target >= board::kMaxNodes) return nullptr;
    u32 ports = held_[target] & drained_[target];
    if (ports == 0) return nullptr;
    for (HeldMessage& m : slots_)
        if (m.used && m.target == target && ((ports >> m.message.header.target_port) & 1)) return &m;
    return nullptr;
}

void HeldMessages::release(HeldMessage* m) {
    u32 bit = 1u << m->message.header.target_port;
    held_[m->target] &= ~bit;
    drained_[m->target] &= ~bit;  // a drain seen before this send is used up by it
    m->used = false;
    count_--;
    update_ready(m->target);
}

void HeldMessages::update_ready(u32 target) {
    u64 bit = 1ull << target;
    if (held_[target] & drained_[target]) ready_targets_ |= bit;
    else ready_targets_ &= ~bit;
}
}  // namespace nvx::ikc
