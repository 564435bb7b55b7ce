#include "kernel/sched/futex.hpp"

#include "hal/riscv/sv39.hpp"
#include "kernel/mm/address_space.hpp"
#include "kernel/sched/scheduler.hpp"
#include "support/atomic.hpp"

namespace nvx::kernel {
namespace {
ThreadQueue g_waiters;  // every futex waiter, oldest first

// The futex word: 4-byte aligned, mapped and readable by the user.
u32* futex_word(u64 address) { return static_cast<u32*>(g_space.user_pointer(address, 4, riscv::sv39::kRead)); }
}  // namespace

Outcome futex_wait(Thread* caller, u64 address, u32 expected) {
    u32* word = futex_word(address);
    i64 result = 0;
    if (address % 4 != 0) {
        result = -NVX_EINVAL;
    } else if (word == nullptr) {
        result = -NVX_EFAULT;
    } else if (atomic::load_acquire(word) != expected) {
        result = -NVX_EAGAIN;
    } else {
        caller->state = ThreadState::Blocked;
        caller->blocked_on = BlockReason::Futex;
        caller->futex_address = address;
        caller->frame.x[kA0] = 0;
        g_waiters.push(caller);
        return Outcome::Blocked;
    }
    caller->frame.x[kA0] = static_cast<u64>(result);
    return Outcome::Resume;
}

i64 futex_wake(u64 address, u64 count) {
    if (address % 4 != 0) return -NVX_EINVAL;
    if (futex_word(address) == nullptr) return -NVX_EFAULT;
    i64 woken = 0;
    while (static_cast<u64>(woken) < count) {
        Thread* t = g_waiters.take_first([&](Thread* w) { return w->futex_address == address; });
        if (t == nullptr) break;
        g_scheduler.make_ready(t);
        woken++;
    }
    return woken;
}

void futex_reset() { g_waiters = ThreadQueue{}; }
}  // namespace nvx::kernel
