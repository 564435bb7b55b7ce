// A hart is idle from just before its wfi to just after it. The last hart to go idle
// scans the board: every hart idle, no IPI raised for any of them (msip), no timer armed.
// Interrupts pending at a hart itself are seen by that hart before it declares itself idle,
// and in M-mode with interrupts off none can become pending there but through msip and
// the timer. The scan is one instant of the board if no hart went idle or woke during it:
// every such change bumps g_epoch (before a hart is marked idle, after it is unmarked),
// so a hart that woke, sent an IPI to one already scanned and went idle again is seen.
// The watch is the emulator's instrument, not work of the modeled machine (a real board
// has no one to notice that it is stuck, and its scan grows with the board): its code is
// model code (NVX_MODEL_CODE), which the instruction counter charges to no hart.
#include "hal/firmware/idle.hpp"

#include "hal/firmware/cluster_end.hpp"
#include "hal/firmware/console.hpp"
#include "hal/firmware/devices.hpp"
#include "hal/firmware/harts.hpp"
#include "hal/firmware/power.hpp"
#include "hal/riscv/csr.hpp"
#include "kernel/abi/nvx_abi.h"

extern "C" nvx::u8 g_hart_ended[];  // cluster_end.cpp: parked for good, idle whatever msip says

namespace nvx::firmware {
namespace {
using board::kBoard;
constexpr u32 kHarts = kBoard.hart_count;

u8 g_idle[kHarts];
u8 g_armed[kHarts];
u32 g_idle_count;
u32 g_armed_count;
u64 g_epoch;
u64* g_report_word[kBoard.cluster_count];  // a kernel's word, or null
u32 g_report_hart[kBoard.cluster_count];
static_assert(kBoard.cluster_count <= 64, "clusters fit one mask");
u32 g_reporting;        // the kernels were asked for their reports
u64 g_reports_pending;  // bit per cluster whose kernel was asked and has not finished printing

template <typename T> T load(const T* p) { return __atomic_load_n(p, __ATOMIC_SEQ_CST); }
template <typename T> void store(T* p, T v) { __atomic_store_n(p, v, __ATOMIC_SEQ_CST); }
template <typename T> T add(T* p, T v) { return __atomic_add_fetch(p, v, __ATOMIC_SEQ_CST); }

bool interrupt_pending() { return (NVX_CSR_READ(mip) & NVX_CSR_READ(mie)) != 0; }

NVX_MODEL_CODE bool board_stuck() {
    u64 epoch = load(&g_epoch);
    if (load(&g_armed_count) != 0) return false;
    for (u32 h = 0; h < kHarts; h++) {
        if (load(&g_hart_ended[h]) != 0) continue;
        if (load(&g_idle[h]) == 0 || *msip(h) != 0) return false;
    }
    return load(&g_epoch) == epoch;
}

// Sets every registered kernel's word and wakes its core; they print and go idle again.
void ask_for_reports() {
    u64 asked = 0;
    for (u32 i = 0; i < kBoard.cluster_count; i++) {
        const board::Cluster& c = kBoard.cluster(i);
        if (load(&g_report_word[i]) != nullptr && load(&g_hart_ended[c.first_hart]) == 0) asked |= u64{1} << i;
    }
    store(&g_reports_pending, asked);
    console_print("[board] deadlock: every hart is idle, no interrupt is pending and no timer is armed\n");
    if (asked == 0) power_off(sbi::kExitDeadlock);
    for (u32 i = 0; i < kBoard.cluster_count; i++) {
        if ((asked & u64{1} << i) == 0) continue;
        store(load(&g_report_word[i]), u64{1});
        *msip(load(&g_report_hart[i])) = 1;
    }
}

NVX_MODEL_CODE void board_idle() {
    if (!board_stuck()) return;
    u32 expected = 0;
    if (__atomic_compare_exchange_n(&g_reporting, &expected, 1u, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
        ask_for_reports();
        return;
    }
    if (load(&g_reports_pending) == 0) {
        console_print("[board] deadlock: the kernels reported; ending the run\n");
        power_off(sbi::kExitDeadlock);
    }
}

NVX_MODEL_CODE void watch_sleeps(u64 self) {
    add(&g_epoch, u64{1});
    store(&g_idle[self], u8{1});
    if (add(&g_idle_count, 1u) == kHarts) board_idle();
}

NVX_MODEL_CODE void watch_wakes(u64 self) {
    store(&g_idle[self], u8{0});
    add(&g_idle_count, ~0u);
    add(&g_epoch, u64{1});
}
}  // namespace

NVX_MODEL_CODE void idle_wait() {
    u64 self = current_hart();
    if (interrupt_pending()) return;
    watch_sleeps(self);
    riscv::wfi();
    watch_wakes(self);
}

// entry.S's path for a kernel's retentive suspend.
extern "C" NVX_MODEL_CODE void machine_idle() {
    park_if_ended(current_hart());  // its cluster was ended
    idle_wait();
}

void idle_forever() {
    u64 self = current_hart();
    NVX_CSR_WRITE(mie, 0);
    note_timer(self, ~0ull);
    watch_sleeps(self);
    for (;;) riscv::wfi();
}

NVX_MODEL_CODE void note_timer(u64 hart, u64 when) {
    u8 armed = when != ~0ull ? 1 : 0;
    if (g_armed[hart] == armed) return;  // only the hart itself writes its flag
    store(&g_armed[hart], armed);
    add(&g_armed_count, armed ? 1u : ~0u);
}

sbi::Result watch_deadlock(const board::Cluster& c, u64 hart, u64 word) {
    if (word % 8 != 0 || word < c.mem_base || word + 8 > c.mem_end()) return {sbi::kErrInvalidAddress, 0};
    u32 index = static_cast<u32>(&c - kBoard.clusters);
    store(&g_report_hart[index], static_cast<u32>(hart));
    store(&g_report_word[index], reinterpret_cast<u64*>(word));
    return {sbi::kSuccess, 0};
}

sbi::Result deadlock_reported(const board::Cluster& c) {
    if (load(&g_reporting) == 0) return {sbi::kErrDenied, 0};
    u32 index = static_cast<u32>(&c - kBoard.clusters);
    __atomic_fetch_and(&g_reports_pending, ~(u64{1} << index), __ATOMIC_SEQ_CST);
    return {sbi::kSuccess, 0};
}
}  // namespace nvx::firmware
