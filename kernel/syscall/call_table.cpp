#include "kernel/syscall/call_table.hpp"

#include "kernel/module.hpp"

namespace nvx::kernel {
namespace {
const KernelCall* g_calls[NVX_SYS_COUNT];  // by number; written once at boot

u32 add_calls(const KernelCall* calls, u32 count) {
    for (u32 i = 0; i < count; i++) {
        u32 n = calls[i].number;
        if (n >= NVX_SYS_COUNT || g_calls[n] != nullptr) return n == 0 ? ~0u : n;
        g_calls[n] = &calls[i];
    }
    return 0;
}

CallResult run(const KernelCall* call, Thread* t) {
    if (call == nullptr) return resume_with(-NVX_ENOSYS);
    const u64* x = t->frame.x;
    return call->handler(t, CallArgs{x[kA0], x[kA1], x[kA2], x[kA3]});
}

// The one place a call's result reaches the caller: a blocked thread gets it from its
// waker, an ended one never returns.
Outcome finish(Thread* t, CallResult r) {
    if (r.outcome == Outcome::Resume || r.outcome == Outcome::Yield) t->frame.x[kA0] = static_cast<u64>(r.value);
    return r.outcome;
}

const KernelCall* call_for(u64 number) { return number < NVX_SYS_COUNT ? g_calls[number] : nullptr; }
}  // namespace

u32 calls_init() {
    if (u32 clash = add_calls(kKernelCalls, kKernelCallCount)) return clash;
    for (const KernelModule* m = modules_begin(); m != modules_end(); m++)
        if (u32 clash = add_calls(m->calls, m->call_count)) return clash;
    return 0;
}

HereOutcome run_call_here(Cpu& c, Thread* t) {
    const KernelCall* call = call_for(t->frame.x[kA7]);
    if (call != nullptr && call->where == RunsOn::KernelCore) {
        if (call->here_first == nullptr) return HereOutcome::Post;
        CallResult r;
        const u64* x = t->frame.x;
        if (!call->here_first(c, t, CallArgs{x[kA0], x[kA1], x[kA2], x[kA3]}, &r)) return HereOutcome::Post;
        return finish(t, r) == Outcome::Blocked ? HereOutcome::Parked : HereOutcome::Done;
    }
    finish(t, run(call, t));  // local calls always resume
    return HereOutcome::Done;
}

Outcome run_posted_call(Thread* t) { return finish(t, run(call_for(t->frame.x[kA7]), t)); }
}  // namespace nvx::kernel
