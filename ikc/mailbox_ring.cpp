#include "ikc/mailbox_ring.hpp"

#include <stddef.h>

#include "hal/riscv/sv39.hpp"
#include "ikc/ikc_clock.hpp"
#include "kernel/mm/address_space.hpp"
#include "kernel/sched/futex.hpp"
#include "support/atomic.hpp"
#include "support/format.hpp"

namespace nvx::ikc {
namespace {
using kernel::g_space;
using kernel::UserAddr;
namespace sv39 = riscv::sv39;

struct Ring {
    UserAddr base;     // the struct nvx_mailbox_ring; null = none
    UserAddr notify;   // or null
    bool untimed;
    u32 slots;
    u32 tail;          // the kernel's own fill index (the ring's copy is only published)
    u64 owner_id;      // the thread that attached it
};
Ring g_rings[kVirtualMailboxes];

constexpr u64 kSlotBytes = sizeof(nvx_mailbox_slot);
constexpr u64 kSlotHeader = offsetof(nvx_mailbox_slot, payload);
static_assert(sizeof(nvx_mailbox_ring) % alignof(nvx_mailbox_slot) == 0, "slots follow the header aligned");

u32* ring_word(const Ring& r, u64 offset) {
    return static_cast<u32*>(g_space.user_pointer(r.base + offset, sizeof(u32), sv39::kRead | sv39::kWrite));
}
}  // namespace

i64 ring_attach(u32 id, const kernel::Thread* t, UserAddr ring) {
    Ring& r = g_rings[id];
    if (!r.base.is_null()) return -NVX_EBUSY;
    if (ring.value() % alignof(nvx_mailbox_ring) != 0) return -NVX_EFAULT;
    nvx_mailbox_ring asked;
    if (!g_space.copy_from_user(&asked, ring, sizeof asked)) return -NVX_EFAULT;
    if ((asked.flags & ~u32{NVX_IKC_NOTIFY_UNTIMED}) != 0) return -NVX_EINVAL;
    if (asked.slots == 0 || asked.slots > NVX_MAILBOX_RING_MAX || (asked.slots & (asked.slots - 1)) != 0) return -NVX_EINVAL;
    if (!g_space.user_range_ok(ring, NVX_MAILBOX_RING_BYTES(asked.slots), sv39::kRead | sv39::kWrite)) return -NVX_EFAULT;
    u64 notify_va = reinterpret_cast<u64>(asked.notify);
    UserAddr notify = notify_va == 0 ? UserAddr{} : kernel::user_address(t, notify_va);
    if (!notify.is_null() && (notify.value() % 4 != 0 || !g_space.user_range_ok(notify, 4, sv39::kWrite)))
        return -NVX_EFAULT;
    struct {
        u32 head, tail, stalled;
    } start = {0, 0, 0};
    static_assert(offsetof(nvx_mailbox_ring, tail) == offsetof(nvx_mailbox_ring, head) + 4 &&
                  offsetof(nvx_mailbox_ring, stalled) == offsetof(nvx_mailbox_ring, head) + 8);
    if (!g_space.copy_to_user(ring + offsetof(nvx_mailbox_ring, head), &start, sizeof start)) return -NVX_EFAULT;
    r = Ring{ring, notify, (asked.flags & NVX_IKC_NOTIFY_UNTIMED) != 0, asked.slots, 0, t->id};
    return 0;
}

void ring_detach(u32 id) { g_rings[id] = Ring{}; }

bool ring_attached(u32 id) { return !g_rings[id].base.is_null(); }

bool ring_has_room(u32 id) {
    Ring& r = g_rings[id];
    if (r.base.is_null()) return false;
    u32* head = ring_word(r, offsetof(nvx_mailbox_ring, head));
    if (head == nullptr) {  // the reader's memory went away: the port's messages stay for reads
        ring_detach(id);
        return false;
    }
    // A head the reader moved past what was filled reads as full: its slots are not touched.
    return r.tail - atomic::load_acquire(head) < r.slots;
}

bool ring_put(u32 id, const u8* payload, u32 length, Origin origin, u64* at) {
    Ring& r = g_rings[id];
    UserAddr slot = r.base + sizeof(nvx_mailbox_ring) + u64{r.tail & (r.slots - 1)} * kSlotBytes;
    u32* tail = ring_word(r, offsetof(nvx_mailbox_ring, tail));
    nvx_mailbox_slot header;
    bool copied = tail != nullptr && g_space.copy_to_user(slot + kSlotHeader, payload, length);
    header.at = core_now();
    header.length = static_cast<u16>(length);
    header.node = origin.node;
    header.flags = (origin.flags & noc::kFromSystem) ? NVX_ORIGIN_SYSTEM : 0;
    header.reserved = 0;
    if (!copied || !g_space.copy_to_user(slot, &header, kSlotHeader)) {
        ring_detach(id);  // only a program that unmaps its ring gets here
        return false;
    }
    handed(header.at);  // the reader takes it from the slot (nvx_clock_take)
    atomic::store_release(tail, ++r.tail);
    *at = header.at;
    return true;
}

void ring_notify(u32 id, u64 at) {
    const Ring& r = g_rings[id];
    if (r.base.is_null() || r.notify.is_null()) return;
    if (auto* word = static_cast<u32*>(g_space.user_pointer(r.notify, 4, sv39::kWrite))) atomic::fetch_add(word, u32{1});
    kernel::futex_wake_all_at(r.notify, at, r.untimed);
}

// The reader stores head, fences, then reads `stalled`; the kernel stores `stalled`, fences,
// then reads head: one of the two sees the other's store, so no refill is lost.
bool ring_stall(u32 id) {
    Ring& r = g_rings[id];
    u32* stalled = ring_word(r, offsetof(nvx_mailbox_ring, stalled));
    if (stalled == nullptr) return false;
    atomic::store_relaxed(stalled, u32{1});
    atomic::fence();
    if (!ring_has_room(id)) return false;
    atomic::store_relaxed(stalled, u32{0});
    return true;
}

void ring_unstall(u32 id) {
    if (u32* stalled = ring_word(g_rings[id], offsetof(nvx_mailbox_ring, stalled))) atomic::store_relaxed(stalled, u32{0});
}

void rings_thread_ended(const kernel::Thread* t) {
    for (Ring& r : g_rings)
        if (!r.base.is_null() && r.owner_id == t->id) r = Ring{};
}

bool ring_describe(u32 id, char* out, u64 size) {
    const Ring& r = g_rings[id];
    if (r.base.is_null()) return false;
    const u32* head = ring_word(r, offsetof(nvx_mailbox_ring, head));
    const u32* stalled = ring_word(r, offsetof(nvx_mailbox_ring, stalled));
    format(out, size, "ring of %u slots: filled %u, read %u%s", r.slots, r.tail,
           head != nullptr ? atomic::load_acquire(head) : 0u,
           stalled != nullptr && atomic::load_acquire(stalled) != 0 ? ", stalled" : "");
    return true;
}

void rings_reset() {
    for (Ring& r : g_rings) r = Ring{};
}
}  // namespace nvx::ikc
