// Launch-time arguments (QEMU -append, via the firmware):
//   [kernel options] -- program argv...
// Kernel options: the names of kernel/options.hpp. Pure, host-tested.
#pragma once
#include "hal/board/boot_info.hpp"
#include "kernel/config.hpp"
#include "kernel/options.hpp"

namespace nvx::kernel {
struct BootArgs {
    u32 options = 0;  // bit (1 << KernelOption) for each option named
    bool has(KernelOption o) const { return (options >> static_cast<u32>(o)) & 1; }
    u32 argc = 0;
    const char* argv[kMaxArgs];
    u32 envc = 0;
    const char* envp[kMaxArgs];
    char storage[board::kBootArgsMax];
    const char* error = nullptr;  // set when parsing failed
};

// Parses `text` into `out` (argv points into out->storage). False with out->error set
// for an unknown option or too many arguments.
bool parse_bootargs(const char* text, BootArgs* out);

// Makes argv, then envp, of the NUL-separated strings in block[0..size): argv strings, an
// empty string, environment strings (block is out->storage or outlives out). False if
// argv is empty, a list is too long, or the last string is unterminated.
bool split_args(char* block, u64 size, BootArgs* out);
}  // namespace nvx::kernel
