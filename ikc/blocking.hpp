// How an IKC call ends or sleeps on the kernel core: shared by mailbox, portal and sync.
#pragma once
#include "ikc/endpoint_table.hpp"
#include "kernel/proc/process.hpp"
#include "kernel/sched/scheduler.hpp"

namespace nvx::ikc {
using kernel::Outcome;
using kernel::Thread;
using kernel::ThreadQueue;

inline Outcome finish(Thread* t, i64 result) {
    t->frame.x[kernel::kA0] = static_cast<u64>(result);
    return Outcome::Resume;
}

// Puts `t` to sleep at the tail of `queue` on behalf of endpoint `e`.
inline Outcome sleep_on(ThreadQueue& queue, Thread* t, Endpoint& e) {
    t->state = kernel::ThreadState::Blocked;
    t->blocked_on = kernel::BlockReason::Io;
    queue.push(t);
    e.pending++;
    e.stats.waits++;
    return Outcome::Blocked;
}

// Wakes a thread that slept in sleep_on with its call's result.
inline void wake(Thread* t, Endpoint& e, i64 result) {
    e.pending--;
    t->frame.x[kernel::kA0] = static_cast<u64>(result);
    kernel::g_scheduler.make_ready(t);
}

inline void count_message(Endpoint& e, u64 bytes) {
    e.stats.messages++;
    e.stats.bytes += bytes;
}
}  // namespace nvx::ikc
