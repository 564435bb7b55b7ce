#include "kernel/sched/futex.hpp"

#include "hal/riscv/sv39.hpp"
#include "kernel/clock/clock.hpp"
#include "kernel/cpu.hpp"
#include "kernel/mm/address_space.hpp"
#include "kernel/sched/blocking.hpp"
#include "support/atomic.hpp"
#include "support/bits.hpp"
#include "support/spinlock.hpp"

namespace nvx::kernel {
namespace {
// Waits run on the kernel core or the waiter's hart, wakes on the waker's: the lock orders
// a wait's value check and queuing against every wake of the same word.
SpinLock g_lock;
ThreadQueue g_waiters;  // every futex waiter, oldest first
// Threads a user hart woke (result and time set), for the kernel core to make ready.
ThreadQueue g_woken;

// Holds g_lock. Waiting for it costs no virtual time: a hart that finds it held spins for
// as long as the host takes to run the holder again, which is the host's order, not the
// program's (under deterministic execution a whole turn of the holder's, some 10^8
// instructions: one rank of a 192-rank collective came out 250 ms late).
class FutexLockGuard {
public:
    FutexLockGuard() {
        if (g_lock.try_lock()) return;
        ClockUncharged spin;
        g_lock.lock();
    }
    ~FutexLockGuard() { g_lock.unlock(); }
    FutexLockGuard(const FutexLockGuard&) = delete;
    FutexLockGuard& operator=(const FutexLockGuard&) = delete;
};

// The futex word: 4-byte aligned, mapped and readable by the user.
u32* futex_word(UserAddr address) { return static_cast<u32*>(g_space.user_pointer(address, 4, riscv::sv39::kRead)); }

// Takes up to `count` waiters of `address` out of the queue (g_lock held), each with its
// result (0) and the time it goes on from: `at`, unless the wake is untimed. A parked one
// is marked woken and its hart added to `parked_harts` (for an IPI once g_lock is
// released); the others go to `out`, for the kernel core to make ready.
i64 take_waiters(UserAddr address, u64 count, bool untimed, u64 at, ThreadQueue& out, u64& parked_harts) {
    i64 woken = 0;
    while (static_cast<u64>(woken) < count) {
        Thread* t = g_waiters.take_first([&](Thread* w) { return w->futex_address == address; });
        if (t == nullptr) break;
        set_result(t, 0);
        // A server takes its time from the requests it serves (nvx_clock_serve), not from
        // whoever released a lock it waited for or queued it a job, in host order.
        if (!untimed && !clock_thread_is_server(t)) clock_stamp_thread(t, at);
        if (t->parked == kParked) {
            atomic::store_release(&t->parked, static_cast<u32>(kParkWoken));
            parked_harts |= u64{1} << t->cpu->local;
        } else {
            out.push(t);
        }
        woken++;
    }
    return woken;
}

void wake_parked(u64 harts) {
    for (; harts != 0; harts &= harts - 1) send_ipi(cpu_at(lowest_set_bit(harts)));
}

// The futex word, or the error the call returns.
i64 check_word(UserAddr address, u32** word) {
    if (address.value() % 4 != 0) return -NVX_EINVAL;
    *word = futex_word(address);
    return *word == nullptr ? -NVX_EFAULT : 0;
}
}  // namespace

u32 g_futex_woken_pending;

CallResult futex_wait(Thread* caller, UserAddr address, u32 expected) {
    u32* word;
    if (i64 err = check_word(address, &word)) return resume_with(err);
    FutexLockGuard hold;
    if (atomic::load_acquire(word) != expected) return resume_with(-NVX_EAGAIN);
    caller->futex_address = address;
    g_waiters.push(caller);
    return block(caller, BlockReason::Futex);
}

bool futex_wait_here(Cpu& c, Thread* caller, UserAddr address, u32 expected, CallResult* out) {
    if (caller->affinity != static_cast<i32>(c.local) || g_scheduler.has_waiting_seen()) return false;
    u32* word;
    if (i64 err = check_word(address, &word)) {
        *out = resume_with(err);
        return true;
    }
    FutexLockGuard hold;
    if (atomic::load_acquire(word) != expected) {
        *out = resume_with(-NVX_EAGAIN);
        return true;
    }
    clock_thread_leaves(c, caller);  // before a waker can stamp it
    caller->futex_address = address;
    caller->parked = kParked;
    g_waiters.push(caller);
    *out = block(caller, BlockReason::Futex);
    return true;
}

ParkEnd futex_park_check(Thread* t, bool give_up) {
    if (atomic::load_acquire(&t->parked) == kParkWoken) {
        t->parked = kNotParked;
        return ParkEnd::Woken;
    }
    if (!give_up) return ParkEnd::Waiting;
    FutexLockGuard hold;
    if (t->parked == kParkWoken) {
        t->parked = kNotParked;
        return ParkEnd::Woken;
    }
    t->parked = kNotParked;  // a later wake goes through the kernel core
    return ParkEnd::Unparked;
}

i64 futex_wake(UserAddr address, u64 count, u64 flags) {
    if (address.value() % 4 != 0 || (flags & ~u64{NVX_FUTEX_UNTIMED}) != 0) return -NVX_EINVAL;
    if (futex_word(address) == nullptr) return -NVX_EFAULT;
    u64 at = clock_here();  // the waker's time, on its own hart
    i64 woken;
    u64 parked = 0;
    bool for_core;
    {
        FutexLockGuard hold;
        woken = take_waiters(address, count, (flags & NVX_FUTEX_UNTIMED) != 0, at, g_woken, parked);
        for_core = !g_woken.empty();
    }
    wake_parked(parked);
    if (for_core) {
        atomic::store_release(&g_futex_woken_pending, u32{1});
        send_ipi(cpu_at(0));
    }
    return woken;
}

void futex_wake_all_at(UserAddr address, u64 at, bool untimed) {
    ThreadQueue woken;
    u64 parked = 0;
    {
        FutexLockGuard hold;
        take_waiters(address, ~u64{0}, untimed, at, woken, parked);
    }
    wake_parked(parked);
    while (Thread* t = woken.pop()) g_scheduler.make_ready(t);
}

bool futex_serve_woken_now() {
    if (atomic::exchange_acq_rel(&g_futex_woken_pending, u32{0}) == 0) return false;
    ThreadQueue woken;
    {
        FutexLockGuard hold;
        woken = g_woken;
        g_woken = ThreadQueue{};
    }
    while (Thread* t = woken.pop()) g_scheduler.make_ready(t);
    return true;
}

void futex_reset() {
    FutexLockGuard hold;
    g_waiters = ThreadQueue{};
    g_woken = ThreadQueue{};
    atomic::store_release(&g_futex_woken_pending, u32{0});
}
}  // namespace nvx::kernel
