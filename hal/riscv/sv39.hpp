// Sv39 page tables (pure logic over an abstract physical memory, so host tests can run it).
#pragma once
#include "support/types.hpp"

namespace nvx::riscv::sv39 {
inline constexpr u64 kPageSize = 4096;
inline constexpr u64 kLevels = 3;
inline constexpr u64 kEntriesPerTable = 512;
inline constexpr u64 kSatpModeSv39 = 8ull << 60;

inline constexpr u64 kValid = 1 << 0;
inline constexpr u64 kRead = 1 << 1;
inline constexpr u64 kWrite = 1 << 2;
inline constexpr u64 kExec = 1 << 3;
inline constexpr u64 kUser = 1 << 4;
inline constexpr u64 kGlobal = 1 << 5;
inline constexpr u64 kAccessed = 1 << 6;
inline constexpr u64 kDirty = 1 << 7;
inline constexpr u64 kLeafBits = kRead | kWrite | kExec;

using Pte = u64;

constexpr u64 vpn(u64 va, u64 level) { return (va >> (12 + 9 * level)) & 0x1ff; }
constexpr Pte make_pte(u64 phys, u64 flags) { return ((phys >> 12) << 10) | flags; }
constexpr u64 pte_phys(Pte pte) { return (pte >> 10) << 12; }
constexpr bool is_leaf(Pte pte) { return (pte & kLeafBits) != 0; }
constexpr u64 make_satp(u64 root_phys) { return kSatpModeSv39 | (root_phys >> 12); }

// Sv39 virtual addresses must be sign-extended from bit 38.
constexpr bool is_canonical(u64 va) {
    u64 top = va >> 38;
    return top == 0 || top == (1ull << 26) - 1;
}

// Memory is what the table lives in: `table(phys)` gives a pointer to 512 PTEs,
// `allocate()` returns a zeroed page's physical address or 0.
template <typename Memory>
class PageTable {
public:
    PageTable(Memory& memory, u64 root_phys) : memory_(memory), root_(root_phys) {}

    u64 root() const { return root_; }

    // Maps one 4 KiB page. Fails (false) on a misaligned address, an existing mapping or
    // when no page is left for an intermediate table.
    bool map(u64 va, u64 phys, u64 flags) {
        if ((va | phys) % kPageSize != 0 || !is_canonical(va) || (flags & kLeafBits) == 0) return false;
        if ((flags & kWrite) && !(flags & kRead)) return false;  // reserved encoding: W needs R
        Pte* pte = walk(va, true);
        if (pte == nullptr || (*pte & kValid)) return false;
        *pte = make_pte(phys, flags | kValid | kAccessed | kDirty);
        return true;
    }

    // Removes a 4 KiB mapping; returns the physical page it mapped, or 0.
    u64 unmap(u64 va) {
        Pte* pte = walk(va, false);
        if (pte == nullptr || !(*pte & kValid)) return 0;
        u64 phys = pte_phys(*pte);
        *pte = 0;
        return phys;
    }

    // The leaf PTE of `va` (4 KiB mappings only), or 0 when unmapped.
    Pte lookup(u64 va) const {
        Pte* pte = const_cast<PageTable*>(this)->walk(va, false);
        return pte == nullptr ? 0 : *pte;
    }

    // The last-level table covering `va` (its 2 MiB region), or nullptr if there is none.
    const Pte* leaf_table(u64 va) const {
        if (!is_canonical(va)) return nullptr;
        u64 table = root_;
        for (u64 level = kLevels - 1; level > 0; level--) {
            Pte entry = memory_.table(table)[vpn(va, level)];
            if (!(entry & kValid) || is_leaf(entry)) return nullptr;
            table = pte_phys(entry);
        }
        return memory_.table(table);
    }

    // Physical address `va` maps to if the leaf grants all of `required` flags, else 0.
    u64 translate(u64 va, u64 required) const {
        Pte pte = lookup(va);
        if (!(pte & kValid) || (pte & required) != required) return 0;
        return pte_phys(pte) + va % kPageSize;
    }

private:
    Pte* walk(u64 va, bool create) {
        if (!is_canonical(va)) return nullptr;
        u64 table = root_;
        for (u64 level = kLevels - 1; level > 0; level--) {
            Pte* entry = &memory_.table(table)[vpn(va, level)];
            if (*entry & kValid) {
                if (is_leaf(*entry)) return nullptr;  // huge page: not managed here
                table = pte_phys(*entry);
                continue;
            }
            if (!create) return nullptr;
            u64 fresh = memory_.allocate();
            if (fresh == 0) return nullptr;
            *entry = make_pte(fresh, kValid);
            table = fresh;
        }
        return &memory_.table(table)[vpn(va, 0)];
    }

    Memory& memory_;
    u64 root_;
};
}  // namespace nvx::riscv::sv39
