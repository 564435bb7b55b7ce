// The kernel's part in the firmware's deadlock detector (hal/firmware/idle.hpp): when
// every hart of the board sleeps with nothing to wake it, the firmware sets a word this
// kernel registered and wakes its core, which prints what each of its threads waits for
// (and the note the thread's program left, NVX_SYS_WAIT_NOTE), then tells the firmware.
// Kernel core only.
#pragma once
#include "kernel/sched/outcome.hpp"
#include "kernel/sched/thread.hpp"

namespace nvx::kernel {
// At boot: registers the word with the firmware.
void watch_deadlock();
// From the core loop: prints the report once asked; true if it did. One load otherwise.
extern u64 g_deadlock_word;
void print_deadlock_report();
inline bool poll_deadlock() {
    if (__atomic_load_n(&g_deadlock_word, __ATOMIC_RELAXED) == 0) return false;
    print_deadlock_report();
    return true;
}
// The kernel call: `note` (a user string of at most NVX_WAIT_NOTE_MAX bytes, or 0 for
// none) describes what the calling thread waits for whenever it blocks.
CallResult set_wait_note(Thread* caller, UserAddr note);
}  // namespace nvx::kernel
