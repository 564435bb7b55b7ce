#include "kernel/mm/address_space.hpp"
#include "kernel/module.hpp"
#include "kernel/sched/futex.hpp"
#include "kernel/syscall/syscalls.hpp"

namespace nvx::kernel {
namespace {
Outcome resume_with(Thread* t, i64 result) {
    t->frame.x[kA0] = static_cast<u64>(result);
    return Outcome::Resume;
}
}  // namespace

Outcome handle_forwarded_call(Cpu& c, Thread* t) {
    u64* x = t->frame.x;
    switch (x[kA7]) {
    case NVX_SYS_EXIT:
        program_exit(static_cast<u32>(x[kA0] & 0xff));
        return Outcome::Ended;
    case NVX_SYS_THREAD_CREATE:
        return resume_with(t, thread_create(t, x[kA0], x[kA1], x[kA2], static_cast<i64>(x[kA3])));
    case NVX_SYS_THREAD_EXIT:
        thread_end(t, NVX_THREAD_EXITED, x[kA0]);
        return Outcome::Ended;
    case NVX_SYS_THREAD_JOIN: return thread_join(t, x[kA0], x[kA1]);
    case NVX_SYS_THREAD_YIELD: t->frame.x[kA0] = 0; return Outcome::Yield;
    case NVX_SYS_FUTEX_WAIT: return futex_wait(t, x[kA0], static_cast<u32>(x[kA1]));
    case NVX_SYS_FUTEX_WAKE: return resume_with(t, futex_wake(x[kA0], x[kA1]));
    case NVX_SYS_BRK: return resume_with(t, g_space.set_brk(x[kA0]));
    case NVX_SYS_EXEC: {
        i64 r = program_exec(x[kA0], x[kA1], x[kA2], x[kA3]);
        return r == 0 ? Outcome::Ended : resume_with(t, r);
    }
    case NVX_SYS_POWEROFF: return resume_with(t, board_power_off(x[kA0]));
    case NVX_SYS_MAP_IMAGE: return resume_with(t, map_launch_image(x[kA0]));
    default: {
        const KernelModule* module = module_for_call(x[kA7]);
        return module != nullptr ? module->call(c, t) : resume_with(t, -NVX_ENOSYS);
    }
    }
}
}  // namespace nvx::kernel
