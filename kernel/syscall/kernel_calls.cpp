// The kernel's own calls: the table (number, where it runs, handler) and the handlers of
// the calls that run on the calling hart. Modules list theirs with their descriptor.
#include "hal/riscv/csr.hpp"
#include "hal/riscv/sv39.hpp"
#include "kernel/clock/clock.hpp"
#include "kernel/console.hpp"
#include "kernel/layout.hpp"
#include "kernel/mm/address_space.hpp"
#include "kernel/proc/cluster_ends.hpp"
#include "kernel/proc/deadlock_report.hpp"
#include "kernel/proc/process.hpp"
#include "kernel/sched/futex.hpp"
#include "kernel/sched/sleepers.hpp"
#include "kernel/sched/threads.hpp"
#include "kernel/syscall/call_table.hpp"
#include "support/string.hpp"

namespace nvx::kernel {
namespace {
// --- on the calling hart: they read only the caller's own state ---
CallResult sys_write(Thread* t, const CallArgs& a) {
    u64 fd = a.a0, length = a.a2;
    UserAddr buffer = user_address(t, a.a1);
    if (fd != 1 && fd != 2) return resume_with(-NVX_EBADF);
    if (!g_space.user_range_ok(buffer, length, riscv::sv39::kRead)) return resume_with(-NVX_EFAULT);
    char chunk[kConsoleChunk];
    for (u64 done = 0; done < length;) {
        u64 n = length - done < sizeof chunk ? length - done : sizeof chunk;
        if (!g_space.copy_from_user(chunk, buffer + done, n)) return resume_with(-NVX_EFAULT);
        console_write_kernel(chunk, n);
        done += n;
    }
    return resume_with(static_cast<i64>(length));
}

CallResult sys_thread_self(Thread* t, const CallArgs&) { return resume_with(static_cast<i64>(t->id)); }

CallResult sys_info(Thread* t, const CallArgs& a) {
    const board::Board& b = board::kBoard;
    Cpu& c = this_cpu();
    nvx_info info{};
    info.cluster = g_layout.index;
    info.cluster_count = b.cluster_count;
    info.compute_count = b.compute_count;
    info.hart = c.hart;
    info.local_hart = c.local;
    info.user_harts = user_hart_count();
    info.first_user_hart = 1;
    info.max_threads = kMaxThreads;
    info.user_memory = g_space.user_memory();
    info.free_memory = g_pages.free_pages() * board::kPageSize;
    str_copy(info.board, sizeof info.board, b.name);
    info.node = g_layout.cluster->first_node;
    info.nodes = g_layout.cluster->nodes;
    info.node_count = b.node_count;
    info.compute_user_harts = b.cluster(b.first_compute()).harts - 1;
    return resume_with(g_space.copy_to_user(user_address(t, a.a0), &info, sizeof info) ? 0 : -NVX_EFAULT);
}

CallResult sys_node_of(Thread*, const CallArgs& a) {
    const board::Board& b = board::kBoard;
    u64 cluster = a.a0, interface = a.a1;
    if (cluster >= b.cluster_count || interface >= b.cluster(static_cast<u32>(cluster)).nodes)
        return resume_with(-NVX_EINVAL);
    return resume_with(b.cluster(static_cast<u32>(cluster)).first_node + static_cast<i64>(interface));
}

CallResult sys_clock_take(Thread* t, const CallArgs& a) {
    u64 stamp = a.a0;
    if (!clock_stamp_ok(stamp)) return resume_with(-NVX_EINVAL);
    clock_user_take(this_cpu(), t, stamp);
    return resume_with(0);
}

CallResult sys_wait_note(Thread* t, const CallArgs& a) { return set_wait_note(t, user_address(t, a.a0)); }

// Only the calling thread writes its own flag; the kernel core reads it when the thread ends.
CallResult sys_fault_ends_program(Thread* t, const CallArgs&) {
    __atomic_store_n(&t->fault_ends_program, true, __ATOMIC_RELEASE);
    return resume_with(0);
}

CallResult sys_clock_server(Thread* t, const CallArgs&) {
    clock_make_server(this_cpu(), t);
    return resume_with(0);
}

// --- on the kernel core ---
CallResult sys_exit(Thread*, const CallArgs& a) {
    program_exit(static_cast<u32>(a.a0 & 0xff));
    return ended();
}

CallResult sys_thread_create(Thread* t, const CallArgs& a) {
    return resume_with(thread_create(t, user_address(t, a.a0), a.a1, user_address(t, a.a2), static_cast<i64>(a.a3)));
}

CallResult sys_thread_exit(Thread* t, const CallArgs& a) {
    thread_end(t, NVX_THREAD_EXITED, a.a0);
    return ended();
}

CallResult sys_thread_join(Thread* t, const CallArgs& a) { return thread_join(t, a.a0, user_address(t, a.a1)); }
CallResult sys_thread_yield(Thread*, const CallArgs&) { return yield_with(0); }
CallResult sys_futex_wait(Thread* t, const CallArgs& a) { return futex_wait(t, user_address(t, a.a0), static_cast<u32>(a.a1)); }
bool sys_futex_wait_here(Cpu& c, Thread* t, const CallArgs& a, CallResult* out) {
    return futex_wait_here(c, t, user_address(t, a.a0), static_cast<u32>(a.a1), out);
}
CallResult sys_sleep_until(Thread* t, const CallArgs& a) { return sleep_until(t, a.a0, riscv::read_time()); }
CallResult sys_brk(Thread*, const CallArgs& a) { return resume_with(g_space.set_brk(a.a0)); }

CallResult sys_cluster_end_wait(Thread* t, const CallArgs&) { return cluster_end_wait(t); }

CallResult sys_stack_map(Thread*, const CallArgs& a) {
    u64 size = a.a0;
    if (size == 0 || size > NVX_USER_THREAD_STACK_MAX) return resume_with(-NVX_EINVAL);
    return resume_with(g_space.map_thread_stack(align_up(size, riscv::sv39::kPageSize)));
}

CallResult sys_exec(Thread* t, const CallArgs& a) {
    i64 r = program_exec(user_address(t, a.a0), a.a1, user_address(t, a.a2), a.a3);
    return r == 0 ? ended() : resume_with(r);
}

CallResult sys_private_enter(Thread* t, const CallArgs& a) {
    i64 rank = static_cast<i64>(a.a0);
    if (rank < 0 || rank > 0x7fffffff) return resume_with(-NVX_EINVAL);
    if (t->copy != 0 || t->has_rank) return resume_with(-NVX_EBUSY);
    i64 copy = g_space.private_bytes() == 0 ? 0 : g_space.make_private_copy();
    if (copy < 0) return resume_with(copy);
    t->copy = static_cast<u32>(copy);
    t->has_rank = true;
    t->rank = static_cast<u32>(rank);
    return resume_with(copy == 0 ? 0 : static_cast<i64>(private_copies::shared_base(t->copy)));
}

constexpr RunsOn kHere = RunsOn::CallerHart, kCore = RunsOn::KernelCore;
}  // namespace

const KernelCall kKernelCalls[] = {
    {NVX_SYS_WRITE, kHere, sys_write},
    {NVX_SYS_EXIT, kCore, sys_exit},
    {NVX_SYS_THREAD_CREATE, kCore, sys_thread_create},
    {NVX_SYS_THREAD_EXIT, kCore, sys_thread_exit},
    {NVX_SYS_THREAD_JOIN, kCore, sys_thread_join},
    {NVX_SYS_THREAD_YIELD, kCore, sys_thread_yield},
    {NVX_SYS_THREAD_SELF, kHere, sys_thread_self},
    {NVX_SYS_FUTEX_WAIT, kCore, sys_futex_wait, sys_futex_wait_here},
    {NVX_SYS_FUTEX_WAKE, kHere, call_with<futex_wake>},
    {NVX_SYS_BRK, kCore, sys_brk},
    {NVX_SYS_STACK_MAP, kCore, sys_stack_map},
    {NVX_SYS_CLUSTER_END_WAIT, kCore, sys_cluster_end_wait},
    {NVX_SYS_CLOCK_TAKE, kHere, sys_clock_take},
    {NVX_SYS_CLOCK_SERVER, kHere, sys_clock_server},
    {NVX_SYS_WAIT_NOTE, kHere, sys_wait_note},
    {NVX_SYS_FAULT_ENDS_PROGRAM, kHere, sys_fault_ends_program},
    {NVX_SYS_PRIVATE_ENTER, kCore, sys_private_enter},
    {NVX_SYS_INFO, kHere, sys_info},
    {NVX_SYS_NODE_OF, kHere, sys_node_of},
    {NVX_SYS_EXEC, kCore, sys_exec},
    {NVX_SYS_POWEROFF, kCore, call_with<board_power_off>},
    {NVX_SYS_MAP_IMAGE, kCore, call_with<map_launch_image>},
    {NVX_SYS_SLEEP_UNTIL, kCore, sys_sleep_until},
};
const u32 kKernelCallCount = sizeof kKernelCalls / sizeof kKernelCalls[0];
}  // namespace nvx::kernel
