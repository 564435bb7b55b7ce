#include "kernel/module.hpp"

extern "C" const nvx::kernel::KernelModule __kernel_modules_start[], __kernel_modules_end[];

namespace nvx::kernel {
const KernelModule* modules_begin() { return __kernel_modules_start; }
const KernelModule* modules_end() { return __kernel_modules_end; }

const KernelModule* module_for_call(u64 number) {
    for (const KernelModule* m = modules_begin(); m != modules_end(); m++)
        if (number >= m->first_call && number <= m->last_call) return m;
    return nullptr;
}
}  // namespace nvx::kernel
