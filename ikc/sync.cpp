#include "ikc/sync.hpp"

#include "hal/noc/noc_driver.hpp"
#include "ikc/endpoint_calls.hpp"
#include "ikc/own_nodes.hpp"
#include "kernel/console.hpp"
#include "kernel/mm/address_space.hpp"
#include "support/atomic.hpp"

namespace nvx::ikc {
namespace {
EndpointTable<kVirtualSyncs> g_syncs;

struct NodeSet {
    u64 mask = 0;
    u32 first = 0;  // nodes[0]
    i32 own = -1;   // an own node among nodes[1..], or -1
};

// Reads and checks a user node list: 2..64 distinct nodes that exist.
i64 read_nodes(kernel::UserAddr address, u64 count, NodeSet* set) {
    u32 nodes[board::kMaxNodes];
    if (count < 2 || count > board::kBoard.node_count) return -NVX_EINVAL;
    if (!kernel::g_space.copy_from_user(nodes, address, count * sizeof(u32))) return -NVX_EFAULT;
    for (u64 i = 0; i < count; i++) {
        if (nodes[i] >= board::kBoard.node_count || (set->mask & (1ull << nodes[i]))) return -NVX_EINVAL;
        set->mask |= 1ull << nodes[i];
        if (i > 0 && set->own < 0 && own_index(nodes[i]) >= 0) set->own = static_cast<i32>(nodes[i]);
    }
    set->first = nodes[0];
    return 0;
}

// Own node, register < kSyncsPerNode: a refusal is a kernel bug.
void arm(Endpoint& in) {
    sbi::Result r = noc::sync_arm(in.node, in.port, in.sync_nodes);
    if (r.error != sbi::kSuccess) kernel::panic("sync register refused by the NoC engine (%ld)", r.error);
}
}  // namespace

namespace {
// The endpoint's own node and its peers. The side that is "the one" (nodes[0]) waits in
// ALL_TO_ONE and signals in ONE_TO_ALL; the other side is one of nodes[1..].
i64 make_sync(u64 port, kernel::UserAddr nodes, u64 count, u64 type, Direction direction) {
    NodeSet set;
    if (port >= NVX_SYNC_PORTS || type > NVX_SYNC_ONE_TO_ALL) return -NVX_EINVAL;
    i64 err = read_nodes(nodes, count, &set);
    if (err != 0) return err;
    bool waiting = direction == Direction::Input;
    bool the_one = (type == NVX_SYNC_ALL_TO_ONE) == waiting;
    if (the_one ? own_index(set.first) < 0 : set.own < 0) return -NVX_EINVAL;
    u32 node = the_one ? set.first : static_cast<u32>(set.own);
    u64 peers = the_one ? set.mask & ~(1ull << set.first) : 1ull << set.first;
    if (waiting && g_syncs.find_input(node, static_cast<u32>(port)) != nullptr) return -NVX_EADDRINUSE;
    i64 id = g_syncs.allocate(direction, node, static_cast<u32>(port));
    if (id < 0) return id;
    g_syncs.at(static_cast<u32>(id)).sync_nodes = peers;  // expected senders, or targets
    return id;
}
}  // namespace

i64 sync_create(u64 port, kernel::UserAddr nodes, u64 count, u64 type) {
    return make_sync(port, nodes, count, type, Direction::Input);
}

i64 sync_open(u64 port, kernel::UserAddr nodes, u64 count, u64 type) {
    return make_sync(port, nodes, count, type, Direction::Output);
}

namespace {
// `op` waits for sync `id` (input `in`) to fire; the register is armed for the first waiter.
CallResult start_wait(IkcOp* op, u64 id, Endpoint& in) {
    op->begin(static_cast<u32>(id), kernel::UserAddr{}, 0);
    bool first = in.waiters.empty();
    CallResult outcome = sleep_on(in.waiters, op, in);
    if (first) arm(in);
    return outcome;
}
}  // namespace

CallResult sync_wait(Thread* t, u64 id) {
    Endpoint* in = g_syncs.lookup(id, Direction::Input);
    if (in == nullptr) return resume_with(-NVX_EBADF);
    return start_wait(sync_op(t, OpKind::SyncWait), id, *in);
}

CallResult sync_await(Thread* t, u64 id, kernel::UserAddr record) {
    Endpoint* in = g_syncs.lookup(id, Direction::Input);
    if (in == nullptr) return resume_with(-NVX_EBADF);
    IkcOp* op;
    if (i64 error = async_op(t, OpKind::SyncWait, record, &op)) return resume_with(error);
    return start_wait(op, id, *in);
}

i64 sync_signal(u64 id) {
    Endpoint* out = g_syncs.lookup(id, Direction::Output);
    if (out == nullptr) return -NVX_EBADF;
    for (u32 node = 0; node < board::kBoard.node_count; node++) {
        if (!(out->sync_nodes & (1ull << node))) continue;
        if (noc::sync_signal(out->node, node, out->port).error != sbi::kSuccess) return -NVX_EINVAL;
        out->stats.hw_transfers++;
        out->stats.modeled_cycles += board::kBoard.transfer_cycles(out->node, node, 8);
    }
    out->stats.messages++;
    return 0;
}

i64 sync_close(u64 id) { return release_endpoint(g_syncs, id, Direction::Output); }

i64 sync_unlink(u64 id) { return release_endpoint(g_syncs, id, Direction::Input); }

bool sync_poll() {
    bool moved = false;
    for (u32 i = 0; i < own_node_count(); i++) {
        OwnNode& own = own_node(i);
        u64 fired = atomic::exchange_acq_rel(&own.events->sync_fired, u64{0});
        for (u32 port = 0; fired != 0; port++, fired >>= 1) {
            if (!(fired & 1)) continue;
            Endpoint* in = g_syncs.find_input(own.node, port);
            if (in == nullptr || in->waiters.empty()) continue;
            EventService service(own.events->sync_stamp[port]);  // from the time it fired
            IkcOp* op = in->waiters.pop();
            in->stats.messages++;
            wake(op, *in, 0);
            if (!in->waiters.empty()) arm(*in);
            moved = true;
        }
    }
    return moved;
}

void sync_reset() { g_syncs.clear(); }
bool sync_describe_wait(const IkcOp* op, char* out, u64 size) {
    const Endpoint* e = op->waiting_on;
    return e != nullptr && g_syncs.owns(e) && describe_endpoint_wait(*e, "sync", out, size);
}
}  // namespace nvx::ikc
