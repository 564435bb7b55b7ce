#include "ikc/own_nodes.hpp"

#include "kernel/layout.hpp"
#include "kernel/mm/address_space.hpp"
#include "hal/noc/noc_driver.hpp"
#include "ikc/ikc_clock.hpp"
#include "support/mem.hpp"

namespace nvx::ikc {
OwnNode g_own_nodes[kMaxOwnNodes];
u32 g_own_node_count;

bool attach_own_nodes() {
    const board::Cluster& c = *kernel::g_layout.cluster;
    constexpr u64 kPages = (sizeof(noc::EventArea) + 4095) / 4096;
    for (u32 i = 0; i < c.nodes; i++) {
        u64 phys = kernel::g_pages.allocate_run(kPages);
        if (phys == 0) return false;
        auto* area = reinterpret_cast<noc::EventArea*>(kernel::g_layout.phys_to_virt(phys));
        memset(area, 0, kPages * 4096);
        g_own_nodes[i] = {c.first_node + i, area};
        if (noc::attach(c.first_node + i, phys, engine_clock_offsets()).error != sbi::kSuccess) return false;
        g_own_node_count = i + 1;
    }
    return true;
}

i32 own_index(u32 node) {
    const board::Cluster& c = *kernel::g_layout.cluster;
    return c.owns_node(node) ? static_cast<i32>(node - c.first_node) : -1;
}

u32 source_node_for(u32 target) {
    const board::Cluster& c = *kernel::g_layout.cluster;
    return c.first_node + target % c.nodes;
}
}  // namespace nvx::ikc
