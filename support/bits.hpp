// Bit scans without the Zbb extension or libgcc (whose helpers are built for another float
// ABI): a de Bruijn multiply and a 64-entry table, a handful of instructions per call.
#pragma once
#include "support/types.hpp"

namespace nvx {
namespace bits_detail {
inline constexpr u64 kDeBruijn = 0x03f79d71b4cb0a89ull;

struct LowBitTable {
    u8 index[64];
    constexpr LowBitTable() : index{} {
        for (u32 bit = 0; bit < 64; bit++) index[((1ull << bit) * kDeBruijn) >> 58] = static_cast<u8>(bit);
    }
};
inline constexpr LowBitTable kLowBit{};
}  // namespace bits_detail

// Index of the lowest set bit of `x`, which must not be 0.
constexpr u32 lowest_set_bit(u64 x) {
    return bits_detail::kLowBit.index[((x & (~x + 1)) * bits_detail::kDeBruijn) >> 58];
}
}  // namespace nvx
