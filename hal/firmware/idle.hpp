// Idle accounting and the deadlock detector. Kernels never execute a bare wfi to idle:
// they ask the firmware (SBI HSM hart_suspend, retentive type 0), which is the only code
// that sees every hart. A board where every hart sleeps with no interrupt pending and no
// timer armed can never wake again: the firmware asks every kernel to print what its
// threads wait for, then powers the board off with NVX_EXIT_DEADLOCK. On the modeled
// machine an idle kernel hart runs a wfi: the suspend's path and the watch are model code
// (NVX_MODEL_CODE), which the instruction counter charges to no hart.
#pragma once
#include "hal/board/current.hpp"
#include "hal/sbi/sbi_ids.hpp"

namespace nvx::firmware {
// The calling hart sleeps until an interrupt (at once if one is pending); meanwhile it
// counts as idle.
void idle_wait();
// The calling hart sleeps for good (its cluster ended), idle from now on.
[[noreturn]] void idle_forever();
// The calling hart's timer was set to `when` (~0: disarmed).
void note_timer(u64 hart, u64 when);
// Any cluster's kernel: `word` (physical, 8-aligned, in its own memory) becomes non-zero,
// with an IPI to the caller's hart, when the board is found deadlocked.
sbi::Result watch_deadlock(const board::Cluster& c, u64 hart, u64 word);
// A kernel asked to report finished printing.
sbi::Result deadlock_reported(const board::Cluster& c);
}  // namespace nvx::firmware
