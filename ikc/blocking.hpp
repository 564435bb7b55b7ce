// How an IKC operation waits on the kernel core and ends: shared by mailbox, portal and sync.
#pragma once
#include "ikc/endpoint_table.hpp"
#include "ikc/ops.hpp"
#include "kernel/sched/blocking.hpp"

namespace nvx::ikc {
using kernel::CallResult;
using kernel::resume_with;
using kernel::Thread;

// `op` waits at the tail of `queue` on behalf of endpoint `e`; its call ends (a
// synchronous caller sleeps, an asynchronous start returns).
inline CallResult sleep_on(OpQueue& queue, IkcOp* op, Endpoint& e) {
    queue.push(op);
    op->queue = &queue;
    op->waiting_on = &e;
    e.pending++;
    e.stats.waits++;
    return leave_under_way(op);
}

// Deadlock report: what an operation waiting on `e` (a `kind` endpoint) waits for.
bool describe_endpoint_wait(const Endpoint& e, const char* kind, char* out, u64 size);
// ... and what operation `op` waits for.
bool describe_op_wait(const IkcOp* op, char* out, u64 size);

// Ends an operation that waited in sleep_on (already out of its queue) with its result,
// at virtual time `at`.
inline void wake_at(IkcOp* op, Endpoint& e, i64 result, u64 at) {
    e.pending--;
    op->queue = nullptr;
    op->waiting_on = nullptr;
    complete(op, result, at);
}
// The same, going on from the waker's time (the core's current service context).
inline void wake(IkcOp* op, Endpoint& e, i64 result) { wake_at(op, e, result, core_now()); }

// Retries the operations of `queue` in order. One that still cannot go holds back the
// later ones for the same port (their order is kept) but not those for other ports.
// go(op) returns true when op's request went through (go ends op itself).
template <typename PortOf, typename Go>
void retry_in_port_order(OpQueue& queue, PortOf port_of, Go go) {
    OpQueue still_waiting;
    u64 stuck_ports = 0;
    while (!queue.empty()) {
        IkcOp* op = queue.pop();
        u64 port_bit = 1ull << port_of(op);
        if ((stuck_ports & port_bit) || !go(op)) {
            stuck_ports |= port_bit;
            still_waiting.push(op);
        }
    }
    queue = still_waiting;  // each keeps op->queue == &queue
}

// True if an operation of `queue` already waits to go to `port` (a newcomer queues behind it).
template <typename PortOf>
bool waiting_for_port(const OpQueue& queue, u32 port, PortOf port_of) {
    for (IkcOp* op = queue.front(); op != nullptr; op = op->next)
        if (port_of(op) == port) return true;
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
