#include "kernel/module.hpp"

extern "C" const nvx::kernel::KernelModule __kernel_modules_start[], __kernel_modules_end[];

namespace nvx::kernel {
const KernelModule* modules_begin() { return __kernel_modules_start; }
const KernelModule* modules_end() { return __kernel_modules_end; }
}  // namespace nvx::kernel
