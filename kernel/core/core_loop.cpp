#include "kernel/core/core_loop.hpp"

#include "hal/riscv/csr.hpp"
#include "hal/sbi/sbi_call.hpp"
#include "kernel/clock/clock.hpp"
#include "kernel/module.hpp"
#include "kernel/proc/cluster_ends.hpp"
#include "kernel/proc/deadlock_report.hpp"
#include "kernel/proc/process.hpp"
#include "kernel/sched/scheduler.hpp"
#include "kernel/sched/core_timer.hpp"
#include "kernel/sched/sleepers.hpp"
#include "kernel/sched/threads.hpp"
#include "kernel/syscall/call_table.hpp"
#include "kernel/sched/futex.hpp"
#include "support/atomic.hpp"
#include "support/bits.hpp"

namespace nvx::kernel {
namespace {
constexpr u64 kTickInterval = board::kTimerHz * kTickMicroseconds / 1'000'000;

// Whether `t` is still the thread that posted (not killed meanwhile): running, or for an
// unpark still waiting (or woken since, as a thread woken inside its call).
bool still_posted(const Cpu& c, const Thread* t) {
    if (c.kind == RequestKind::Unpark) return t->state == ThreadState::Blocked || t->state == ThreadState::Ready;
    return t->state == ThreadState::Running;
}

void handle_request(Cpu& c, Thread* t) {
    if (!g_process.running || !still_posted(c, t)) return;
    u64 generation = g_process.generation;
    clock_serve_thread(t);  // the request is served from its own time on
    Outcome outcome;
    switch (c.kind) {
    case RequestKind::Preempt: outcome = Outcome::Yield; break;
    case RequestKind::Unpark: outcome = Outcome::Blocked; break;
    case RequestKind::Fault:
        thread_end(t, NVX_THREAD_KILLED, c.fault_cause);
        outcome = Outcome::Ended;
        break;
    default: outcome = run_posted_call(t); break;
    }
    // The program ended or was replaced: its harts were already given back.
    if (!g_process.running || g_process.generation != generation) return;
    if (outcome == Outcome::Resume || outcome == Outcome::Yield) clock_stamp_answer(t);
    switch (outcome) {
    case Outcome::Resume: g_scheduler.resume(c, t); break;
    case Outcome::Yield: g_scheduler.yield(c, t); break;
    case Outcome::Blocked:  // its wake-up may have come within the call, already stamped
        if (Scheduler::woken_in_call(t)) g_scheduler.resume(c, t);
        else g_scheduler.release_cpu(c);
        break;
    case Outcome::Ended: g_scheduler.release_cpu(c); break;
    }
}

// The requests posted since the last look, earliest stamp first: requests the host
// delivered together are served in the order the modeled core would see them.
u32 take_posted(Cpu** cpus, Thread** threads) {
    u64 posted = atomic::exchange_acq_rel(&g_posted_harts, u64{0});
    u32 n = 0;
    for (; posted != 0; posted &= posted - 1) {
        Cpu& c = cpu_at(lowest_set_bit(posted));
        Thread* t = atomic::exchange_acq_rel(&c.posted, static_cast<Thread*>(nullptr));
        if (t == nullptr) continue;  // taken back by a teardown
        u32 i = n++;
        for (; i > 0 && clock_thread_stamp(threads[i - 1]) > clock_thread_stamp(t); i--) {
            cpus[i] = cpus[i - 1];
            threads[i] = threads[i - 1];
        }
        cpus[i] = &c;
        threads[i] = t;
    }
    return n;
}

// After a pass that served something: whether the next must follow at once. Everything
// else that brings the core work raises an interrupt after setting its flag (a posted
// request, a woken thread, a NoC event, a timer), so an idle that one interrupts returns
// at once and the pass that finds nothing new is not run for every request.
bool work_left() {
    for (const KernelModule* m = modules_begin(); m != modules_end(); m++)
        if (m->pending != nullptr && m->pending()) return true;
    return false;
}

bool serve_posted_requests() {
    Cpu* cpus[kMaxHarts];
    Thread* threads[kMaxHarts];
    u32 n = take_posted(cpus, threads);
    for (u32 i = 0; i < n; i++) {
        handle_request(*cpus[i], threads[i]);
        clock_serve_idle();  // the request's service ends here, not at the next one
    }
    return n != 0;
}
}  // namespace

void core_loop() {
    NVX_CSR_SET(sie, riscv::kIntSSoft | riscv::kIntSTimer);
    CoreTimer timer;
    for (;;) {
        NVX_CSR_CLEAR(sip, riscv::kIntSSoft);
        bool served = serve_posted_requests();
        if (futex_serve_woken()) served = true;  // their time was set by their wakers
        // No service context is open here (each request's ended): modules open one per
        // stamped event they serve.
        if (poll_cluster_ends()) served = true;
        if (poll_deadlock()) served = true;
        for (const KernelModule* m = modules_begin(); m != modules_end(); m++)
            if (m->poll != nullptr && m->poll()) served = true;
        clock_serve_idle();
        bool fired = (NVX_CSR_READ(sip) & riscv::kIntSTimer) != 0;
        u64 now = riscv::read_time();
        wake_sleepers(now);
        if (fired) g_scheduler.tick(now);
        u64 deadline;
        if (timer.update(fired, g_scheduler.has_waiting(), now, kTickInterval, next_wake(), deadline))
            sbi::set_timer(deadline);
        if (!served || !work_left()) idle_until_interrupt();
    }
}
}  // namespace nvx::kernel
