#include "kernel/mm/page_allocator.hpp"

namespace nvx::kernel {
void PageAllocator::init(u64 base, u64 size) {
    u64 start = align_up(base, kPageSize);
    u64 end = align_down(base + size, kPageSize);
    base_ = start;
    total_ = end > start ? (end - start) / kPageSize : 0;
    if (total_ > kMaxPages) total_ = kMaxPages;
    used_map_ = Bitmap(words_, total_);
    used_ = 0;
    hint_ = 0;
}

u64 PageAllocator::allocate() {
    u64 index = used_map_.find_clear(hint_);
    if (index == total_) index = used_map_.find_clear(0);
    if (index == total_) return 0;
    used_map_.set(index);
    used_++;
    hint_ = index + 1;
    return base_ + index * kPageSize;
}

u64 PageAllocator::allocate_run(u64 pages) {
    if (pages == 0) return 0;
    for (u64 start = used_map_.find_clear(0); pages <= total_ - start; start = used_map_.find_clear(start + 1)) {
        u64 n = 0;
        while (n < pages && !used_map_.test(start + n)) n++;
        if (n < pages) continue;
        for (u64 i = 0; i < pages; i++) used_map_.set(start + i);
        used_ += pages;
        return base_ + start * kPageSize;
    }
    return 0;
}

bool PageAllocator::release(u64 phys) {
    if (phys < base_ || (phys - base_) % kPageSize != 0) return false;
    u64 index = (phys - base_) / kPageSize;
    if (index >= total_ || !used_map_.test(index)) return false;
    used_map_.clear(index);
    used_--;
    if (index < hint_) hint_ = index;
    return true;
}
}  // namespace nvx::kernel
