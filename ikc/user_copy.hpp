// Page-by-page views of a user buffer: hardware transfers and local copies both need
// physically contiguous pieces, and user pages are not contiguous.
#pragma once
#include "hal/riscv/sv39.hpp"
#include "kernel/layout.hpp"
#include "kernel/mm/address_space.hpp"

namespace nvx::ikc {
// Bytes from `va` to the end of its page, at most `limit`.
inline u64 page_span(u64 va, u64 limit) {
    u64 span = riscv::sv39::kPageSize - va % riscv::sv39::kPageSize;
    return span < limit ? span : limit;
}

// Physical address of user `va` if mapped with `required`, else 0.
inline u64 user_phys(u64 va, u64 required) {
    void* p = kernel::g_space.user_pointer(va, 1, required);
    return p == nullptr ? 0 : kernel::g_layout.virt_to_phys(reinterpret_cast<u64>(p));
}
}  // namespace nvx::ikc
