// Futex-style wait/wake: the kernel object under user mutexes, condition variables,
// semaphores and barriers. A wait runs on the kernel core (the thread sleeps); a wake runs
// on the waker's own hart, which takes the waiters out and leaves them to the kernel core
// to make ready: the waker goes on without a round trip to the core. One lock orders a
// wait's value check against every wake of the same word.
#pragma once
#include "kernel/mm/user_addr.hpp"
#include "kernel/sched/outcome.hpp"
#include "kernel/sched/thread.hpp"

namespace nvx::kernel {
CallResult futex_wait(Thread* caller, UserAddr address, u32 expected);
i64 futex_wake(UserAddr address, u64 count, u64 flags);  // any hart; flags: NVX_FUTEX_UNTIMED or 0
// Wakes every waiter on `address` (checked by the caller), each going on from virtual time
// `at` at the earliest: an event that happened then (an IKC completion) ends their wait;
// `untimed`: they keep their own time.
void futex_wake_all_at(UserAddr address, u64 at, bool untimed);  // kernel core
// Kernel core: makes ready the threads user harts woke; true if there were any.
bool futex_serve_woken();
void futex_reset();  // the program ended: forget its waiters
}  // namespace nvx::kernel
