// Receive rings (NVX_SYS_MAILBOX_RING, struct nvx_mailbox_ring): a created mailbox's
// messages put straight into its reader's memory, so that a reader already running takes
// them with no kernel call. The kernel is the only producer: it keeps the fill index
// itself and trusts nothing it reads back but the reader's `head`, checked against it.
// One ring per input endpoint, by endpoint id. Kernel core only.
#pragma once
#include "ikc/ikc_config.hpp"
#include "ikc/message_buffers.hpp"
#include "kernel/mm/user_addr.hpp"
#include "kernel/sched/thread.hpp"

namespace nvx::ikc {
// Attaches the ring at `ring` (checked: alignment, mapping, slots, flags, notify word) to
// input endpoint `id` for thread `t`; its head and tail start at 0. -EFAULT, -EINVAL, or
// -EBUSY when `id` has one.
i64 ring_attach(u32 id, const kernel::Thread* t, kernel::UserAddr ring);
void ring_detach(u32 id);
bool ring_attached(u32 id);
// True if the ring of `id` has a free slot. A ring whose memory went away is detached.
bool ring_has_room(u32 id);
// Puts one message in the next slot (ring_has_room said so) and sets `*at` to the virtual
// time it was there, which its slot carries; false (ring detached, message not taken) if
// the reader's memory went away meanwhile.
bool ring_put(u32 id, const u8* payload, u32 length, Origin origin, u64* at);
// Messages were put: the notify word is bumped and its waiters woken, from `at`.
void ring_notify(u32 id, u64 at);
// The ring is full with messages waiting in the kernel: tells the reader (`stalled`),
// then looks at its head again; true (and `stalled` cleared) if room appeared meanwhile.
bool ring_stall(u32 id);
void ring_unstall(u32 id);
// The rings thread `t` attached go with it.
void rings_thread_ended(const kernel::Thread* t);
// The deadlock report: "ring T/H/S" (the kernel's fill index, the reader's head and
// stall flag) into `out`; false if `id` has no ring.
bool ring_describe(u32 id, char* out, u64 size);
void rings_reset();
}  // namespace nvx::ikc
