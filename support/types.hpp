// Fixed-width integer types for freestanding code (firmware, kernel, host tests alike).
#pragma once
#include <stddef.h>
#include <stdint.h>

namespace nvx {
using uptr = uintptr_t;
using u8 = uint8_t;
using u16 = uint16_t;
using u32 = uint32_t;
using u64 = uint64_t;
using i32 = int32_t;
using i64 = int64_t;

inline constexpr u64 KiB = 1024;
inline constexpr u64 MiB = 1024 * KiB;

constexpr u64 align_up(u64 value, u64 alignment) { return (value + alignment - 1) & ~(alignment - 1); }
constexpr u64 align_down(u64 value, u64 alignment) { return value & ~(alignment - 1); }
constexpr bool is_aligned(u64 value, u64 alignment) { return (value & (alignment - 1)) == 0; }

// [base, base + size) contains [addr, addr + len) without overflow.
constexpr bool range_contains(u64 base, u64 size, u64 addr, u64 len) {
    return addr >= base && len <= size && addr - base <= size - len;
}
}  // namespace nvx
