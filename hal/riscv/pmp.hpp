// PMP entry encoding (pure logic, host-tested). The firmware turns a plan into CSR writes.
#pragma once
#include "support/types.hpp"

namespace nvx::riscv::pmp {
inline constexpr u8 kRead = 1 << 0;
inline constexpr u8 kWrite = 1 << 1;
inline constexpr u8 kExec = 1 << 2;
inline constexpr u8 kModeOff = 0 << 3;
inline constexpr u8 kModeTor = 1 << 3;
inline constexpr u8 kModeNapot = 3 << 3;
inline constexpr u8 kLock = 1 << 7;
inline constexpr u32 kEntries = 16;

struct Entry {
    u64 addr;  // pmpaddr value (physical address >> 2)
    u8 cfg;
};

// A whole PMP configuration for one hart. Unused entries stay OFF, which denies S/U
// access to every address no entry covers.
struct Plan {
    Entry entries[kEntries];
    u32 used = 0;

    // Grants [base, base+size) with `perms` as a TOR pair; false if the plan is full or
    // the range is not 4-byte aligned.
    constexpr bool grant(u64 base, u64 size, u8 perms) {
        if (used + 2 > kEntries || (base & 3) != 0 || (size & 3) != 0 || size == 0) return false;
        entries[used++] = {base >> 2, kModeOff};
        entries[used++] = {(base + size) >> 2, static_cast<u8>(kModeTor | perms)};
        return true;
    }

    // The permission the plan gives an S/U access of one byte at `addr` (first match wins).
    constexpr u8 permissions_at(u64 addr) const {
        u64 previous = 0;
        for (u32 i = 0; i < used; i++) {
            u64 top = entries[i].addr << 2;
            if ((entries[i].cfg & (3 << 3)) == kModeTor && addr >= previous && addr < top)
                return entries[i].cfg & (kRead | kWrite | kExec);
            previous = top;
        }
        return 0;
    }

    // pmpcfg0 / pmpcfg2 register values (RV64 packs 8 entries per even cfg register).
    constexpr u64 cfg_register(u32 index) const {
        u64 value = 0;
        for (u32 i = 0; i < 8; i++) {
            u32 e = index * 8 + i;
            if (e < used) value |= static_cast<u64>(entries[e].cfg) << (8 * i);
        }
        return value;
    }
};
}  // namespace nvx::riscv::pmp
