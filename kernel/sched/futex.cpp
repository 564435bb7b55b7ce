#include "kernel/sched/futex.hpp"

#include "hal/riscv/sv39.hpp"
#include "kernel/clock/clock.hpp"
#include "kernel/mm/address_space.hpp"
#include "kernel/sched/blocking.hpp"
#include "support/atomic.hpp"

namespace nvx::kernel {
namespace {
ThreadQueue g_waiters;  // every futex waiter, oldest first

// The futex word: 4-byte aligned, mapped and readable by the user.
u32* futex_word(UserAddr address) { return static_cast<u32*>(g_space.user_pointer(address, 4, riscv::sv39::kRead)); }
}  // namespace

CallResult futex_wait(Thread* caller, UserAddr address, u32 expected) {
    if (address.value() % 4 != 0) return resume_with(-NVX_EINVAL);
    u32* word = futex_word(address);
    if (word == nullptr) return resume_with(-NVX_EFAULT);
    if (atomic::load_acquire(word) != expected) return resume_with(-NVX_EAGAIN);
    caller->futex_address = address;
    g_waiters.push(caller);
    return block(caller, BlockReason::Futex);
}

namespace {
i64 wake_waiters(UserAddr address, u64 count, bool untimed, u64 at) {
    i64 woken = 0;
    while (static_cast<u64>(woken) < count) {
        Thread* t = g_waiters.take_first([&](Thread* w) { return w->futex_address == address; });
        if (t == nullptr) break;
        // A server takes its time from the requests it serves (nvx_clock_serve), not from
        // whoever released a lock it waited for or queued it a job, in host order.
        if (untimed || clock_thread_is_server(t)) wake_untimed(t, 0);
        else wake_at(t, 0, at);
        woken++;
    }
    return woken;
}
}  // namespace

i64 futex_wake(UserAddr address, u64 count, u64 flags) {
    if (address.value() % 4 != 0 || (flags & ~u64{NVX_FUTEX_UNTIMED}) != 0) return -NVX_EINVAL;
    if (futex_word(address) == nullptr) return -NVX_EFAULT;
    return wake_waiters(address, count, (flags & NVX_FUTEX_UNTIMED) != 0, clock_core_now());
}

void futex_wake_all_at(UserAddr address, u64 at, bool untimed) { wake_waiters(address, ~u64{0}, untimed, at); }

void futex_reset() { g_waiters = ThreadQueue{}; }
}  // namespace nvx::kernel
