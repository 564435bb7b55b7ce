// Virtual endpoints: the table shape shared by mailboxes, portals and syncs. An input
// endpoint receives on one of this cluster's nodes at a logical port; an output endpoint
// sends from this cluster to a remote (node, port).
#pragma once
#include "ikc/ikc_config.hpp"
#include "ikc/ikc_op.hpp"
#include "kernel/sched/thread.hpp"

namespace nvx::ikc {
enum class Direction : u8 { Input, Output };

struct Endpoint {
    bool used;
    Direction direction;
    u32 node;         // input: the own node it listens on; output: the own node it sends from
    u32 port;         // input: its logical port
    u32 remote_node;  // output: target node; portal input: the allowed sender
    u32 remote_port;  // output: target port
    bool allowed;     // portal input: a sender is allowed for the next read
    u32 pending;      // operations waiting on this endpoint
    u64 sync_nodes;   // sync: expected senders (input) or targets (output)
    nvx_ikc_stats stats;
    OpQueue waiters;  // reads (input) in arrival order
};

template <u32 Capacity>
class EndpointTable {
public:
    // A fresh endpoint's id, or -ENOSPC when the table is full.
    i64 allocate(Direction direction, u32 node, u32 port) {
        for (u32 id = 0; id < Capacity; id++) {
            if (slots_[id].used) continue;
            slots_[id] = Endpoint{};
            slots_[id].used = true;
            slots_[id].direction = direction;
            slots_[id].node = node;
            slots_[id].port = port;
            if (direction == Direction::Input && node < board::kMaxNodes && port < kPorts && inputs_[node][port] == 0)
                inputs_[node][port] = static_cast<u8>(id + 1);
            return id;
        }
        return -NVX_ENOSPC;
    }

    // The endpoint `id` if it exists and goes in `direction`; nullptr otherwise (-EBADF).
    Endpoint* lookup(u64 id, Direction direction) {
        if (id >= Capacity || !slots_[id].used || slots_[id].direction != direction) return nullptr;
        return &slots_[id];
    }
    Endpoint* lookup_any(u64 id) { return id < Capacity && slots_[id].used ? &slots_[id] : nullptr; }

    // The input endpoint listening on (node, port), or nullptr.
    Endpoint* find_input(u32 node, u32 port) {
        if (node >= board::kMaxNodes || port >= kPorts || inputs_[node][port] == 0) return nullptr;
        return &slots_[inputs_[node][port] - 1];
    }

    bool owns(const Endpoint* e) const { return e >= slots_ && e < slots_ + Capacity; }
    u32 id_of(const Endpoint* e) const { return static_cast<u32>(e - slots_); }
    Endpoint& at(u32 id) { return slots_[id]; }

    // Every endpoint goes (the program ended). In place: the table is too large for a
    // temporary on the kernel stack.
    void clear() {
        for (Endpoint& e : slots_) e = Endpoint{};
        for (auto& ports : inputs_)
            for (u8& id : ports) id = 0;
    }

    // Frees `id` unless operations still wait on it (-EBUSY).
    i64 release(Endpoint* e) {
        if (e->pending != 0 || !e->waiters.empty()) return -NVX_EBUSY;
        e->used = false;
        if (e->direction == Direction::Input && e->node < board::kMaxNodes && e->port < kPorts &&
            inputs_[e->node][e->port] == id_of(e) + 1)
            inputs_[e->node][e->port] = 0;
        return 0;
    }

private:
    static_assert(Capacity < 256, "input ids plus one fit a byte");
    Endpoint slots_[Capacity];
    // The input endpoint on (node, port), plus one; 0 = none. Found in one step: every
    // arrived message asks for it.
    u8 inputs_[board::kMaxNodes][kPorts] = {};
};
}  // namespace nvx::ikc
