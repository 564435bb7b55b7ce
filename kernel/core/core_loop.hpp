// The kernel core's life after boot: serve forwarded calls and the preemption tick,
// sleeping in wfi whenever there is nothing to do.
#pragma once

namespace nvx::kernel {
[[noreturn]] void core_loop();
// Sleeps in wfi until `ready` user harts reported in.
void wait_for_user_harts(unsigned ready);
// Sleeps in wfi until every user hart acknowledged its kill signal (runs no user code).
void wait_for_user_harts_quiet();
}
