// Kernel-call dispatch. Calls that only read the caller's own state run on the calling
// hart; the others are forwarded to the kernel core, which owns all shared state.
#pragma once
#include "kernel/proc/process.hpp"

namespace nvx::kernel {
// On the calling hart: true if the call was local and its result is in a0.
bool handle_local_call(Thread* t);
// On the kernel core.
Outcome handle_forwarded_call(Cpu& c, Thread* t);
}  // namespace nvx::kernel
