// Boot-time isolation self-tests of the kernel core (kernel option `selftest`): S-mode
// accesses outside this cluster must fault through PMP, and SBI must refuse requests
// naming other clusters. Prints one line per check; returns the number of failures.
#pragma once

namespace nvx::kernel {
unsigned run_selftests();
}
