// The program this cluster runs: loading it, its threads' lives, and its end.
// Kernel-core only.
#pragma once
#include "kernel/bootargs.hpp"
#include "kernel/cpu.hpp"
#include "kernel/sched/thread.hpp"

namespace nvx::kernel {
// How a forwarded call left its thread.
enum class Outcome { Resume, Yield, Blocked, Ended };

struct Process {
    bool running = false;
    u32 live_threads = 0;   // threads not yet ended
    u64 main_thread = 0;
    u32 status = 0;          // exit status reported to the board
};
extern Process g_process;
extern ThreadTable g_threads;

// Loads the ELF in the program region with `args` and makes its first thread ready;
// returns 0 or a negative errno.
int start_program(const BootArgs& args);

// A new thread starts at entry(arg) on stack_top with the creator's gp.
i64 thread_create(const Thread* creator, u64 entry, u64 arg, u64 stack_top, i64 hart);
// Ends `t` (exit or fault); its joiner, if any, wakes.
void thread_end(Thread* t, u64 how, u64 value);
Outcome thread_join(Thread* caller, u64 id, u64 status_address);
// Ends the whole program with `status`: every thread stops, the board is told.
void program_exit(u32 status);
}  // namespace nvx::kernel
