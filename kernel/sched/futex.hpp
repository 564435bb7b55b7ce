// Futex-style wait/wake: the kernel object under user mutexes, condition variables,
// semaphores and barriers. Kernel-core only, so a wait's value check and a wake on the
// same word are serialized.
#pragma once
#include "kernel/mm/user_addr.hpp"
#include "kernel/sched/outcome.hpp"
#include "kernel/sched/thread.hpp"

namespace nvx::kernel {
CallResult futex_wait(Thread* caller, UserAddr address, u32 expected);
i64 futex_wake(UserAddr address, u64 count, u64 flags);  // flags: NVX_FUTEX_UNTIMED or 0
// Wakes every waiter on `address` (checked by the caller), each going on from virtual time
// `at` at the earliest: an event that happened then (an IKC completion) ends their wait;
// `untimed`: they keep their own time.
void futex_wake_all_at(UserAddr address, u64 at, bool untimed);
void futex_reset();  // the program ended: forget its waiters
}  // namespace nvx::kernel
