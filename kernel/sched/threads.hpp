// The lives of the program's threads: create, end, join. Kernel core only.
#pragma once
#include "kernel/mm/user_addr.hpp"
#include "kernel/sched/outcome.hpp"
#include "kernel/sched/thread.hpp"

namespace nvx::kernel {
extern ThreadTable g_threads;

// A new thread starts at entry(arg) on stack_top with the creator's gp; returns its id or
// a negative errno.
i64 thread_create(const Thread* creator, UserAddr entry, u64 arg, UserAddr stack_top, i64 hart);
// Ends `t` (exit or fault); its joiner, if any, wakes. The last thread ends the program.
void thread_end(Thread* t, u64 how, u64 value);
// Waits for thread `id` to end and stores how it ended at status_address.
CallResult thread_join(Thread* caller, u64 id, UserAddr status_address);
}  // namespace nvx::kernel
