// A rank's doorbell: the rank sleeps on it in the kernel (futex) when it has nothing to
// do; whoever makes progress for it rings it, with a kernel call only if it sleeps, and
// the kernel bumps it when one of the rank's asynchronous IKC operations completes (the
// word is the records' notify).
// Protocol: snapshot(), look for work, then sleep(snapshot): a ring after the snapshot
// makes the sleep return at once, so no wake-up is lost. Every ring that finds the rank
// asleep enters the kernel, even after an earlier ring of a burst woke it: some waits rely
// on those extra wake-ups (ringing once per sleep stalled 192-rank collectives by ~25 ms).
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
    uint32_t sleeping;

    uint32_t snapshot() const { return __atomic_load_n(&seq, __ATOMIC_SEQ_CST); }

    void sleep(uint32_t seen)
    {
        __atomic_store_n(&sleeping, 1, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(&seq, __ATOMIC_SEQ_CST) == seen) nvx_sys_futex_wait(&seq, seen);
        __atomic_store_n(&sleeping, 0, __ATOMIC_SEQ_CST);
    }

    void ring()
    {
        __atomic_add_fetch(&seq, 1, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(&sleeping, __ATOMIC_SEQ_CST) != 0) nvx_sys_futex_wake_untimed(&seq, 1);
    }
};

}  // namespace mputil
