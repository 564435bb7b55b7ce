// A rank's doorbell: the rank sleeps on it in the kernel (futex) when it has nothing to
// do; whoever makes progress for it rings it, with a kernel call only if it sleeps, and
// the kernel bumps it when one of the rank's asynchronous IKC operations completes (the
// word is the records' notify).
// Protocol: snapshot(), look for work, then sleep(snapshot): a ring after the snapshot
// makes the sleep return at once, so no wake-up is lost. One thread of a rank sleeps on it
// at a time (MPI_THREAD_SERIALIZED at most), so one kernel call per sleep wakes it.
// A ring hands no virtual time over (NVX_FUTEX_UNTIMED): many sources ring one bell, and
// the first ring in host order may be about an event far later in virtual time than the
// one the rank waits for. What the rank then consumes carries its own stamp instead (an
// op's completion, an IKC record's `at`), taken with nvx_clock_take.
#pragma once

#include <stdint.h>

#include <nvx/syscall.h>

namespace mputil {

struct Doorbell {
    uint32_t seq;
    // 0, or the count the rank sleeps on tagged with bit 32: a ring is news to the sleeper
    // only if the count it made is later than that one.
    uint64_t sleeper;

    uint32_t snapshot() const { return __atomic_load_n(&seq, __ATOMIC_SEQ_CST); }

    void sleep(uint32_t seen)
    {
        __atomic_store_n(&sleeper, kSleeping | seen, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(&seq, __ATOMIC_SEQ_CST) == seen) nvx_sys_futex_wait(&seq, seen);
        __atomic_store_n(&sleeper, 0, __ATOMIC_SEQ_CST);
    }

    // The ring that finds the rank asleep on an earlier count takes the tag as it wakes it:
    // rings that follow before the rank runs again (a burst of messages) make no kernel
    // call, and a ring the rank already saw never takes the tag of a later sleep.
    void ring()
    {
        uint32_t now = __atomic_add_fetch(&seq, 1, __ATOMIC_SEQ_CST);
        uint64_t tag = __atomic_load_n(&sleeper, __ATOMIC_SEQ_CST);
        if (tag == 0 || static_cast<int32_t>(now - static_cast<uint32_t>(tag)) <= 0) return;
        if (__atomic_compare_exchange_n(&sleeper, &tag, 0, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
            nvx_sys_futex_wake_untimed(&seq, 1);
    }

private:
    static constexpr uint64_t kSleeping = uint64_t{1} << 32;
};

}  // namespace mputil
