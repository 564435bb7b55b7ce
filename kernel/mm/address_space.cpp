#include "kernel/mm/address_space.hpp"

#include "kernel/clock/clock.hpp"

#include "kernel/abi/nvx_abi.h"
#include "kernel/cpu.hpp"
#include "kernel/layout.hpp"
#include "kernel/mm/private_copies.hpp"
#include "support/mem.hpp"

namespace nvx::kernel {
namespace sv39 = riscv::sv39;
PageAllocator g_pages;
AddressSpace g_space;

namespace {
DirectMapMemory g_direct;
using KernelTable = sv39::PageTable<DirectMapMemory>;

bool map_range(KernelTable& table, u64 va, u64 phys, u64 len, u64 flags) {
    for (u64 off = 0; off < len; off += sv39::kPageSize)
        if (!table.map(va + off, phys + off, flags)) return false;
    return true;
}

// User addresses live strictly below the kernel's half and above the null guard.
bool user_address_ok(u64 va, u64 len) {
    constexpr u64 kUserTop = 1ull << 38;
    return va >= kUserBase && len <= kUserTop && va <= kUserTop - len;
}
}  // namespace

sv39::Pte* DirectMapMemory::table(u64 phys) { return reinterpret_cast<sv39::Pte*>(g_layout.phys_to_virt(phys)); }

u64 DirectMapMemory::allocate() {
    u64 phys = g_pages.allocate();
    if (phys != 0) memset(reinterpret_cast<void*>(g_layout.phys_to_virt(phys)), 0, sv39::kPageSize);
    // Harts walking the table concurrently must see the zeroes before the link to this page.
    __atomic_thread_fence(__ATOMIC_RELEASE);
    return phys;
}

void DirectMapMemory::release(u64 phys) { g_pages.release(phys); }

bool AddressSpace::init() {
    root_ = g_direct.allocate();
    if (root_ == 0) return false;
    KernelTable table(g_direct, root_);
    auto phys = [](const char* symbol) { return g_layout.virt_to_phys(reinterpret_cast<u64>(symbol)); };
    u64 text = reinterpret_cast<u64>(_kernel_start), rodata = reinterpret_cast<u64>(_text_end);
    u64 data = reinterpret_cast<u64>(_rodata_end);
    constexpr u64 kGlobal = sv39::kGlobal;
    bool ok = map_range(table, text, phys(_kernel_start), rodata - text, sv39::kRead | sv39::kExec | kGlobal) &&
              map_range(table, rodata, phys(_text_end), data - rodata, sv39::kRead | kGlobal);
    // Everything after rodata (data, bss, free pages, boot info) is plain read-write memory.
    u64 rest = phys(_rodata_end);
    ok = ok && map_range(table, data, rest, g_layout.mem_base + g_layout.mem_size - rest,
                         sv39::kRead | sv39::kWrite | kGlobal);
    ok = ok && map_range(table, kProgramVirtualBase, board::kProgramBase, board::kProgramSize, sv39::kRead | kGlobal);
    return ok;
}

bool AddressSpace::map_user_range(u64 va, u64 len, u64 flags) {
    if (!user_address_ok(va, len) || va % sv39::kPageSize != 0) return false;
    bool had_slots = has_slots(va, len);
    KernelTable table(g_direct, root_);
    u64 end = align_up(va + len, sv39::kPageSize);
    for (u64 page = va; page < end; page += sv39::kPageSize) {
        u64 phys = g_direct.allocate();
        if (phys == 0 || !table.map(page, phys, flags | sv39::kUser)) {
            if (phys != 0) g_pages.release(phys);
            for (u64 undo = va; undo < page; undo += sv39::kPageSize) {
                g_pages.release(table.unmap(undo));
                user_pages_--;
            }
            __atomic_fetch_add(&epoch_, 1, __ATOMIC_ACQ_REL);  // no hart keeps a translation of them
            asm volatile("sfence.vma" ::: "memory");
            publish_user_memory();
            return false;
        }
        user_pages_++;
    }
    share_new_slots(va, len, had_slots);
    publish_user_memory();
    return true;
}

bool AddressSpace::has_slots(u64 va, u64 len) const {
    const sv39::Pte* root = g_direct.table(root_);
    for (u64 slot = va >> 30; slot <= (va + len - 1) >> 30; slot++)
        if (!(root[slot] & sv39::kValid)) return false;
    return true;
}

void AddressSpace::share_new_slots(u64 va, u64 len, bool had_slots) {
    if (had_slots || copy_count_ == 1 || !has_slots(va, len)) return;
    private_copies::Builder<DirectMapMemory> copies(g_direct);
    for (u32 c = 1; c < copy_count_; c++) copies.sync(root_, copy_roots_[c]);
}

void AddressSpace::set_private_region(u64 bytes) {
    namespace pc = private_copies;
    sv39::Pte* root = g_direct.table(root_);
    root[pc::kFirstSharedSlot] = root[pc::kPrivateSlot];
    private_bytes_ = align_up(bytes, sv39::kPageSize);
}

i64 AddressSpace::make_private_copy() {
    namespace pc = private_copies;
    if (copy_count_ == pc::kCopies) return -NVX_ENOMEM;
    pc::Builder<DirectMapMemory> copies(g_direct);
    u64 pages = 0;
    u64 root = copies.make_copy(root_, private_bytes_, &pages);
    if (root == 0) {
        publish_user_memory();
        return -NVX_ENOMEM;
    }
    u32 copy = copy_count_++;
    copy_roots_[copy] = root;
    u64 slot = pc::kFirstSharedSlot + copy;
    sv39::Pte entry = copies.private_entry(root);
    g_direct.table(root_)[slot] = entry;
    for (u32 c = 1; c <= copy; c++) g_direct.table(copy_roots_[c])[slot] = entry;
    user_pages_ += pages;
    publish_user_memory();
    return copy;
}

void AddressSpace::publish_user_memory() {
    __atomic_store_n(&user_memory_, (g_pages.free_pages() + user_pages_) * sv39::kPageSize, __ATOMIC_RELEASE);
}

// Translating a user address stands in for the modeled core's MMU (it translates in
// hardware), and the cache it hits or misses was filled in host order: model code, and
// uncharged down to its callees outside the model section.
NVX_MODEL_CODE void* AddressSpace::user_pointer(UserAddr at, u64 len, u64 required) const {
    ClockUncharged uncharged;
    u64 va = at.value();
    if (!user_address_ok(va, len) || len == 0 || va / sv39::kPageSize != (va + len - 1) / sv39::kPageSize)
        return nullptr;
    u64 page = va / sv39::kPageSize, offset = va % sv39::kPageSize;
    u64 epoch = this->epoch();
    Translation& cached = translations_[this_cpu().local][page % kTranslationsPerHart];
    bool same = cached.page == page && cached.epoch == epoch;
    if (same && (cached.checked & required) == required) return reinterpret_cast<void*>(cached.kernel_page + offset);
    u64 kernel_page = page_in_kernel(va - offset, required);
    if (kernel_page == 0) return nullptr;  // the entry keeps what it knew
    cached = {page, epoch, (same ? cached.checked : 0) | required, kernel_page};
    return reinterpret_cast<void*>(kernel_page + offset);
}

NVX_MODEL_CODE u64 AddressSpace::page_in_kernel(u64 page, u64 required) const {
    ClockUncharged uncharged;  // as user_pointer
    LeafTable& leaf = leaf_tables_[this_cpu().local];
    u64 epoch = this->epoch();
    if (leaf.table == nullptr || leaf.region != page >> 21 || leaf.epoch != epoch) {
        const sv39::Pte* table = KernelTable(g_direct, root_).leaf_table(page);
        if (table == nullptr) return 0;
        leaf = {page >> 21, epoch, table};
    }
    sv39::Pte pte = leaf.table[page / sv39::kPageSize % sv39::kEntriesPerTable];
    u64 need = required | sv39::kUser | sv39::kValid;
    u64 phys = sv39::pte_phys(pte);
    if ((pte & need) != need || !g_layout.owns_phys(phys, sv39::kPageSize)) return 0;
    return g_layout.phys_to_virt(phys);
}

u64 AddressSpace::user_run(UserAddr at, u64 len, u64 required, u8** kernel) const {
    u64 va = at.value();
    if (len == 0 || !user_address_ok(va, len)) return 0;
    u64 offset = va % sv39::kPageSize;
    u64 first = page_in_kernel(va - offset, required);
    if (first == 0) return 0;
    *kernel = reinterpret_cast<u8*>(first + offset);
    // The next pages, region by region straight from the leaf table page_in_kernel left
    // in the cache: a load and two compares per page while they stay physically contiguous.
    const LeafTable& leaf = leaf_tables_[this_cpu().local];
    u64 need = required | sv39::kUser | sv39::kValid;
    u64 run = sv39::kPageSize - offset;
    u64 next_phys = g_layout.virt_to_phys(first) + sv39::kPageSize;
    while (run < len) {
        u64 page = va + run;  // page aligned
        if (page >> 21 != leaf.region &&  // a new 2 MiB region: the full lookup refreshes the cache
            page_in_kernel(page, required) != g_layout.phys_to_virt(next_phys))
            break;
        const sv39::Pte* table = leaf.table;
        u64 index = page / sv39::kPageSize % sv39::kEntriesPerTable;
        u64 pages = (len - run + sv39::kPageSize - 1) / sv39::kPageSize;
        u64 end = index + pages < sv39::kEntriesPerTable ? index + pages : sv39::kEntriesPerTable;
        u64 first_index = index;
        for (; index < end; index++, next_phys += sv39::kPageSize) {
            sv39::Pte pte = table[index];
            if ((pte & need) != need || sv39::pte_phys(pte) != next_phys) break;
        }
        run += (index - first_index) * sv39::kPageSize;
        if (index < end) break;
    }
    // The run is contiguous from a page of ours: only its end can leave our memory.
    u64 mem_end = g_layout.mem_base + g_layout.mem_size;
    if (next_phys > mem_end) run -= next_phys - mem_end;
    return run < len ? run : len;
}

bool AddressSpace::user_range_ok(UserAddr va, u64 len, u64 required) const {
    u8* ignored;
    for (u64 n; len != 0; va += n, len -= n)
        if ((n = user_run(va, len, required, &ignored)) == 0) return false;
    return true;
}

bool AddressSpace::is_user_mapped(UserAddr va, u64 required) const { return user_pointer(va, 1, required) != nullptr; }

bool AddressSpace::copy_from_user(void* dst, UserAddr va, u64 len) const {
    if (len != 0 && va.value() % sv39::kPageSize + len <= sv39::kPageSize) {  // one page: one translation
        const void* p = user_pointer(va, len, sv39::kRead);
        if (p != nullptr) memcpy(dst, p, len);
        return p != nullptr;
    }
    if (!user_range_ok(va, len, sv39::kRead)) return false;  // nothing copied from a bad range
    auto* out = static_cast<u8*>(dst);
    u8* from;
    for (u64 n; len != 0; out += n, va += n, len -= n) {
        n = user_run(va, len, sv39::kRead, &from);
        memcpy(out, from, n);
    }
    return true;
}

bool AddressSpace::copy_to_user(UserAddr va, const void* src, u64 len) const {
    if (len != 0 && va.value() % sv39::kPageSize + len <= sv39::kPageSize) {  // one page: one translation
        void* p = user_pointer(va, len, sv39::kWrite);
        if (p != nullptr) memcpy(p, src, len);
        return p != nullptr;
    }
    if (!user_range_ok(va, len, sv39::kWrite)) return false;  // nothing written to a bad range
    auto* in = static_cast<const u8*>(src);
    u8* to;
    for (u64 n; len != 0; in += n, va += n, len -= n) {
        n = user_run(va, len, sv39::kWrite, &to);
        memcpy(to, in, n);
    }
    return true;
}

i64 AddressSpace::set_brk(u64 new_brk) {
    if (new_brk == 0) return static_cast<i64>(brk_);
    if (new_brk < heap_start_ || new_brk > NVX_USER_PRIVATE_BASE) return -NVX_ENOMEM;
    u64 needed_end = align_up(new_brk, sv39::kPageSize);
    // Page by page, and what got mapped stays mapped (for later growth): other harts may
    // already use a new page, so taking it back would need a TLB shootdown.
    for (; mapped_end_ < needed_end; mapped_end_ += sv39::kPageSize)
        if (!map_user_range(mapped_end_, sv39::kPageSize, sv39::kRead | sv39::kWrite)) return -NVX_ENOMEM;
    brk_ = new_brk;
    return static_cast<i64>(brk_);
}

i64 AddressSpace::map_thread_stack(u64 size) {
    if (stack_floor_ - NVX_USER_THREAD_STACKS_BASE < size + sv39::kPageSize) return -NVX_ENOMEM;
    u64 base = stack_floor_ - size;
    if (!map_user_range(base, size, sv39::kRead | sv39::kWrite)) return -NVX_ENOMEM;
    stack_floor_ = base - sv39::kPageSize;  // the guard page stays unmapped
    return static_cast<i64>(base);
}

namespace {
// Frees a user page table and everything below it; pages not from the allocator (mapped
// physical regions) are only unmapped.
void free_table(u64 table) {
    sv39::Pte* entries = g_direct.table(table);
    for (u64 i = 0; i < sv39::kEntriesPerTable; i++) {
        sv39::Pte pte = entries[i];
        if (!(pte & sv39::kValid)) continue;
        if (sv39::is_leaf(pte)) g_pages.release(sv39::pte_phys(pte));
        else free_table(sv39::pte_phys(pte));
        entries[i] = 0;
    }
    g_pages.release(table);
}
}  // namespace

void AddressSpace::reset_user() {
    sv39::Pte* root = g_direct.table(root_);
    // A copy's tables go with the program root's shared slots; its own root table alone
    // is apart. Copy 0's shared slot repeats the private slot.
    for (u32 c = 1; c < copy_count_; c++) g_pages.release(copy_roots_[c]);
    copy_count_ = 1;
    private_bytes_ = 0;
    root[private_copies::kFirstSharedSlot] = 0;
    for (u64 i = 0; i < sv39::kEntriesPerTable / 2; i++) {  // the lower half is user space
        if (!(root[i] & sv39::kValid)) continue;
        free_table(sv39::pte_phys(root[i]));
        root[i] = 0;
    }
    heap_start_ = brk_ = mapped_end_ = 0;
    stack_floor_ = kFirstThreadStackTop;
    user_pages_ = 0;
    publish_user_memory();
    __atomic_fetch_add(&epoch_, 1, __ATOMIC_ACQ_REL);
    asm volatile("sfence.vma" ::: "memory");
}

bool AddressSpace::map_user_physical(u64 va, u64 phys, u64 len) {
    if (!user_address_ok(va, len) || va % sv39::kPageSize != 0 || phys % sv39::kPageSize != 0) return false;
    bool had_slots = has_slots(va, len);
    KernelTable table(g_direct, root_);
    bool mapped = true;
    for (u64 off = 0; off < len && mapped; off += sv39::kPageSize)
        mapped = table.map(va + off, phys + off, sv39::kRead | sv39::kUser);
    share_new_slots(va, len, had_slots);
    publish_user_memory();  // its tables came from the page allocator
    return mapped;
}
}  // namespace nvx::kernel
