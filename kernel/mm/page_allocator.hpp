// Physical page allocator over one contiguous range of this cluster's memory.
// Pure logic (host-tested); the kernel core is its only user, so it takes no lock.
#pragma once
#include "hal/board/board.hpp"
#include "support/bitmap.hpp"

namespace nvx::kernel {
class PageAllocator {
public:
    static constexpr u64 kPageSize = board::kPageSize;
    static constexpr u64 kMaxPages = 8192;  // 32 MiB: the largest cluster memory we manage

    // Manages [base, base + size); both are rounded inwards to whole pages.
    void init(u64 base, u64 size);

    u64 allocate();            // physical address of a free page, or 0
    u64 allocate_run(u64 pages);  // first of `pages` physically contiguous free pages, or 0
    bool release(u64 phys);    // false for an address not allocated from here
    u64 free_pages() const { return total_ - used_; }
    u64 total_pages() const { return total_; }
    u64 base() const { return base_; }

private:
    u64 words_[Bitmap::words_for(kMaxPages)];
    Bitmap used_map_;
    u64 base_ = 0;
    u64 total_ = 0;
    u64 used_ = 0;
    u64 hint_ = 0;
};
}  // namespace nvx::kernel
