// The table of kernel calls (in the spirit of xv6's syscalls[]): for each call number its
// handler and where it runs. Calls that only read the caller's own state run on the
// calling hart; the others are posted to the kernel core, which owns all shared state.
// The kernel's own calls are listed in kernel_calls.cpp; kernel modules (kernel/module.hpp)
// bring theirs, and calls_init() puts them all in one table at boot.
#pragma once
#include "kernel/sched/outcome.hpp"
#include "kernel/sched/thread.hpp"

namespace nvx::kernel {
enum class RunsOn : u8 { CallerHart, KernelCore };

// The caller's argument registers a0..a3 (no call takes more).
struct CallArgs {
    u64 a0, a1, a2, a3;
};

using CallHandler = CallResult (*)(Thread* caller, const CallArgs& args);

struct KernelCall {
    u32 number;  // NVX_SYS_*
    RunsOn where;
    CallHandler handler;
};

// Handlers made from plain functions of the argument registers: a table entry names the
// function itself, e.g. {NVX_SYS_MAILBOX_OPEN, RunsOn::KernelCore, call_with<mailbox_open>}.
template <i64 (*F)(u64)>
CallResult call_with(Thread*, const CallArgs& a) { return resume_with(F(a.a0)); }
template <i64 (*F)(u64, u64)>
CallResult call_with(Thread*, const CallArgs& a) { return resume_with(F(a.a0, a.a1)); }
template <i64 (*F)(u64, u64, u64, u64)>
CallResult call_with(Thread*, const CallArgs& a) { return resume_with(F(a.a0, a.a1, a.a2, a.a3)); }
// ... and from functions that may block the caller.
template <CallResult (*F)(Thread*, u64)>
CallResult call_with(Thread* t, const CallArgs& a) { return F(t, a.a0); }
template <CallResult (*F)(Thread*, u64, u64, u64)>
CallResult call_with(Thread* t, const CallArgs& a) { return F(t, a.a0, a.a1, a.a2); }

// The kernel's own calls (kernel_calls.cpp).
extern const KernelCall kKernelCalls[];
extern const u32 kKernelCallCount;

// Boot, kernel core, before any user thread: fills the table from the kernel's calls and
// every module's. Returns the number of a call listed twice or out of range, or 0.
u32 calls_init();

// On the calling hart, for the call in `t`'s registers: runs it if it runs here (its
// result is in a0) and returns true; false means post it to the kernel core.
bool run_call_here(Thread* t);
// On the kernel core: runs the posted call of `t`.
Outcome run_posted_call(Thread* t);
}  // namespace nvx::kernel
