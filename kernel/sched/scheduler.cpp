#include "kernel/sched/scheduler.hpp"

#include "hal/riscv/csr.hpp"
#include "kernel/clock/clock.hpp"
#include "kernel/sched/futex.hpp"
#include "support/atomic.hpp"
#include "support/bits.hpp"

namespace nvx::kernel {
Scheduler g_scheduler;

namespace {
constexpr u64 kQuantumTicks = board::kTimerHz * kTickMicroseconds / 1'000'000;
constexpr u64 kQuantumCycles = board::kCoreHz / 1'000'000 * kTickMicroseconds;

// Whether `t`, running on a user hart, used its quantum. `board_now` is the board clock;
// under the virtual clock the thread's own time counts instead (until it reaches its
// hart, nothing of the quantum is used). The hart writes run_since at arrival.
bool used_quantum(const Thread* t, u64 board_now) {
    if (!clock_is_virtual()) return board_now - t->run_since >= kQuantumTicks;
    u64 from = atomic::load_relaxed(&t->run_since);
    u64 now = clock_now(t->cpu->local);
    return from != kQuantumAtArrival && now > from && now - from >= kQuantumCycles;
}
}  // namespace

void Scheduler::dispatch(Cpu& c, Thread* t) {
    atomic::store_relaxed(&t->run_since, clock_is_virtual() ? kQuantumAtArrival : riscv::read_time());
    hand_over(c, t);
}

void Scheduler::hand_over(Cpu& c, Thread* t) {
    t->state = ThreadState::Running;
    t->cpu = &c;
    c.running = t;
    busy_ |= u64{1} << c.local;
    atomic::store_release(&c.dispatch, t);
    send_ipi(c);
}

void Scheduler::make_ready(Thread* t) {
    ClockUncharged uncharged;  // where it goes, and what that costs, follows the host's order
    t->state = ThreadState::Ready;
    t->blocked_on = BlockReason::None;
    // Woken inside its own kernel call (the service that blocked it also ended its wait):
    // its hart is still held for it, and it goes back there when the call ends
    // (handle_request), not to whichever hart the host happened to free first.
    if (t->cpu != nullptr && t->cpu->running == t) return;
    u64 user_harts = ((u64{1} << user_hart_count()) - 1) << 1;  // locals 1..n
    u64 allowed = t->affinity < 0 ? user_harts : u64{1} << t->affinity;
    u64 idle = allowed & user_harts & ~busy_;
    if (idle == 0) {
        enqueue(t, allowed);
        return;
    }
    // Back to the hart it last ran on when that one is free: its FP registers are still there.
    u64 last = t->cpu != nullptr ? idle & (u64{1} << t->cpu->local) : 0;
    dispatch(cpu_at(lowest_set_bit(last != 0 ? last : idle)), t);
}

bool Scheduler::quantum_used(const Thread* t) { return used_quantum(t, riscv::read_time()); }

void Scheduler::enqueue(Thread* t, u64 allowed) {
    ready_.push(t);
    atomic::store_relaxed(&waiting_, 1u);
    atomic::fence();  // against a hart parking now: it sees waiting_, or we see it parked
    for (u64 busy = allowed & busy_; busy != 0; busy &= busy - 1) {
        Cpu& c = cpu_at(lowest_set_bit(busy));
        Thread* sleeper = c.running;
        if (sleeper != nullptr && atomic::load_acquire(&sleeper->parked) == kParked) {
            atomic::fetch_or(&c.signals, static_cast<u32>(kSignalPreempt));
            send_ipi(c);
            return;
        }
    }
}

Thread* Scheduler::take_for(const Cpu& c) {
    Thread* next = ready_.take_first([&](Thread* candidate) { return may_run(candidate, c); });
    if (ready_.empty()) atomic::store_release(&waiting_, 0u);
    return next;
}

void Scheduler::yield(Cpu& c, Thread* t) {
    Thread* next = take_for(c);
    if (next == nullptr) {
        dispatch(c, t);
        return;
    }
    set_idle(c);
    dispatch(c, next);
    make_ready(t);
}

void Scheduler::set_idle(Cpu& c) {
    c.running = nullptr;
    busy_ &= ~(u64{1} << c.local);
}

void Scheduler::release_cpu(Cpu& c) {
    set_idle(c);
    Thread* next = take_for(c);
    if (next != nullptr) dispatch(c, next);
}

void Scheduler::tick(u64 now) {
    if (ready_.empty()) return;
    for (u64 busy = busy_; busy != 0; busy &= busy - 1) {
        Cpu& c = cpu_at(lowest_set_bit(busy));
        Thread* t = c.running;
        if (!used_quantum(t, now)) continue;
        atomic::fetch_or(&c.signals, static_cast<u32>(kSignalPreempt));
        send_ipi(c);
    }
}

void Scheduler::clear() {
    while (ready_.pop() != nullptr) {
    }
    atomic::store_release(&waiting_, 0u);
    for (u64 busy = busy_; busy != 0; busy &= busy - 1) cpu_at(lowest_set_bit(busy)).running = nullptr;
    busy_ = 0;
}
}  // namespace nvx::kernel
