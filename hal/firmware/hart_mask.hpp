// SBI hart masks (hart_mask, hart_mask_base) against a cluster's harts, in constant time:
// an IPI costs the same on a 288-hart board as on an 8-hart one.
#pragma once
#include "hal/board/board.hpp"
#include "support/bits.hpp"

namespace nvx::firmware {
// Bits of a hart mask based at `base` that name harts of `c`.
constexpr u64 cluster_bits(const board::Cluster& c, u64 base) {
    u64 first = c.first_hart, end = u64{c.first_hart} + c.harts;
    if (base >= end || first >= base + 64) return 0;  // base < end <= 2^32: no overflow
    u64 lo = first > base ? first - base : 0;
    u64 hi = end - base < 64 ? end - base : 64;
    u64 below_hi = hi == 64 ? ~0ull : (1ull << hi) - 1;
    return below_hi & ~((1ull << lo) - 1);
}

// Calls `f(hart)` for every hart named by the mask, lowest first.
template <typename F>
constexpr void for_each_hart(u64 mask, u64 base, F f) {
    for (; mask != 0; mask &= mask - 1) f(base + lowest_set_bit(mask));
}
}  // namespace nvx::firmware
