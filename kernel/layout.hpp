// Where this kernel instance lives: its cluster and the direct map of its memory.
#pragma once
#include "hal/board/boot_info.hpp"
#include "kernel/config.hpp"

namespace nvx::kernel {
struct ClusterLayout {
    u32 index;
    const board::Cluster* cluster;
    u64 mem_base;
    u64 mem_size;

    u64 phys_to_virt(u64 phys) const { return kKernelVirtualBase + (phys - mem_base); }
    u64 virt_to_phys(u64 virt) const { return mem_base + (virt - kKernelVirtualBase); }
    bool owns_phys(u64 phys, u64 len) const { return range_contains(mem_base, mem_size, phys, len); }
    bool is_compute() const { return cluster->kind == board::ClusterKind::Compute; }
};

extern ClusterLayout g_layout;

// Symbols from kernel.ld.
extern "C" char _kernel_start[], _text_end[], _rodata_end[], _image_end[], _kernel_end[];
}  // namespace nvx::kernel
