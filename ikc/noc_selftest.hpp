// Boot-time self-tests of the NoC engine's isolation, run with the kernel's (selftest.hpp).
#pragma once

namespace nvx::ikc {
void noc_selftest();
}
