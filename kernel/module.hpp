// Kernel modules: subsystems above the kernel core (such as ikc/) plug in here without the
// kernel naming them. Each module places one descriptor in the .kernel_modules section;
// the kernel boots them, polls them in the core loop and forwards their calls to them.
#pragma once
#include "kernel/proc/process.hpp"

namespace nvx::kernel {
struct KernelModule {
    const char* name;
    bool (*boot)();                        // kernel core, before the program starts; false = fatal
    bool (*poll)();                        // kernel core loop; true if it did some work
    u32 first_call, last_call;             // kernel-call numbers it serves (forwarded calls)
    Outcome (*call)(Cpu& cpu, Thread* t);  // serves one of them on the kernel core
    void (*program_ended)();               // the program's threads are gone: drop their state
};

// Iteration over every linked-in module.
const KernelModule* modules_begin();
const KernelModule* modules_end();
const KernelModule* module_for_call(u64 number);
}  // namespace nvx::kernel

#define NVX_KERNEL_MODULE(variable) \
    __attribute__((used, section(".kernel_modules"))) const nvx::kernel::KernelModule variable
