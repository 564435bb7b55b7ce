// Kernel modules: subsystems above the kernel core (such as ikc/) plug in here without the
// kernel naming them. Each module places one descriptor in the .kernel_modules section;
// the kernel boots them, polls them in the core loop and puts their calls in the table of
// kernel calls (kernel/syscall/call_table.hpp).
#pragma once
#include "kernel/syscall/call_table.hpp"

namespace nvx::kernel {
struct KernelModule {
    const char* name;
    bool (*boot)();                // kernel core, before the program starts; false = fatal
    bool (*poll)();                // kernel core loop; true if it did some work
    const KernelCall* calls;       // the kernel calls it serves
    u32 call_count;
    void (*program_ended)();       // the program's threads are gone: drop their state
    void (*selftest)();            // kernel option `selftest`: its checks (kernel/selftest.hpp)
    // Deadlock report: writes what `t` (blocked in one of its calls) waits for; false if
    // `t` waits for nothing of this module's.
    bool (*describe_wait)(const Thread* t, char* out, u64 size);
    void (*thread_ended)(Thread* t);  // `t` ended (exit or fault): drop what it had under way
    // Kernel core: work it left itself that no interrupt announces (the core loop polls
    // again before it idles); nullptr: none ever.
    bool (*pending)();
    // Deadlock report, after the threads: prints what it holds that a blocked thread may
    // wait for (messages not yet read, ...); nullptr: nothing.
    void (*report)();
};

}  // namespace nvx::kernel

extern "C" const nvx::kernel::KernelModule __kernel_modules_start[], __kernel_modules_end[];

namespace nvx::kernel {
// Iteration over every linked-in module.
inline const KernelModule* modules_begin() { return __kernel_modules_start; }
inline const KernelModule* modules_end() { return __kernel_modules_end; }
}  // namespace nvx::kernel

#define NVX_KERNEL_MODULE(variable) \
    __attribute__((used, section(".kernel_modules"))) const nvx::kernel::KernelModule variable
