// Just enough of the flattened device tree to read what QEMU hands the firmware:
// /chosen/bootargs (launch arguments from -append) and the number of harts (/cpus).
#pragma once
#include "support/types.hpp"

namespace nvx::fdt {
struct Facts {
    const char* bootargs = nullptr;  // points into the blob; NUL-terminated
    u32 bootargs_length = 0;
    u32 cpu_count = 0;
    bool valid = false;
};

// Parses a blob of at most `capacity` bytes; valid is false if it is not a sane FDT.
Facts read_facts(const u8* blob, u64 capacity);
}  // namespace nvx::fdt
