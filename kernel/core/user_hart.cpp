#include "kernel/core/user_hart.hpp"

#include "hal/riscv/csr.hpp"
#include "hal/riscv/sv39.hpp"
#include "kernel/clock/clock.hpp"
#include "kernel/console.hpp"
#include "kernel/layout.hpp"
#include "kernel/mm/address_space.hpp"
#include "kernel/sched/futex.hpp"
#include "kernel/sched/scheduler.hpp"
#include "kernel/syscall/call_table.hpp"
#include "support/atomic.hpp"

namespace nvx::kernel {
namespace {
void set_root(Cpu& c, u64 satp) {
    if (c.satp != satp) {
        NVX_CSR_WRITE(satp, satp);
        c.satp = satp;
    }
}

// The thread's root (its copy of the private region); the TLB is flushed when the user
// translations it may hold are another root's.
void use_thread_root(Cpu& c, const Thread* t) {
    u64 satp = g_space.satp_of(t->copy);
    set_root(c, satp);
    if (c.user_satp != satp) {
        asm volatile("sfence.vma" ::: "memory");
        c.user_satp = satp;
    }
}

// Out of user code, the hart goes back to the program's root: a copy's root table is
// freed with the program while the hart may sit in the kernel (the kernel's half of every
// root is the same, and global).
void use_program_root(Cpu& c) { set_root(c, g_space.satp()); }

[[noreturn]] void run_thread(Cpu& c, Thread* t) {
    u64 epoch = g_space.epoch();
    if (c.space_epoch != epoch) {  // a new program: no translation of the old one may survive
        asm volatile("sfence.vma" ::: "memory");
        c.space_epoch = epoch;
        c.user_satp = 0;
    }
    use_thread_root(c, t);
    t->frame.kernel_sp = c.stack_top;
    t->frame.kernel_tp = reinterpret_cast<u64>(&c);
    u64 status = NVX_CSR_READ(sstatus);
    if (c.fp_loaded != t || t->fp_cpu != &c) {
        NVX_CSR_WRITE(sstatus, (status & ~riscv::kStatusFSMask) | riscv::kStatusFSInitial);
        fp_restore(&t->fp);
        c.fp_loaded = t;
        t->fp_cpu = &c;
    }
    status &= ~(riscv::kStatusSPP | riscv::kStatusFSMask | riscv::kStatusSUM);
    status |= riscv::kStatusSPIE | riscv::kStatusFSClean;
    NVX_CSR_WRITE(sstatus, status);
    return_to_user(&t->frame);
}

// Sleeps until the kernel core hands this hart a thread. The hart looks for work only
// after an IPI (the core sends one after every dispatch and signal), so the IPI of a
// dispatch never interrupts the thread later at a host-timed moment.
[[noreturn]] void wait_for_dispatch(Cpu& c) {
    use_program_root(c);
    for (;;) {
        if (NVX_CSR_READ(sip) & riscv::kIntSSoft) {
            // The wake-up starts when the hart sees the IPI, on one path: whether it got
            // there through a wfi or found the IPI already pending is the host's timing.
            u64 waited_from = clock_now(c.local);
            NVX_CSR_CLEAR(sip, riscv::kIntSSoft);
            // Nothing runs here: nothing to preempt or kill; a kill is acknowledged at once.
            if (atomic::exchange_acq_rel(&c.signals, 0u) & kSignalKill) send_ipi(cpu_at(0));
            Thread* next = atomic::exchange_acq_rel(&c.dispatch, static_cast<Thread*>(nullptr));
            if (next != nullptr) {
                clock_thread_arrives(c, next, waited_from);
                // A fresh quantum starts here, in the thread's virtual time.
                if (atomic::load_relaxed(&next->run_since) == kQuantumAtArrival)
                    atomic::store_relaxed(&next->run_since, clock_now(c.local));
                run_thread(c, next);
            }
        }
        idle_until_interrupt();
    }
}

// Hands `t`, whose time already left `c`, to the kernel core.
[[noreturn, gnu::always_inline]] inline void hand_to_core(Cpu& c, Thread* t, RequestKind kind, u64 cause = 0) {
    c.kind = kind;
    c.fault_cause = cause;
    atomic::store_release(&c.posted, t);
    atomic::fetch_or(&g_posted_harts, u64{1} << c.local);
    send_ipi(cpu_at(0));
    wait_for_dispatch(c);
}

[[noreturn]] void post(Cpu& c, Thread* t, RequestKind kind, u64 cause = 0) {
    clock_thread_leaves(c, t);  // the thread may come back on another hart
    hand_to_core(c, t, kind, cause);
}

// `t` sleeps in a futex wait on `c` (futex.hpp). The hart idles until an IPI: the waker's
// (the thread runs on, as if dispatched here, with no trip through the kernel core), a
// kill (as in wait_for_dispatch), or a preempt signal, sent when another thread wants the
// hart: the sleeper then goes to the kernel core as an ordinary waiter and the hart is
// freed. A thread that already waited for a hart when `t` parked counts as that signal.
[[noreturn]] void park(Cpu& c, Thread* t) {
    use_program_root(c);
    atomic::fence();  // the parked mark before the look at the ready queue (Scheduler::enqueue)
    bool give_up = g_scheduler.has_waiting_seen();
    u64 waited_from = clock_now(c.local);
    for (bool look = give_up;; look = false) {
        if (NVX_CSR_READ(sip) & riscv::kIntSSoft) {
            waited_from = clock_now(c.local);  // the wake-up counts from here, as a dispatch's
            NVX_CSR_CLEAR(sip, riscv::kIntSSoft);
            u32 signals = atomic::exchange_acq_rel(&c.signals, 0u);
            if (signals & kSignalKill) {
                send_ipi(cpu_at(0));
                wait_for_dispatch(c);
            }
            give_up |= (signals & kSignalPreempt) != 0;
            look = true;
        }
        if (look) {
            switch (futex_park_check(t, give_up)) {
            case ParkEnd::Woken:
                t->state = ThreadState::Running;
                t->blocked_on = BlockReason::None;
                clock_thread_arrives(c, t, waited_from);
                // A fresh quantum, as a dispatch's: else, after its first one, every tick
                // that finds a thread queued would preempt the thread at once.
                atomic::store_relaxed(&t->run_since, clock_is_virtual() ? clock_now(c.local) : riscv::read_time());
                if (give_up) post(c, t, RequestKind::Preempt);
                run_thread(c, t);
            case ParkEnd::Unparked: hand_to_core(c, t, RequestKind::Unpark);
            case ParkEnd::Waiting: break;
            }
        }
        idle_until_interrupt();
    }
}

// Another hart may have just mapped this page (heap growth): a stale TLB entry is not a
// fault. Re-walk the table and retry once the mapping grants the access.
bool mapped_now(u64 cause, const Thread* t, u64 address) {
    u64 need = cause == riscv::kStorePageFault ? riscv::sv39::kWrite
               : cause == riscv::kInstructionPageFault ? riscv::sv39::kExec : riscv::sv39::kRead;
    if (!g_space.is_user_mapped(user_address(t, address), need)) return false;
    asm volatile("sfence.vma %0" ::"r"(address) : "memory");
    return true;
}

[[noreturn]] void user_fault(Cpu& c, Thread* t, u64 cause) {
    u64 address = NVX_CSR_READ(stval);
    bool page_fault = cause == riscv::kLoadPageFault || cause == riscv::kStorePageFault ||
                      cause == riscv::kInstructionPageFault;
    if (page_fault && mapped_now(cause, t, address)) run_thread(c, t);
    char name[48];
    thread_name(t, name, sizeof name);
    kprint("[cluster %u hart %u] %s killed: %s at address 0x%lx (pc 0x%lx)\n", g_layout.index, c.hart, name,
           riscv::cause_name(cause), address, t->frame.sepc);
    post(c, t, RequestKind::Fault, cause);
}
}  // namespace

extern "C" [[noreturn]] void user_trap(TrapFrame* frame) {
    Cpu& c = this_cpu();
    Thread* t = reinterpret_cast<Thread*>(frame);
    if ((NVX_CSR_READ(sstatus) & riscv::kStatusFSMask) == riscv::kStatusFSDirty) {
        fp_save(&t->fp);
        c.fp_loaded = t;
        t->fp_cpu = &c;
    }
    u64 cause = NVX_CSR_READ(scause);
    if (cause & riscv::kCauseInterrupt) {
        NVX_CSR_CLEAR(sip, riscv::kIntSSoft);
        u32 signals = atomic::exchange_acq_rel(&c.signals, 0u);
        if (signals & kSignalKill) {
            use_program_root(c);
            send_ipi(cpu_at(0));  // the core waits for every hart to leave the old program
            wait_for_dispatch(c);
        }
        if (signals & kSignalPreempt) post(c, t, RequestKind::Preempt);
        run_thread(c, t);
    }
    if (cause == riscv::kEcallFromU) {
        frame->sepc += 4;
        switch (run_call_here(c, t)) {
        case HereOutcome::Done: run_thread(c, t);
        case HereOutcome::Parked: park(c, t);
        case HereOutcome::Post: post(c, t, RequestKind::Syscall);
        }
    }
    user_fault(c, t, cause);
}

void user_hart_main(Cpu& c) {
    c.satp = g_space.satp();
    NVX_CSR_WRITE(stvec, reinterpret_cast<u64>(&kernelvec));
    NVX_CSR_WRITE(sie, riscv::kIntSSoft);
    NVX_CSR_WRITE(scounteren, 0x7);  // user code reads cycle, time and instret
    atomic::fetch_add(&cpu_at(0).ready, 1u);
    send_ipi(cpu_at(0));
    wait_for_dispatch(c);
}
}  // namespace nvx::kernel
