// The NoC nodes (interfaces) of this cluster and their event areas.
#pragma once
#include "hal/noc/noc_abi.hpp"
#include "ikc/ikc_config.hpp"

namespace nvx::ikc {
struct OwnNode {
    u32 node;
    noc::EventArea* events;
};

// Allocates and attaches one event area per own node; false if memory or the engine refuses.
bool attach_own_nodes();

extern OwnNode g_own_nodes[kMaxOwnNodes];
extern u32 g_own_node_count;
inline u32 own_node_count() { return g_own_node_count; }
inline OwnNode& own_node(u32 index) { return g_own_nodes[index]; }
// Index of `node` among this cluster's nodes, or -1.
i32 own_index(u32 node);
// The interface this cluster sends to `target` from (spreads peers over I/O interfaces).
u32 source_node_for(u32 target);
}  // namespace nvx::ikc
