// The kernel core's life after boot: serve forwarded calls and the preemption tick,
// sleeping in wfi whenever there is nothing to do.
#pragma once

namespace nvx::kernel {
[[noreturn]] void core_loop();
// Sleeps in wfi until `ready` user harts reported in.
void wait_for_user_harts(unsigned ready);
}
