// When the kernel core's timer must be (re)programmed: pure logic, so the rule that keeps
// the core asleep is tested on the host (tests/host/logic/core_timer_test.cpp). The timer serves
// two clients: the preemption tick, which runs only while threads wait for a hart, and the
// earliest deadline of a sleeping thread. It is set for the earlier of the two, or never.
#pragma once
#include "support/types.hpp"

namespace nvx::kernel {
class CoreTimer {
public:
    static constexpr u64 kNever = ~0ull;

    // Called once per pass of the core loop: `fired` says the timer interrupt is pending,
    // `waiting` that threads wait for a hart, `wake_at` the earliest sleeper's deadline
    // (kNever if none; sleepers due by `now` were already woken). Returns true and sets
    // `deadline` when the timer must be written. A fired timer is always rewritten,
    // because only a new deadline clears its pending interrupt (else wfi returns at once
    // and the core spins).
    bool update(bool fired, bool waiting, u64 now, u64 interval, u64 wake_at, u64& deadline) {
        if (!waiting)
            tick_ = kNever;
        else if (tick_ == kNever || now >= tick_)
            tick_ = now + interval;
        u64 target = tick_ < wake_at ? tick_ : wake_at;
        if (!fired && target == programmed_) return false;
        programmed_ = target;
        deadline = target;
        return true;
    }

    bool tick_armed() const { return tick_ != kNever; }

private:
    u64 tick_ = kNever;        // next preemption tick, while threads wait
    u64 programmed_ = kNever;  // what the timer holds
};
}  // namespace nvx::kernel
