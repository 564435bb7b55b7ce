#include "kernel/sched/threads.hpp"

#include "hal/riscv/sv39.hpp"
#include "kernel/clock/clock.hpp"
#include "kernel/cpu.hpp"
#include "kernel/mm/address_space.hpp"
#include "kernel/module.hpp"
#include "kernel/proc/process.hpp"
#include "kernel/sched/blocking.hpp"

namespace nvx::kernel {
namespace sv39 = riscv::sv39;
ThreadTable g_threads;

i64 thread_create(const Thread* creator, UserAddr entry, u64 arg, UserAddr stack_top, i64 hart) {
    if (!g_space.is_user_mapped(entry, sv39::kExec)) return -NVX_EFAULT;
    if (stack_top.value() % 16 != 0 || !g_space.is_user_mapped(stack_top - 16, sv39::kRead | sv39::kWrite))
        return -NVX_EFAULT;
    if (hart != -1 && (hart < 1 || hart > static_cast<i64>(user_hart_count()))) return -NVX_EINVAL;
    Thread* t = g_threads.allocate();
    if (t == nullptr) return -NVX_EAGAIN;
    t->frame.sepc = entry.value();
    t->frame.x[kA0] = arg;
    t->frame.x[kSp] = stack_top.value();
    t->frame.x[kGp] = creator->frame.x[kGp];  // gp is program-wide (linker relaxation)
    t->copy = creator->copy;                   // a rank's threads share its globals
    t->has_rank = creator->has_rank;
    t->rank = creator->rank;
    t->affinity = static_cast<i32>(hart);
    g_process.live_threads++;
    clock_stamp_thread(t, clock_core_now());  // it starts from its creator's time
    g_scheduler.make_ready(t);
    return static_cast<i64>(t->id);
}

void thread_end(Thread* t, u64 how, u64 value) {
    for (const KernelModule* m = modules_begin(); m != modules_end(); m++)
        if (m->thread_ended != nullptr) m->thread_ended(t);
    t->state = ThreadState::Zombie;
    t->end = {how, value};
    // A crashed main thread ends the program (other threads may wait for it forever), as
    // does a thread that asked for it.
    if ((t->id == g_process.main_thread || t->fault_ends_program) && how == NVX_THREAD_KILLED) {
        program_exit(NVX_EXIT_KILLED + static_cast<u32>(value));
        return;
    }
    if (t->has_joiner) {
        Thread* joiner = t->joiner;
        // The address was checked when the join began, and user memory stays while the
        // program runs: a failed copy is the joiner's own unmapping, reported to it.
        bool copied = g_space.copy_to_user(joiner->join_status_address, &t->end, sizeof t->end);
        g_threads.release(t);
        wake(joiner, copied ? 0 : -NVX_EFAULT);
    }
    if (--g_process.live_threads == 0) program_exit(0);  // every thread ended without exit()
}

CallResult thread_join(Thread* caller, u64 id, UserAddr status_address) {
    Thread* target = g_threads.find(id);
    i64 result = 0;
    if (target == nullptr) {
        result = -NVX_ESRCH;
    } else if (target == caller) {
        result = -NVX_EDEADLK;
    } else if (target->has_joiner) {
        result = -NVX_EINVAL;
    } else if (!g_space.user_range_ok(status_address, sizeof(nvx_thread_status), sv39::kWrite)) {
        result = -NVX_EFAULT;
    } else if (target->state == ThreadState::Zombie) {
        if (!g_space.copy_to_user(status_address, &target->end, sizeof target->end)) result = -NVX_EFAULT;
        g_threads.release(target);
    } else {
        target->has_joiner = true;
        target->joiner = caller;
        caller->join_status_address = status_address;
        return block(caller, BlockReason::Join);
    }
    return resume_with(result);
}
}  // namespace nvx::kernel
