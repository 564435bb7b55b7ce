// Kernel limits: one place for every size the kernel reserves.
#pragma once
#include "hal/board/boot_info.hpp"
#include "hal/board/current.hpp"
#include "hal/riscv/sv39.hpp"

namespace nvx::kernel {
inline constexpr u64 kKernelVirtualBase = 0xffffffffc0000000ull;  // cluster memory, direct map
inline constexpr u64 kProgramVirtualBase = 0xffffffff80000000ull; // read-only program region
inline constexpr u64 kKernelStackSize = 8 * KiB;
inline constexpr u32 kMaxThreads = 64;                              // per cluster
inline constexpr u32 kMaxHarts = board::kBoard.max_cluster_harts;
inline constexpr u64 kUserBase = 0x10000;                           // lowest user mapping
inline constexpr u64 kTickMicroseconds = 10'000;  // preemption quantum: board time, or the thread's virtual time
inline constexpr u64 kConsoleChunk = 256;                           // bytes per SBI console write
inline constexpr u32 kMaxArgs = board::kBootArgsMaxWords;           // argv entries of a program
inline constexpr u32 kHartReservations = 16;  // run intervals each user hart remembers (virtual clock)
inline constexpr u32 kCoreReservations = 32;  // service intervals the kernel core remembers (virtual clock)

static_assert(riscv::sv39::kPageSize == board::kPageSize, "one page size");

}  // namespace nvx::kernel
