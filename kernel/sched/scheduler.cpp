#include "kernel/sched/scheduler.hpp"

#include "hal/riscv/csr.hpp"
#include "support/atomic.hpp"

namespace nvx::kernel {
Scheduler g_scheduler;

namespace {
constexpr u64 kQuantumTicks = board::kTimerHz * kTickMicroseconds / 1'000'000;
}

void Scheduler::dispatch(Cpu& c, Thread* t) {
    t->state = ThreadState::Running;
    t->cpu = &c;
    t->run_since = riscv::read_time();
    c.running = t;
    atomic::store_release(&c.dispatch, t);
    send_ipi(c);
}

void Scheduler::make_ready(Thread* t) {
    t->state = ThreadState::Ready;
    t->blocked_on = BlockReason::None;
    for (u32 i = 1; i <= user_hart_count(); i++) {
        Cpu& c = cpu_at(i);
        if (c.running == nullptr && may_run(t, c)) {
            dispatch(c, t);
            return;
        }
    }
    ready_.push(t);
}

void Scheduler::resume(Cpu& c, Thread* t) { dispatch(c, t); }

void Scheduler::yield(Cpu& c, Thread* t) {
    Thread* next = ready_.take_first([&](Thread* candidate) { return may_run(candidate, c); });
    if (next == nullptr) {
        dispatch(c, t);
        return;
    }
    c.running = nullptr;
    dispatch(c, next);
    make_ready(t);
}

void Scheduler::release_cpu(Cpu& c) {
    c.running = nullptr;
    Thread* next = ready_.take_first([&](Thread* candidate) { return may_run(candidate, c); });
    if (next != nullptr) dispatch(c, next);
}

void Scheduler::tick(u64 now) {
    if (ready_.empty()) return;
    for (u32 i = 1; i <= user_hart_count(); i++) {
        Cpu& c = cpu_at(i);
        Thread* t = c.running;
        if (t == nullptr || now - t->run_since < kQuantumTicks) continue;
        atomic::fetch_or(&c.signals, static_cast<u32>(kSignalPreempt));
        send_ipi(c);
    }
}

void Scheduler::clear() {
    while (ready_.pop() != nullptr) {
    }
}
}  // namespace nvx::kernel
