// Placement of ready threads on user harts. Runs on the kernel core only, so it needs no
// locks: user harts see its decisions through Cpu::dispatch and an IPI. A hart whose thread
// sleeps there (parked, futex.hpp) counts as busy; a thread queued while such a hart is
// one it may use asks that hart to give its sleeper to the core (a preempt signal).
#pragma once
#include "kernel/cpu.hpp"
#include "kernel/sched/thread.hpp"
#include "support/atomic.hpp"

static_assert(nvx::kernel::kMaxHarts <= 64, "the scheduler keeps busy harts in one word");

namespace nvx::kernel {
class Scheduler {
public:
    // A thread became runnable: run it on an idle hart it may use (the one it last ran on
    // if idle), or queue it. A thread woken inside its own kernel call keeps its hart: the
    // call's end resumes it there (woken_in_call).
    void make_ready(Thread* t);
    static bool woken_in_call(const Thread* t) { return t->state == ThreadState::Ready; }
    // `t` returns from a kernel call and goes on running on `c` within its quantum, or
    // yields `c` when the quantum is used up and another thread waits. The quantum counts
    // the time on the hart since dispatch (under the virtual clock, the thread's virtual
    // time since it arrived there), kernel calls included: a thread that calls the
    // kernel often must not escape preemption (a preemption request that found it inside a
    // posted call is taken here). Inline: it is on every forwarded call's path.
    void resume(Cpu& c, Thread* t) {
        if (!ready_.empty() && quantum_used(t)) yield(c, t);
        else hand_over(c, t);
    }
    // `t` gives up `c` if another thread may run there.
    void yield(Cpu& c, Thread* t);
    // The thread on `c` blocked or ended: give `c` the next thread it may run.
    void release_cpu(Cpu& c);
    // Preemption: asks harts whose thread used its quantum to yield when others wait.
    void tick(u64 now);
    bool has_waiting() const { return !ready_.empty(); }
    // The same, read from a user hart (futex_wait_here parks its thread only when false).
    bool has_waiting_seen() const { return atomic::load_acquire(&waiting_) != 0; }
    // Forgets every queued thread and every hart's thread (the program ended).
    void clear();

private:
    static bool may_run(const Thread* t, const Cpu& c) { return t->affinity < 0 || static_cast<u32>(t->affinity) == c.local; }
    void dispatch(Cpu& c, Thread* t);   // with a fresh quantum
    void hand_over(Cpu& c, Thread* t);  // within its current quantum
    static bool quantum_used(const Thread* t);
    void set_idle(Cpu& c);
    void enqueue(Thread* t, u64 allowed);
    Thread* take_for(const Cpu& c);

    ThreadQueue ready_;
    u32 waiting_ = 0;  // !ready_.empty(), for user harts
    u64 busy_ = 0;  // bit `local`: that user hart runs a thread (Cpu::running != nullptr)
};

extern Scheduler g_scheduler;
}  // namespace nvx::kernel
