// Board power: system reset (SBI SRST) through the `virt` test finisher, so QEMU exits
// with the status the caller gives.
#pragma once
#include "support/types.hpp"
#include "hal/sbi/sbi_ids.hpp"

namespace nvx::firmware {
[[noreturn]] void power_off(u32 status);
sbi::Result system_reset(u64 type, u64 reason);
}  // namespace nvx::firmware
