// A user hart: runs the threads the kernel core dispatches to it, in U-mode.
#pragma once
#include "kernel/cpu.hpp"

namespace nvx::kernel {
[[noreturn]] void user_hart_main(Cpu& c);
}
