// Boot-time isolation self-tests of the kernel core (kernel option `selftest`): S-mode
// accesses outside this cluster must fault through PMP, and SBI must refuse requests
// naming other clusters; modules add their own checks (KernelModule::selftest). Prints one
// line per check; returns the number of failures.
#pragma once

#include "support/types.hpp"

namespace nvx::kernel {
// Runs the kernel's checks, then every module's.
unsigned run_selftests();

// For the checks of modules: one line per check, counted when it fails.
void selftest_report(const char* name, bool pass, const char* detail);
// The SBI call answered `got`; it must refuse with `expected`.
void expect_sbi(const char* name, i64 got, i64 expected);
}  // namespace nvx::kernel
