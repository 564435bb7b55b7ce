// What the firmware tells a cluster's kernel at boot. It lives in the last page of the
// cluster's own memory, so the kernel reads it without any access outside its cluster.
#pragma once
#include "hal/board/board.hpp"

namespace nvx::board {
inline constexpr u64 kBootInfoMagic = 0x4e56584f4f54ull;  // "NVXBOOT"-ish tag
// Boot arguments (QEMU -append): at most this many bytes with the NUL, and words after
// `--` (the system program's argv). Also the limits of an exec'd program's strings.
inline constexpr u64 kBootArgsMax = 512;
inline constexpr u32 kBootArgsMaxWords = 32;

struct BootInfo {
    u64 magic;
    u64 cluster;
    u64 mem_base;
    u64 mem_size;
    u64 program_base;  // read-only program region shared by all clusters
    u64 program_size;
    u64 kernel_image_size;  // bytes the firmware copied to mem_base
    char bootargs[kBootArgsMax];
};

// Offsets the kernel's boot assembly reads before C++ runs.
inline constexpr u64 kBootInfoMemSizeOffset = 24;
static_assert(__builtin_offsetof(BootInfo, mem_size) == kBootInfoMemSizeOffset);

constexpr u64 boot_info_address(const Cluster& c) { return c.mem_end() - kPageSize; }
}  // namespace nvx::board
