// Timed sleep: a thread blocks in NVX_SYS_SLEEP_UNTIL until the board clock reaches its
// deadline. Sleepers are kept in deadline order; the kernel core arms its timer for the
// first one (kernel/sched/core_timer.hpp) and wakes them when it fires. Kernel core only.
#pragma once
#include "kernel/sched/outcome.hpp"
#include "kernel/sched/thread.hpp"

namespace nvx::kernel {
// Deadlines are board clock ticks (the `time` CSR); from 2^63 on they are refused (EINVAL).
inline constexpr u64 kLatestDeadline = (1ull << 63) - 1;

// Blocks `caller` until `deadline`; a deadline already reached returns at once.
CallResult sleep_until(Thread* caller, u64 deadline, u64 now);
// The sleepers, earliest deadline first, linked through Thread::next (read inline: the core
// loop asks on every pass).
extern Thread* g_sleepers;
// The earliest sleeper's deadline, or ~0 when nobody sleeps.
inline u64 next_wake() { return g_sleepers != nullptr ? g_sleepers->wake_at : ~0ull; }
void wake_due_sleepers(u64 now);
// Wakes every sleeper whose deadline is at or before `now`.
inline void wake_sleepers(u64 now) {
    if (next_wake() <= now) wake_due_sleepers(now);
}
void sleepers_reset();  // the program ended: forget its sleepers
}  // namespace nvx::kernel
