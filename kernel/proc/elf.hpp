// ELF64 executables for RISC-V: header and program-header checks (pure, host-tested).
#pragma once
#include "kernel/abi/nvx_abi.h"
#include "support/types.hpp"

namespace nvx::kernel::elf {
inline constexpr u32 kMaxSegments = 8;
inline constexpr u32 kFlagExec = 1, kFlagWrite = 2, kFlagRead = 4;

struct Segment {
    u64 vaddr;
    u64 memsz;
    u64 filesz;
    u64 offset;
    u32 flags;
};

struct Image {
    u64 entry;
    u64 end;          // highest vaddr + memsz over the segments below private_base
    u64 private_end;  // the same over the segments at or above it (0: none)
    u32 segment_count;
    Segment segments[kMaxSegments];
};

// W^X: a loadable segment both writable and executable is refused with this error (and
// only for that), so that exec can say why.
inline constexpr int kErrWritableAndExecutable = -NVX_EACCES;

// Checks `data[0..size)` is a static RISC-V ELF64 executable whose loadable segments lie
// in [user_low, user_high), none across private_base, and none is writable and
// executable; returns 0 or a negative errno (-ENOEXEC style: -EINVAL;
// kErrWritableAndExecutable for a W+X segment).
int parse(const u8* data, u64 size, u64 user_low, u64 private_base, u64 user_high, Image* out);
}  // namespace nvx::kernel::elf
