// Board power: system reset (SBI SRST) and the board's record of which clusters' programs
// have ended, so QEMU exits with the program's status once all compute clusters are done.
#pragma once
#include "support/types.hpp"
#include "hal/sbi/sbi_ids.hpp"

namespace nvx::firmware {
[[noreturn]] void power_off(u32 status);
sbi::Result system_reset(u64 type, u64 reason);
sbi::Result cluster_exit(u32 cluster, u64 status);
}  // namespace nvx::firmware
