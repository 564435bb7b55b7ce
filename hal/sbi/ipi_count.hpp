// What a kernel shows the firmware's deadlock watch of the IPIs it raises through the
// SSWI (SBI vendor call watch_ipis, one per local hart): the register reads back nothing.
#pragma once
#include "support/types.hpp"

namespace nvx::sbi {
struct IpiCount {
    u64 begun;   // bumped before the SSWI store
    u64 raised;  // bumped after it
};
}  // namespace nvx::sbi
