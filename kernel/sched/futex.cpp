#include "kernel/sched/futex.hpp"

#include "hal/riscv/sv39.hpp"
#include "kernel/clock/clock.hpp"
#include "kernel/cpu.hpp"
#include "kernel/mm/address_space.hpp"
#include "kernel/sched/blocking.hpp"
#include "support/atomic.hpp"
#include "support/spinlock.hpp"

namespace nvx::kernel {
namespace {
// Waits run on the kernel core, wakes on the waker's own hart: the lock orders a wait's
// value check and queuing against every wake of the same word.
SpinLock g_lock;
ThreadQueue g_waiters;  // every futex waiter, oldest first
// Threads a user hart woke (result and time set), for the kernel core to make ready.
ThreadQueue g_woken;
u32 g_woken_pending;

// The futex word: 4-byte aligned, mapped and readable by the user.
u32* futex_word(UserAddr address) { return static_cast<u32*>(g_space.user_pointer(address, 4, riscv::sv39::kRead)); }

// Takes up to `count` waiters of `address` out of the queue (g_lock held) into `out`, each
// with its result (0) and the time it goes on from: `at`, unless the wake is untimed.
i64 take_waiters(UserAddr address, u64 count, bool untimed, u64 at, ThreadQueue& out) {
    i64 woken = 0;
    while (static_cast<u64>(woken) < count) {
        Thread* t = g_waiters.take_first([&](Thread* w) { return w->futex_address == address; });
        if (t == nullptr) break;
        set_result(t, 0);
        // A server takes its time from the requests it serves (nvx_clock_serve), not from
        // whoever released a lock it waited for or queued it a job, in host order.
        if (!untimed && !clock_thread_is_server(t)) clock_stamp_thread(t, at);
        out.push(t);
        woken++;
    }
    return woken;
}
}  // namespace

CallResult futex_wait(Thread* caller, UserAddr address, u32 expected) {
    if (address.value() % 4 != 0) return resume_with(-NVX_EINVAL);
    u32* word = futex_word(address);
    if (word == nullptr) return resume_with(-NVX_EFAULT);
    LockGuard hold(g_lock);
    if (atomic::load_acquire(word) != expected) return resume_with(-NVX_EAGAIN);
    caller->futex_address = address;
    g_waiters.push(caller);
    return block(caller, BlockReason::Futex);
}

i64 futex_wake(UserAddr address, u64 count, u64 flags) {
    if (address.value() % 4 != 0 || (flags & ~u64{NVX_FUTEX_UNTIMED}) != 0) return -NVX_EINVAL;
    if (futex_word(address) == nullptr) return -NVX_EFAULT;
    u64 at = clock_here();  // the waker's time, on its own hart
    i64 woken;
    {
        LockGuard hold(g_lock);
        woken = take_waiters(address, count, (flags & NVX_FUTEX_UNTIMED) != 0, at, g_woken);
    }
    if (woken > 0) {
        atomic::store_release(&g_woken_pending, u32{1});
        send_ipi(cpu_at(0));
    }
    return woken;
}

void futex_wake_all_at(UserAddr address, u64 at, bool untimed) {
    ThreadQueue woken;
    {
        LockGuard hold(g_lock);
        take_waiters(address, ~u64{0}, untimed, at, woken);
    }
    while (Thread* t = woken.pop()) g_scheduler.make_ready(t);
}

bool futex_serve_woken() {
    if (atomic::exchange_acq_rel(&g_woken_pending, u32{0}) == 0) return false;
    ThreadQueue woken;
    {
        LockGuard hold(g_lock);
        woken = g_woken;
        g_woken = ThreadQueue{};
    }
    while (Thread* t = woken.pop()) g_scheduler.make_ready(t);
    return true;
}

void futex_reset() {
    LockGuard hold(g_lock);
    g_waiters = ThreadQueue{};
    g_woken = ThreadQueue{};
    atomic::store_release(&g_woken_pending, u32{0});
}
}  // namespace nvx::kernel
