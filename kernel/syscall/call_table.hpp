// The table of kernel calls (in the spirit of xv6's syscalls[]): for each call number its
// handler and where it runs. Calls that only read the caller's own state run on the
// calling hart; the others are posted to the kernel core, which owns all shared state.
// The kernel's own calls are listed in kernel_calls.cpp; kernel modules (kernel/module.hpp)
// bring theirs, and calls_init() puts them all in one table at boot.
#pragma once
#include "kernel/mm/user_addr.hpp"
#include "kernel/sched/outcome.hpp"
#include "kernel/sched/thread.hpp"

namespace nvx::kernel {
enum class RunsOn : u8 { CallerHart, KernelCore };

// The caller's argument registers a0..a3 (no call takes more).
struct CallArgs {
    u64 a0, a1, a2, a3;
};

using CallHandler = CallResult (*)(Thread* caller, const CallArgs& args);
// A kernel-core call's first try on the caller's hart `c`: false posts it to the core;
// true gives its result, which may be Blocked (the caller sleeps parked on `c`).
using HereFirstHandler = bool (*)(Cpu& c, Thread* caller, const CallArgs& args, CallResult* out);

struct KernelCall {
    u32 number;  // NVX_SYS_*
    RunsOn where;
    CallHandler handler;
    HereFirstHandler here_first = nullptr;  // KernelCore calls only
};

// A register as the type a handler's parameter says: a number as it is; a user address
// as the kernel reaches what the caller sees there (its own private copy included).
template <typename P>
P call_arg(const Thread*, u64 value) { return P(value); }
template <>
inline UserAddr call_arg<UserAddr>(const Thread* t, u64 value) { return user_address(t, value); }

// Handlers made from plain functions of the argument registers: a table entry names the
// function itself, e.g. {NVX_SYS_MAILBOX_OPEN, RunsOn::KernelCore, call_with<mailbox_open>}.
// Each register becomes the type the function's parameter says: a number (u64, u32, i64)
// or a user address (UserAddr), so a handler never takes a user address as a bare integer.
template <typename Function>
struct CallAdapter;
template <typename P0>
struct CallAdapter<i64 (*)(P0)> {
    template <auto F> static CallResult run(Thread* t, const CallArgs& a) { return resume_with(F(call_arg<P0>(t, a.a0))); }
};
template <typename P0, typename P1>
struct CallAdapter<i64 (*)(P0, P1)> {
    template <auto F> static CallResult run(Thread* t, const CallArgs& a) { return resume_with(F(call_arg<P0>(t, a.a0), call_arg<P1>(t, a.a1))); }
};
template <typename P0, typename P1, typename P2>
struct CallAdapter<i64 (*)(P0, P1, P2)> {
    template <auto F>
    static CallResult run(Thread* t, const CallArgs& a) { return resume_with(F(call_arg<P0>(t, a.a0), call_arg<P1>(t, a.a1), call_arg<P2>(t, a.a2))); }
};
template <typename P0, typename P1, typename P2, typename P3>
struct CallAdapter<i64 (*)(P0, P1, P2, P3)> {
    template <auto F>
    static CallResult run(Thread* t, const CallArgs& a) { return resume_with(F(call_arg<P0>(t, a.a0), call_arg<P1>(t, a.a1), call_arg<P2>(t, a.a2), call_arg<P3>(t, a.a3))); }
};
// ... and from functions that may block the caller.
template <typename P0>
struct CallAdapter<CallResult (*)(Thread*, P0)> {
    template <auto F> static CallResult run(Thread* t, const CallArgs& a) { return F(t, call_arg<P0>(t, a.a0)); }
};
template <typename P0, typename P1>
struct CallAdapter<CallResult (*)(Thread*, P0, P1)> {
    template <auto F> static CallResult run(Thread* t, const CallArgs& a) { return F(t, call_arg<P0>(t, a.a0), call_arg<P1>(t, a.a1)); }
};
template <typename P0, typename P1, typename P2>
struct CallAdapter<CallResult (*)(Thread*, P0, P1, P2)> {
    template <auto F> static CallResult run(Thread* t, const CallArgs& a) { return F(t, call_arg<P0>(t, a.a0), call_arg<P1>(t, a.a1), call_arg<P2>(t, a.a2)); }
};
template <typename P0, typename P1, typename P2, typename P3>
struct CallAdapter<CallResult (*)(Thread*, P0, P1, P2, P3)> {
    template <auto F>
    static CallResult run(Thread* t, const CallArgs& a) { return F(t, call_arg<P0>(t, a.a0), call_arg<P1>(t, a.a1), call_arg<P2>(t, a.a2), call_arg<P3>(t, a.a3)); }
};
template <auto F>
CallResult call_with(Thread* t, const CallArgs& a) { return CallAdapter<decltype(F)>::template run<F>(t, a); }

// The kernel's own calls (kernel_calls.cpp).
extern const KernelCall kKernelCalls[];
extern const u32 kKernelCallCount;

// Boot, kernel core, before any user thread: fills the table from the kernel's calls and
// every module's. Returns the number of a call listed twice or out of range, or 0.
u32 calls_init();

// On the calling hart `c`, for the call in `t`'s registers: Done (its result is in a0),
// Parked (`t` sleeps on `c`) or Post (to the kernel core).
enum class HereOutcome : u8 { Done, Parked, Post };
HereOutcome run_call_here(Cpu& c, Thread* t);
// On the kernel core: runs the posted call of `t`.
Outcome run_posted_call(Thread* t);
}  // namespace nvx::kernel
