// Kernel side of the NoC engine: one thin call per engine function, returning the SBI
// error (0, noc::kBusy, noc::kTooLong or a standard SBI error) and the value.
#pragma once
#include "hal/noc/noc_abi.hpp"
#include "hal/sbi/sbi_call.hpp"

namespace nvx::noc {
inline sbi::Result call(u64 fn, u64 a0, u64 a1 = 0, u64 a2 = 0, u64 a3 = 0, u64 a4 = 0) {
    return sbi::call(sbi::kExtVendorNvx, fn, a0, a1, a2, a3, a4);
}
inline sbi::Result attach(u32 node, u64 area_phys, u64 offsets_phys) { return call(kAttach, node, area_phys, offsets_phys); }
inline sbi::Result mailbox_send(u32 src, u32 dst, u64 message_phys) { return call(kMailboxSend, src, dst, message_phys); }
inline sbi::Result mailbox_release(u32 node, u32 sender) { return call(kMailboxRelease, node, sender); }
// Posts the receive window of `port` (< kPortalWindows) at `node`.
inline sbi::Result portal_allow(u32 node, u32 sender, u32 port, u64 segments_phys, u32 count, u64 remaining) {
    return call(kPortalAllow, node, sender, port, segments_phys, pack_lengths(count, remaining));
}
inline sbi::Result portal_write(u32 src, u32 dst, u32 port, u64 data_phys, u32 length, u64 remaining) {
    return call(kPortalWrite, src, dst, port, data_phys, pack_lengths(length, remaining));
}
inline sbi::Result sync_arm(u32 node, u32 reg, u64 expected) { return call(kSyncArm, node, reg, expected); }
inline sbi::Result sync_signal(u32 src, u32 dst, u32 reg) { return call(kSyncSignal, src, dst, reg); }
inline sbi::Result stats(u32 node, u64 out_phys) { return call(kStats, node, out_phys); }
inline sbi::Result forget_program(u32 node) { return call(kForgetProgram, node); }
inline sbi::Result mailbox_refuse(u32 node, u32 sender) { return call(kMailboxRefuse, node, sender); }
inline sbi::Result mailbox_drained(u32 node, u32 port, u64 senders) { return call(kMailboxDrained, node, port, senders); }
}  // namespace nvx::noc
