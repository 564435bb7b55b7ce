// A spinlock for short critical sections that never wait for another hart's event
// (e.g. emitting one console line). Never use it to wait: sleep in wfi instead.
#pragma once
#include "support/atomic.hpp"
#include "support/types.hpp"

namespace nvx {
class SpinLock {
public:
    void lock() {
        while (__atomic_exchange_n(&held_, 1u, __ATOMIC_ACQUIRE) != 0) {
            while (atomic::load_relaxed(&held_) != 0) {
            }
        }
    }
    bool try_lock() { return __atomic_exchange_n(&held_, 1u, __ATOMIC_ACQUIRE) == 0; }
    void unlock() { atomic::store_release(&held_, 0u); }

private:
    u32 held_ = 0;
};

class LockGuard {
public:
    explicit LockGuard(SpinLock& lock) : lock_(lock) { lock_.lock(); }
    ~LockGuard() { lock_.unlock(); }
    LockGuard(const LockGuard&) = delete;
    LockGuard& operator=(const LockGuard&) = delete;

private:
    SpinLock& lock_;
};
}  // namespace nvx
