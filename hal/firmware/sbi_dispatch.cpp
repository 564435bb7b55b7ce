// SBI calls from S-mode. Every argument naming a hart or memory is checked against the
// caller's own cluster: SBI is never a way around isolation.
#include "hal/firmware/sbi_dispatch.hpp"

#include "hal/firmware/console.hpp"
#include "hal/firmware/devices.hpp"
#include "hal/firmware/hart_mask.hpp"
#include "hal/firmware/harts.hpp"
#include "hal/firmware/idle.hpp"
#include "hal/firmware/cluster_end.hpp"
#include "hal/firmware/noc_engine.hpp"
#include "hal/firmware/power.hpp"
#include "hal/riscv/csr.hpp"

namespace nvx::firmware {
namespace {
using sbi::Result;

bool hart_in_cluster(const board::Cluster& c, u64 hart) { return hart < board::kBoard.hart_count && c.owns_hart(hart); }

Result base_call(u64 fn, u64 arg0) {
    switch (fn) {
    case sbi::kBaseSpecVersion: return {sbi::kSuccess, sbi::kSpecVersion};
    case sbi::kBaseImplId: return {sbi::kSuccess, sbi::kImplementationId};
    case sbi::kBaseImplVersion: return {sbi::kSuccess, 1};
    case sbi::kBaseProbe:
        switch (arg0) {
        case sbi::kExtBase: case sbi::kExtTime: case sbi::kExtIpi: case sbi::kExtHsm:
        case sbi::kExtReset: case sbi::kExtConsole: case sbi::kExtVendorNvx: case sbi::kExtLegacyPutchar:
            return {sbi::kSuccess, 1};
        default: return {sbi::kSuccess, 0};
        }
    case sbi::kBaseMvendorid: return {sbi::kSuccess, NVX_CSR_READ(mvendorid)};
    case sbi::kBaseMarchid: return {sbi::kSuccess, NVX_CSR_READ(marchid)};
    case sbi::kBaseMimpid: return {sbi::kSuccess, NVX_CSR_READ(mimpid)};
    default: return {sbi::kErrNotSupported, 0};
    }
}

Result set_timer(u64 hart, u64 when) {
    *mtimecmp(hart) = when;
    note_timer(hart, when);
    NVX_CSR_CLEAR(mip, riscv::kIntSTimer);
    NVX_CSR_SET(mie, riscv::kIntMTimer);
    return {sbi::kSuccess, 0};
}

Result send_ipi(const board::Cluster& c, u64 mask, u64 base) {
    static_assert(board::kBoard.max_cluster_harts <= 64, "a cluster's harts fit one hart mask");
    if (base == ~0ull) {  // every hart of the caller's cluster
        base = c.first_hart;
        mask = cluster_bits(c, base);
    }
    if ((mask & ~cluster_bits(c, base)) != 0) return {sbi::kErrInvalidParam, 0};
    for_each_hart(mask, base, [](u64 hart) { *msip(hart) = 1; });
    return {sbi::kSuccess, 0};
}

Result hsm_call(const board::Cluster& c, u64 self, u64 fn, u64 hart, u64 start, u64 opaque) {
    switch (fn) {
    case sbi::kHsmStart:
        if (!hart_in_cluster(c, hart)) return {sbi::kErrInvalidParam, 0};
        if (!range_contains(c.mem_base, c.mem_size, start, 4)) return {sbi::kErrInvalidAddress, 0};
        if (!request_start(hart, start, opaque)) return {sbi::kErrAlreadyAvailable, 0};
        return {sbi::kSuccess, 0};
    case sbi::kHsmStop:
        hart_record(self).state = sbi::kHartStopped;
        NVX_CSR_CLEAR(mie, riscv::kIntMTimer);
        note_timer(self, ~0ull);
        wait_for_start(self);
    case sbi::kHsmStatus:
        if (!hart_in_cluster(c, hart)) return {sbi::kErrInvalidParam, 0};
        return {sbi::kSuccess, hart_record(hart).state};
    case sbi::kHsmSuspend:
        if (hart != 0) return {sbi::kErrNotSupported, 0};  // only the retentive default
        idle_wait();
        return {sbi::kSuccess, 0};
    default: return {sbi::kErrNotSupported, 0};
    }
}

Result console_call(const board::Cluster& c, u64 fn, u64 a0, u64 a1, u64 a2) {
    switch (fn) {
    case sbi::kConsoleWrite:
        if (a2 != 0 || !range_contains(c.mem_base, c.mem_size, a1, a0)) return {sbi::kErrInvalidParam, 0};
        console_write(reinterpret_cast<const char*>(a1), a0);
        return {sbi::kSuccess, a0};
    case sbi::kConsoleWriteByte: {
        char ch = static_cast<char>(a0);
        console_write(&ch, 1);
        return {sbi::kSuccess, 0};
    }
    case sbi::kConsoleRead: return {sbi::kSuccess, 0};  // no input device on this board
    default: return {sbi::kErrNotSupported, 0};
    }
}

Result vendor_call(const board::Cluster& c, u64 self, u64 fn, const u64 args[6]) {
    if (fn >= sbi::kVendorNocFirst && fn <= sbi::kVendorNocLast) return noc_call(c, fn, args);
    if (fn == sbi::kVendorWatchClusterEnds) return watch_cluster_ends(c, args[0]);
    if (fn == sbi::kVendorWatchDeadlock) return watch_deadlock(c, self, args[0]);
    if (fn == sbi::kVendorDeadlockReported) return deadlock_reported(c);
    return {sbi::kErrNotSupported, 0};
}
}  // namespace

Result sbi_dispatch(u64 ext, u64 fn, const u64 args[6]) {
    u64 self = current_hart();
    const board::Cluster& c = cluster_of(self);
    // IPIs are most of the traffic (two per forwarded kernel call): before the search.
    if (ext == sbi::kExtIpi && fn == 0) [[likely]] return send_ipi(c, args[0], args[1]);
    switch (ext) {
    case sbi::kExtBase: return base_call(fn, args[0]);
    case sbi::kExtTime: return fn == 0 ? set_timer(self, args[0]) : Result{sbi::kErrNotSupported, 0};
    case sbi::kExtIpi: return fn == 0 ? send_ipi(c, args[0], args[1]) : Result{sbi::kErrNotSupported, 0};
    case sbi::kExtHsm: return hsm_call(c, self, fn, args[0], args[1], args[2]);
    case sbi::kExtReset: return fn == 0 ? system_reset(c, args[0], args[1]) : Result{sbi::kErrNotSupported, 0};
    case sbi::kExtConsole: return console_call(c, fn, args[0], args[1], args[2]);
    case sbi::kExtLegacyPutchar: {
        char ch = static_cast<char>(args[0]);
        console_write(&ch, 1);
        return {sbi::kSuccess, 0};
    }
    case sbi::kExtVendorNvx: return vendor_call(c, self, fn, args);
    default: return {sbi::kErrNotSupported, 0};
    }
}
}  // namespace nvx::firmware
