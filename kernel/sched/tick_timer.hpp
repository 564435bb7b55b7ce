// When the kernel core's preemption tick must be (re)programmed: pure logic, so the rule that
// keeps the core asleep is tested on the host (tests/host/tick_timer_test.cpp).
#pragma once
#include "support/types.hpp"

namespace nvx::kernel {
class TickTimer {
public:
    static constexpr u64 kNever = ~0ull;

    // Called once per pass of the core loop: `fired` says the timer interrupt is pending,
    // `waiting` that threads wait for a hart. Returns true and sets `deadline` when the
    // timer must be written: the tick runs only while threads wait, and a fired timer is
    // always rewritten, because only a new deadline clears its pending interrupt (else
    // wfi returns at once and the core spins).
    bool update(bool fired, bool waiting, u64 now, u64 interval, u64& deadline) {
        if (!fired && waiting == armed_) return false;
        armed_ = waiting;
        deadline = waiting ? now + interval : kNever;
        return true;
    }

    bool armed() const { return armed_; }

private:
    bool armed_ = false;
};
}  // namespace nvx::kernel
