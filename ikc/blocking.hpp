// How an IKC call ends or sleeps on the kernel core: shared by mailbox, portal and sync.
#pragma once
#include "ikc/endpoint_table.hpp"
#include "ikc/pending_io.hpp"
#include "kernel/sched/blocking.hpp"

namespace nvx::ikc {
using kernel::CallResult;
using kernel::resume_with;
using kernel::Thread;
using kernel::ThreadQueue;

// Puts `t` to sleep at the tail of `queue` on behalf of endpoint `e`.
inline CallResult sleep_on(ThreadQueue& queue, Thread* t, Endpoint& e) {
    queue.push(t);
    io_of(t).waiting_on = &e;
    e.pending++;
    e.stats.waits++;
    return kernel::block(t, kernel::BlockReason::Module);
}

// Deadlock report: what a thread asleep on `e` (a `kind` endpoint) waits for.
bool describe_endpoint_wait(const Endpoint& e, const char* kind, char* out, u64 size);

// Wakes a thread that slept in sleep_on with its call's result.
inline void wake_at(Thread* t, Endpoint& e, i64 result, u64 at) {
    e.pending--;
    kernel::wake_at(t, result, at);
}
// The same, going on from the waker's time (the core's current service context).
inline void wake(Thread* t, Endpoint& e, i64 result) { wake_at(t, e, result, kernel::clock_core_now()); }

// Retries the sleepers of `queue` in order. One that still cannot go holds back the later
// ones for the same port (their order is kept) but not those for other ports.
// go(t) returns true when t's request went through (go wakes t itself).
template <typename PortOf, typename Go>
void retry_in_port_order(ThreadQueue& queue, PortOf port_of, Go go) {
    ThreadQueue still_waiting;
    u64 stuck_ports = 0;
    while (!queue.empty()) {
        Thread* t = queue.pop();
        u64 port_bit = 1ull << port_of(t);
        if ((stuck_ports & port_bit) || !go(t)) {
            stuck_ports |= port_bit;
            still_waiting.push(t);
        }
    }
    queue = still_waiting;
}

// True if a sleeper of `queue` already waits to go to `port` (a newcomer queues behind it).
template <typename PortOf>
bool waiting_for_port(const ThreadQueue& queue, u32 port, PortOf port_of) {
    for (Thread* t = queue.front(); t != nullptr; t = t->next)
        if (port_of(t) == port) return true;
    return false;
}

// One hardware transfer of `bytes` from this output endpoint's node to its target.
inline void count_transfer(Endpoint& out, u64 bytes) {
    out.stats.hw_transfers++;
    out.stats.modeled_cycles += board::kBoard.transfer_cycles(out.node, out.remote_node, bytes);
}

inline void count_message(Endpoint& e, u64 bytes) {
    e.stats.messages++;
    e.stats.bytes += bytes;
}
}  // namespace nvx::ikc
