// Messages of this cluster that a receiver refused (their port was full), kept by the
// sending kernel until the receiver says the port drained, then sent again. At most one per
// (target node, port): later messages for that port wait behind it in their writers, so the
// order per port is kept while every other port goes on. Bounded; pure bookkeeping.
#pragma once
#include "hal/noc/noc_abi.hpp"
#include "ikc/ikc_config.hpp"

namespace nvx::ikc {
struct HeldMessage {
    bool used;
    u32 target;  // receiver node
    noc::MailboxMessage message;
};

class HeldMessages {
public:
    // Keeps a refused message for `target`; false when the pool is full or a message for
    // that port is already held (the engine's single slot makes that impossible).
    bool keep(u32 target, const noc::MailboxMessage& message);
    // True if a message for (target, port) waits for that port to drain.
    bool holds(u32 target, u32 port) const { return target < board::kMaxNodes && port < kPorts && (held_[target] >> port) & 1; }
    // The receiver said these ports of `target` drained (the bits may come before the
    // refused message itself is kept: they are remembered).
    void drained(u32 target, u32 ports);
    // A held message for `target` whose port drained, or nullptr: the next one to resend.
    HeldMessage* ready(u32 target);
    // The message went out again (or its port's quota is gone): forget it.
    void release(HeldMessage* m);
    // Targets with a message ready to resend (bit per node).
    u64 ready_targets() const { return ready_targets_; }
    u32 count() const { return count_; }
    bool full() const { return count_ == kHeldMessages; }

private:
    void update_ready(u32 target);
    HeldMessage slots_[kHeldMessages];
    u32 held_[board::kMaxNodes] = {};     // per target: ports with a held message
    u32 drained_[board::kMaxNodes] = {};  // per target: ports the receiver said drained
    u64 ready_targets_ = 0;               // targets where held & drained is not empty
    u32 count_ = 0;
};
}  // namespace nvx::ikc
