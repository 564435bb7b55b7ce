// The devices of the `virt` machine the firmware drives: CLINT, UART and test finisher.
#pragma once
#include "hal/board/platform.hpp"

namespace nvx::firmware {
inline volatile u32* msip(u64 hart) { return reinterpret_cast<volatile u32*>(platform::kClintMsip) + hart; }
inline volatile u64* mtimecmp(u64 hart) { return reinterpret_cast<volatile u64*>(platform::kClintMtimecmp) + hart; }

inline void uart_putc(char c) {
    auto* uart = reinterpret_cast<volatile u8*>(platform::kUartBase);
    constexpr u64 kLineStatus = 5;
    constexpr u8 kTransmitEmpty = 1 << 5;
    while ((uart[kLineStatus] & kTransmitEmpty) == 0) {
    }
    uart[0] = static_cast<u8>(c);
}

[[noreturn]] inline void finisher_exit(u32 status) {
    auto* finisher = reinterpret_cast<volatile u32*>(platform::kTestFinisher);
    *finisher = status == 0 ? platform::kFinisherPass : ((status & 0xffff) << 16) | platform::kFinisherFail;
    for (;;) asm volatile("wfi");
}

[[noreturn]] inline void finisher_reset() {
    constexpr u32 kFinisherReset = 0x7777;
    *reinterpret_cast<volatile u32*>(platform::kTestFinisher) = kFinisherReset;
    for (;;) asm volatile("wfi");
}
}  // namespace nvx::firmware
