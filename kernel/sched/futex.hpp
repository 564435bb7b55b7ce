// Futex-style wait/wake: the kernel object under user mutexes, condition variables,
// semaphores and barriers. A wake runs on the waker's own hart, which takes the waiters
// out and leaves them to the kernel core to make ready: the waker goes on without a round
// trip to the core. A wait by a thread pinned to its hart runs on that hart, which keeps
// the thread and sleeps with it (parked) while no other thread wants the hart: its waker
// then sends the IPI itself, and neither side passes through the kernel core. Other waits
// run on the kernel core (the hart is given back). One lock orders a wait's value check
// against every wake of the same word.
#pragma once
#include "support/atomic.hpp"
#include "kernel/mm/user_addr.hpp"
#include "kernel/sched/outcome.hpp"
#include "kernel/sched/thread.hpp"

namespace nvx::kernel {
enum ParkState : u32 { kNotParked = 0, kParked = 1, kParkWoken = 2 };

CallResult futex_wait(Thread* caller, UserAddr address, u32 expected);  // kernel core
// The same on the caller's hart `c`: false if the caller must post it to the kernel core
// (not pinned to `c`, or another thread waits for a hart); else *out is its result, or
// Blocked: the caller is parked on `c` (its time has left the hart).
bool futex_wait_here(Cpu& c, Thread* caller, UserAddr address, u32 expected, CallResult* out);
// The parked thread's hart got an IPI. Woken: the wait ended (its result and time are
// set), it runs on. Waiting: nothing for it. Unparked (only when `give_up`: another thread
// wants the hart): it stays a waiter, now kept by the kernel core like any other.
enum class ParkEnd : u8 { Woken, Waiting, Unparked };
ParkEnd futex_park_check(Thread* t, bool give_up);
i64 futex_wake(UserAddr address, u64 count, u64 flags);  // any hart; flags: NVX_FUTEX_UNTIMED or 0
// Wakes every waiter on `address` (checked by the caller), each going on from virtual time
// `at` at the earliest: an event that happened then (an IKC completion) ends their wait;
// `untimed`: they keep their own time.
void futex_wake_all_at(UserAddr address, u64 at, bool untimed);  // kernel core
// Set by a user hart that woke threads for the kernel core to make ready (read inline: the
// core loop looks on every pass).
extern u32 g_futex_woken_pending;
bool futex_serve_woken_now();
// Kernel core: makes ready the threads user harts woke; true if there were any.
inline bool futex_serve_woken() { return atomic::load_relaxed(&g_futex_woken_pending) != 0 && futex_serve_woken_now(); }
void futex_reset();  // the program ended: forget its waiters
}  // namespace nvx::kernel
