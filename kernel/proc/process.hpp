// The program this cluster runs: loading it, exec, and its end (its threads' lives are in
// kernel/sched/threads.hpp). Kernel-core only.
#pragma once
#include "kernel/bootargs.hpp"
#include "kernel/cpu.hpp"
#include "kernel/mm/user_addr.hpp"
#include "kernel/sched/thread.hpp"

namespace nvx::kernel {
struct Process {
    bool running = false;
    bool system = false;     // the system program (read-only region) rather than an exec'd one
    u32 live_threads = 0;    // threads not yet ended
    u64 main_thread = 0;
    u64 generation = 0;      // counts programs started on this cluster
    bool image_mapped = false;
};
extern Process g_process;

// Starts the system program (the ELF in the read-only program region) with `args`;
// returns 0 or a negative errno.
int start_system_program(const BootArgs& args);

// Replaces the system program with the ELF image[0..size) of user memory, with the
// NUL-separated argument strings args[0..args_size). Returns a negative errno, or 0 once
// the new program runs (the caller is gone). When it ends, the system program restarts
// with argv "nvx-system exited STATUS".
i64 program_exec(UserAddr image, u64 size, UserAddr args, u64 args_size);

// System program of an I/O cluster only: powers the board off with `status`.
i64 board_power_off(u64 status);
// System program of the first I/O cluster only: maps the launcher's program image
// (`size` bytes) read-only at NVX_USER_IMAGE_BASE and returns that address.
i64 map_launch_image(u64 size);

// Ends the whole program with `status`: every thread stops, its memory is freed.
void program_exit(u32 status);
}  // namespace nvx::kernel
