// Atomics over the GCC builtins: the ordering is always spelled out at the call site.
#pragma once

namespace nvx::atomic {
template <typename T> inline T load_relaxed(const T* p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
template <typename T> inline T load_acquire(const T* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
template <typename T> inline void store_relaxed(T* p, T v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
template <typename T> inline void store_release(T* p, T v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
template <typename T> inline T exchange_acq_rel(T* p, T v) { return __atomic_exchange_n(p, v, __ATOMIC_ACQ_REL); }
template <typename T> inline T fetch_add(T* p, T v) { return __atomic_fetch_add(p, v, __ATOMIC_ACQ_REL); }
template <typename T> inline T fetch_or(T* p, T v) { return __atomic_fetch_or(p, v, __ATOMIC_ACQ_REL); }
template <typename T> inline T fetch_and(T* p, T v) { return __atomic_fetch_and(p, v, __ATOMIC_ACQ_REL); }
template <typename T> inline bool compare_exchange(T* p, T& expected, T desired) {
    return __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}
inline void fence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
}  // namespace nvx::atomic
