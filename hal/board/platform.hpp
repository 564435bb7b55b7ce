// Facts of the QEMU `virt` machine (aclint=on) that the firmware drives, M-mode only but
// for the SSWI registers of a kernel's own cluster.
#pragma once
#include "support/types.hpp"

namespace nvx::platform {
inline constexpr u64 kTestFinisher = 0x100000;
inline constexpr u32 kFinisherPass = 0x5555;
inline constexpr u32 kFinisherFail = 0x3333;
inline constexpr u64 kClintBase = 0x2000000;
inline constexpr u64 kClintMsip = kClintBase;             // u32 per hart
inline constexpr u64 kClintMtimecmp = kClintBase + 0x4000; // u64 per hart
inline constexpr u64 kClintMtime = kClintBase + 0xbff8;
// ACLINT SSWI (virt,aclint=on): a u32 SETSSIP per hart; writing 1 raises that hart's SSIP.
// Each kernel may write its own cluster's registers (PMP), so IPIs inside a cluster do not
// pass through the firmware.
inline constexpr u64 kSswiBase = 0x2f00000;
inline constexpr u64 kSswiBytesPerHart = 4;
inline constexpr u64 kUartBase = 0x10000000;
}  // namespace nvx::platform
