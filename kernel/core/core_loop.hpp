// The kernel core's life after boot: serve forwarded calls and the preemption tick,
// sleeping in wfi whenever there is nothing to do.
#pragma once

namespace nvx::kernel {
[[noreturn]] void core_loop();
}
