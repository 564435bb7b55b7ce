// Rank-private copies of a program's private region (nvx_abi.h: Sv39 slot 1), as
// operations on page tables over an abstract physical memory (pure logic, host-tested).
// A copy is a root table of its own: every entry the same as the program's root (the
// same lower-level tables, so later mappings below them are seen at once), except the
// private slot, which points to the copy's own tables and pages. Each copy's slot-1
// table is also linked, in every root, at the copy's shared slot: any thread reaches
// any copy there without a kernel call.
#pragma once
#include "hal/riscv/sv39.hpp"
#include "kernel/abi/nvx_abi.h"
#include "support/mem.hpp"

namespace nvx::kernel::private_copies {
namespace sv39 = riscv::sv39;

inline constexpr u64 kSlotSize = 1ull << 30;
inline constexpr u64 kPrivateSlot = NVX_USER_PRIVATE_BASE / kSlotSize;
inline constexpr u64 kFirstSharedSlot = NVX_USER_PRIVATE_SHARED / kSlotSize;
inline constexpr u32 kCopies = NVX_USER_PRIVATE_COPIES;
inline constexpr u64 kUserSlots = sv39::kEntriesPerTable / 2;
static_assert(NVX_USER_PRIVATE_BASE % kSlotSize == 0 && NVX_USER_PRIVATE_MAX == kSlotSize, "one whole slot");
static_assert(kFirstSharedSlot > kPrivateSlot && kFirstSharedSlot + kCopies <= kUserSlots, "shared slots fit");
static_assert(NVX_PAGE_SIZE == sv39::kPageSize && NVX_USER_PRIVATE_LEAF_SPAN == sv39::kPageSize * sv39::kEntriesPerTable &&
                  NVX_USER_PRIVATE_COPY_TABLES == 2,
              "the ABI states what a copy costs: a root, the private slot's table, its leaf tables");

constexpr bool in_private_region(u64 va) { return va - NVX_USER_PRIVATE_BASE < NVX_USER_PRIVATE_MAX; }
constexpr u64 shared_base(u32 copy) { return NVX_USER_PRIVATE_SHARED + u64{copy} * kSlotSize; }
// Where every thread reaches the byte that a thread of copy `copy` sees at va.
constexpr u64 to_shared(u32 copy, u64 va) {
    return in_private_region(va) ? shared_base(copy) + (va - NVX_USER_PRIVATE_BASE) : va;
}

// Memory: table(phys) -> Pte* of a page, allocate() -> a zeroed page or 0, release(phys).
template <typename Memory>
class Builder {
public:
    explicit Builder(Memory& memory) : memory_(memory) {}

    // A new copy of the private region mapped in `program_root` (its pages in [base,
    // base + bytes)): its root, or 0 with nothing left allocated. *pages counts the data
    // pages it took (its tables apart).
    u64 make_copy(u64 program_root, u64 bytes, u64* pages) {
        u64 root = memory_.allocate();
        if (root == 0) return 0;
        sv39::Pte* entries = memory_.table(root);
        const sv39::Pte* program = memory_.table(program_root);
        for (u64 i = 0; i < sv39::kEntriesPerTable; i++) entries[i] = i == kPrivateSlot ? 0 : program[i];
        sv39::PageTable<Memory> from(memory_, program_root), to(memory_, root);
        *pages = 0;
        for (u64 va = NVX_USER_PRIVATE_BASE; va < NVX_USER_PRIVATE_BASE + bytes; va += sv39::kPageSize) {
            sv39::Pte source = from.lookup(va);
            if (!(source & sv39::kValid)) continue;
            u64 page = memory_.allocate();
            if (page == 0 || !to.map(va, page, source & (sv39::kLeafBits | sv39::kUser))) {
                if (page != 0) memory_.release(page);
                drop_copy(root);
                return 0;
            }
            memcpy(memory_.table(page), memory_.table(sv39::pte_phys(source)), sv39::kPageSize);
            ++*pages;
        }
        return root;
    }

    // The copy's slot-1 table, to be linked at its shared slot.
    sv39::Pte private_entry(u64 root) const { return memory_.table(root)[kPrivateSlot]; }

    // Gives `root`'s user slots the program root's entries, the private slot apart.
    void sync(u64 program_root, u64 root) {
        sv39::Pte* entries = memory_.table(root);
        const sv39::Pte* program = memory_.table(program_root);
        for (u64 i = 0; i < kUserSlots; i++)
            if (i != kPrivateSlot) entries[i] = program[i];
    }

    // Frees a copy that no shared slot links: its pages, its tables, its root.
    void drop_copy(u64 root) {
        sv39::Pte* entries = memory_.table(root);
        if (entries[kPrivateSlot] & sv39::kValid) free_tree(sv39::pte_phys(entries[kPrivateSlot]), 1);
        memory_.release(root);
    }

private:
    void free_tree(u64 table, u64 level) {
        sv39::Pte* entries = memory_.table(table);
        for (u64 i = 0; i < sv39::kEntriesPerTable; i++) {
            if (!(entries[i] & sv39::kValid)) continue;
            if (level == 0 || sv39::is_leaf(entries[i])) memory_.release(sv39::pte_phys(entries[i]));
            else free_tree(sv39::pte_phys(entries[i]), level - 1);
        }
        memory_.release(table);
    }

    Memory& memory_;
};
}  // namespace nvx::kernel::private_copies
