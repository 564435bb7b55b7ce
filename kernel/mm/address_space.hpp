// The cluster's one address space: the kernel high (shared by every hart) and the
// program's user mappings low. Also the only way the kernel touches user memory: every
// access is checked against the page table (valid, user, and the needed permission).
#pragma once
#include "hal/riscv/sv39.hpp"
#include "kernel/abi/nvx_abi.h"
#include "kernel/config.hpp"
#include "kernel/mm/page_allocator.hpp"
#include "kernel/mm/user_addr.hpp"

namespace nvx::kernel {
extern PageAllocator g_pages;

// sv39::PageTable's view of physical memory: tables are reached through the direct map.
struct DirectMapMemory {
    riscv::sv39::Pte* table(u64 phys);
    u64 allocate();  // a zeroed page, or 0
    void release(u64 phys);
};

class AddressSpace {
public:
    // Builds the kernel's final mappings; false if pages run out.
    bool init();
    u64 satp() const { return riscv::sv39::make_satp(root_); }
    u64 root() const { return root_; }

    // Allocates zeroed pages for [va, va + len) and maps them with `flags` (plus U);
    // on failure nothing stays mapped.
    bool map_user_range(u64 va, u64 len, u64 flags);

    // Kernel pointer to user memory at va..va+len if it lies in one page and all of
    // `required` (sv39 flags, U implied) are granted; nullptr otherwise.
    [[nodiscard]] void* user_pointer(UserAddr va, u64 len, u64 required) const;
    [[nodiscard]] bool user_range_ok(UserAddr va, u64 len, u64 required) const;
    // The longest physically contiguous piece at the start of [va, va + len) mapped with
    // `required`: its length (0: va is not mapped so) and, in *kernel, where the kernel
    // reaches it. Long copies go piece by piece, one table lookup per page.
    [[nodiscard]] u64 user_run(UserAddr va, u64 len, u64 required, u8** kernel) const;
    [[nodiscard]] bool copy_from_user(void* dst, UserAddr va, u64 len) const;
    [[nodiscard]] bool copy_to_user(UserAddr va, const void* src, u64 len) const;
    [[nodiscard]] bool is_user_mapped(UserAddr va, u64 required) const;

    // Program break (heap) management.
    void set_heap_start(u64 va) { heap_start_ = brk_ = mapped_end_ = va; }
    u64 brk() const { return brk_; }
    i64 set_brk(u64 new_brk);  // new break or -ENOMEM
    u64 user_pages() const { return user_pages_; }

    // A new thread stack of `size` bytes (page multiple) below the previous one, with an
    // unmapped guard page beneath it; returns its lowest address or -ENOMEM. Mappings are
    // never removed before the program ends, so its pages stay until reset_user().
    i64 map_thread_stack(u64 size);
    // Bytes of cluster memory for user space (free pages plus the program's), as one word
    // republished on the kernel core after each change: sys_info runs on the caller's
    // hart, where summing the two live counters could catch brk between taking a page and
    // counting it as the program's, and report a page less than every other caller.
    u64 user_memory() const { return __atomic_load_n(&user_memory_, __ATOMIC_ACQUIRE); }
    void publish_user_memory();  // also after the page allocator changed outside this class

    // Frees every user page and user page table; the next program starts from nothing.
    // Harts flush their TLB when they see the new epoch.
    void reset_user();
    u64 epoch() const { return __atomic_load_n(&epoch_, __ATOMIC_ACQUIRE); }

    // Maps [phys, phys + len) read-only for the user at `va` (pages not owned by the
    // page allocator, such as the launcher's image region); false on failure.
    bool map_user_physical(u64 va, u64 phys, u64 len);

    // Rank-private copies (private_copies.hpp). The loaded program's private region is
    // [NVX_USER_PRIVATE_BASE, + bytes), its copy 0: linked at its shared slot.
    void set_private_region(u64 bytes);
    u64 private_bytes() const { return private_bytes_; }
    // A new copy of copy 0: its index, or -ENOMEM (no memory, or every copy taken).
    // Copies live until the program ends.
    i64 make_private_copy();
    // The satp of a thread that sees copy `copy`.
    u64 satp_of(u32 copy) const { return copy == 0 ? satp() : riscv::sv39::make_satp(copy_roots_[copy]); }

private:
    // After a mapping created top-level entries: every copy's root gets them too.
    void share_new_slots(u64 va, u64 len, bool had_slots);
    bool has_slots(u64 va, u64 len) const;

    // Kernel address of user page `page` if mapped with `required`, else 0 (leaf-table cache).
    u64 page_in_kernel(u64 page, u64 required) const;

    // Recent translations per hart (user page -> kernel address, and the permissions
    // checked so far), so a user copy walks the page table once per page, not once per
    // call, whatever access it asks next. Valid within one epoch: user mappings are only
    // ever removed by an epoch change.
    struct Translation {
        u64 page;   // user page number; 0 = empty (user pages start above 0)
        u64 epoch;
        u64 checked;  // the flags a walk found set (required ones, accumulated)
        u64 kernel_page;
    };
    static constexpr u32 kTranslationsPerHart = 8;
    mutable Translation translations_[kMaxHarts][kTranslationsPerHart] = {};
    // Per hart, the last-level table of the last 2 MiB region walked: the next page of a
    // long copy is one load away. Tables, too, only go away with an epoch change.
    struct LeafTable {
        u64 region;  // va >> 21
        u64 epoch;
        const riscv::sv39::Pte* table;  // nullptr = empty
    };
    mutable LeafTable leaf_tables_[kMaxHarts] = {};

    u64 root_ = 0;
    u64 heap_start_ = 0;
    u64 brk_ = 0;
    u64 mapped_end_ = 0;  // heap pages stay mapped up to here (the heap never unmaps)
    // Top of the next thread stack: one guard page below the main stack, then downwards.
    static constexpr u64 kFirstThreadStackTop = NVX_USER_STACK_TOP - NVX_USER_STACK_SIZE - riscv::sv39::kPageSize;
    u64 stack_floor_ = kFirstThreadStackTop;
    u64 user_pages_ = 0;
    u64 user_memory_ = 0;
    u64 epoch_ = 0;
    u64 private_bytes_ = 0;
    u32 copy_count_ = 1;  // copy 0 is the program's own
    u64 copy_roots_[NVX_USER_PRIVATE_COPIES] = {};
};

extern AddressSpace g_space;
}  // namespace nvx::kernel
