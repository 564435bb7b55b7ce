// Facts of the QEMU `virt` machine that the firmware drives (M-mode only).
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
inline constexpr u64 kUartBase = 0x10000000;
}  // namespace nvx::platform
