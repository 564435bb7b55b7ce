// Board power: system reset (SBI SRST) through the `virt` test finisher, so QEMU exits
// with the status the caller gives.
#pragma once
#include "support/types.hpp"
#include "hal/board/current.hpp"
#include "hal/sbi/sbi_ids.hpp"

namespace nvx::firmware {
[[noreturn]] void power_off(u32 status);
// From the control cluster: resets or powers off the board. From any other cluster: ends
// that cluster only (cluster_end.hpp) and does not return.
sbi::Result system_reset(const board::Cluster& caller, u64 type, u64 reason);
}  // namespace nvx::firmware
