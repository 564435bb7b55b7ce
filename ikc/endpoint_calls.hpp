// The kernel calls every kind of virtual endpoint shares: create an input on one of this
// cluster's nodes, open an output towards any node, close, unlink, read statistics.
#pragma once
#include "hal/riscv/sv39.hpp"
#include "ikc/endpoint_table.hpp"
#include "ikc/own_nodes.hpp"
#include "kernel/mm/address_space.hpp"

namespace nvx::ikc {
template <u32 N>
i64 create_input(EndpointTable<N>& table, u64 node, u64 port) {
    if (node >= board::kBoard.node_count || own_index(static_cast<u32>(node)) < 0 || port >= kPorts) return -NVX_EINVAL;
    if (table.find_input(static_cast<u32>(node), static_cast<u32>(port)) != nullptr) return -NVX_EADDRINUSE;
    return table.allocate(Direction::Input, static_cast<u32>(node), static_cast<u32>(port));
}

template <u32 N>
i64 open_output(EndpointTable<N>& table, u64 node, u64 port) {
    if (node >= board::kBoard.node_count || port >= kPorts) return -NVX_EINVAL;
    i64 id = table.allocate(Direction::Output, source_node_for(static_cast<u32>(node)), 0);
    if (id < 0) return id;
    Endpoint& e = table.at(static_cast<u32>(id));
    e.remote_node = static_cast<u32>(node);
    e.remote_port = static_cast<u32>(port);
    return id;
}

template <u32 N>
i64 release_endpoint(EndpointTable<N>& table, u64 id, Direction direction) {
    Endpoint* e = table.lookup(id, direction);
    return e == nullptr ? -NVX_EBADF : table.release(e);
}

template <u32 N>
i64 copy_stats(EndpointTable<N>& table, u64 id, kernel::UserAddr address) {
    Endpoint* e = table.lookup_any(id);
    if (e == nullptr) return -NVX_EBADF;
    return kernel::g_space.copy_to_user(address, &e->stats, sizeof e->stats) ? 0 : -NVX_EFAULT;
}
}  // namespace nvx::ikc
