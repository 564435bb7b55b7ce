// The kernel options the boot arguments may name before `--` (scripts/nvx-run
// --kernel-opts): the one list that the kernel's parser (bootargs.cpp) and the launcher
// (through build/tools/board-info's KERNEL_OPTIONS) read. Board-independent on purpose.
#pragma once
#include "support/types.hpp"

namespace nvx::kernel {
enum class KernelOption : u8 {
    Selftest,          // run the isolation self-tests at boot
    ComputeResetTest,  // a compute cluster's kernel asks the firmware for a board reset
};

struct KernelOptionName {
    const char* name;
    KernelOption option;
};

inline constexpr KernelOptionName kKernelOptions[] = {
    {"selftest", KernelOption::Selftest},
    {"compute-reset-test", KernelOption::ComputeResetTest},
};
}  // namespace nvx::kernel
