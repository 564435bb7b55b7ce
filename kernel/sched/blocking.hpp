// Blocking and waking threads: the one way futexes, joins and kernel modules (IKC) put a
// thread to sleep in a kernel call and later finish that call. Kernel core only, but for
// block() of the thread a user hart runs (a futex wait parked on that hart, futex.hpp).
#pragma once
#include "kernel/clock/clock.hpp"
#include "kernel/sched/outcome.hpp"
#include "kernel/sched/scheduler.hpp"

namespace nvx::kernel {
// The value the thread's kernel call returns (its a0 when it next runs).
inline void set_result(Thread* t, i64 value) { t->frame.x[kA0] = static_cast<u64>(value); }

// `t` sleeps in its kernel call; whoever keeps it (a wait queue) wakes it later.
inline CallResult block(Thread* t, BlockReason why) {
    t->state = ThreadState::Blocked;
    t->blocked_on = why;
    return blocked();
}

// Ends the kernel call `t` slept in with `result` and makes it runnable; it goes on from
// virtual time `at` if that is later than its own.
inline void wake_at(Thread* t, i64 result, u64 at) {
    set_result(t, result);
    clock_stamp_thread(t, at);
    g_scheduler.make_ready(t);
}
// The same from the waker's time (the core's current service context).
inline void wake(Thread* t, i64 result) { wake_at(t, result, clock_core_now()); }

// As wake(), but `t` keeps its own time: a notice that hands nothing over (the data it
// then reads carries its own stamps, taken with nvx_clock_take).
inline void wake_untimed(Thread* t, i64 result) {
    set_result(t, result);
    g_scheduler.make_ready(t);
}
}  // namespace nvx::kernel
