// A mailbox port as a bounded queue in virtual time. A port holds at most Q messages, so
// its n-th message can enter only once n - Q messages have left, whichever they were (the
// port hands them out by stamp, not in arrival order): a local writer that found the port
// full goes on from the (n - Q)-th departure, whichever message the host happened to drain
// before retrying it, and a writer the host let in while the port was full in virtual time
// is held back all the same. Only occupancy matters, so counting entries and departures is
// enough to pair them.
#pragma once
#include "support/types.hpp"

namespace nvx::ikc {
template <u32 Q>
class PortTimes {
public:
    // The earliest virtual time the next message may enter (0: the port has never been full).
    u64 entry_bound() const { return entered_ >= Q ? left_at_[(entered_ - Q) % Q] : 0; }
    // A message entered the port. The caller keeps at most Q in it (MessageBuffers' quota),
    // so the message whose departure bounds the next entry has already left.
    void entered() { entered_++; }
    // A message left the port at virtual time `at`.
    void left(u64 at) { left_at_[left_++ % Q] = at; }
    u32 held() const { return entered_ - left_; }

private:
    u64 left_at_[Q] = {};
    u32 entered_ = 0;
    u32 left_ = 0;
};
}  // namespace nvx::ikc
