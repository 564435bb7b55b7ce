// One hart of this cluster as the kernel sees it. User harts hand requests to the kernel
// core through `posted` and get work back through `dispatch`; each hand-off is followed
// by an IPI and waited for in wfi.
#pragma once
#include "hal/sbi/sbi_call.hpp"
#include "kernel/config.hpp"
#include "kernel/layout.hpp"
#include "support/types.hpp"

namespace nvx::kernel {
struct Thread;

// Unpark: the thread slept in a futex wait on its hart (futex.hpp) and now leaves the hart.
enum class RequestKind : u32 { Syscall, Preempt, Fault, Unpark };
enum CpuSignal : u32 { kSignalPreempt = 1, kSignalKill = 2 };

struct Cpu {
    u32 local;           // index inside the cluster (0 = kernel core)
    u32 hart;            // global hart id
    u64 stack_top;
    // user hart -> core
    Thread* posted;      // thread whose request waits for the core (release/acquire)
    RequestKind kind;
    u64 fault_cause;
    // core -> user hart
    Thread* dispatch;    // next thread to run
    u32 signals;         // CpuSignal bits
    // owned by the core
    Thread* running;     // what the core believes runs there (nullptr = idle)
    // owned by the hart
    Thread* fp_loaded;   // thread whose FP state is in this hart's registers
    u64 space_epoch;     // address-space generation this hart's TLB holds
    u64 satp;            // the root this hart translates with now (0: the program's)
    u64 user_satp;       // the root whose user translations its TLB may hold
    u32 ready;
};

extern Cpu g_cpus[kMaxHarts];
inline Cpu& cpu_at(u32 local) { return g_cpus[local]; }
inline Cpu& this_cpu() {
    Cpu* c;
    asm volatile("mv %0, tp" : "=r"(c));
    return *c;
}
inline u32 user_hart_count() { return g_layout.cluster->harts - 1; }

// User harts with a request posted to the kernel core: bit `local` (set after `posted`).
extern u64 g_posted_harts;

void send_ipi(const Cpu& target);

// Sleeps until an interrupt (at once if one is pending). Through the firmware, never a
// bare wfi: it counts idle harts to find a deadlocked board (hal/firmware/idle.hpp).
inline void idle_until_interrupt() { static_cast<void>(sbi::call(sbi::kExtHsm, sbi::kHsmSuspend, 0)); }

// Kernel core: sleeps in wfi until `ready` user harts reported in.
void wait_for_user_harts(unsigned ready);
// Kernel core: sleeps in wfi until every user hart acknowledged its kill signal (runs no
// user code).
void wait_for_user_harts_quiet();
}  // namespace nvx::kernel
