#pragma once
#include "hal/sbi/sbi_ids.hpp"

namespace nvx::firmware {
// Serves one SBI call (a7 = ext, a6 = fn, a0..a5 = args) from the current hart.
sbi::Result sbi_dispatch(u64 ext, u64 fn, const u64 args[6]);
}
