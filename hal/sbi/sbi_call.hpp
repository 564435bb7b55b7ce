// S-mode side of SBI: the ecall into the firmware.
#pragma once
#include "hal/sbi/sbi_ids.hpp"

namespace nvx::sbi {
inline Result call(u64 ext, u64 fn, u64 a0 = 0, u64 a1 = 0, u64 a2 = 0, u64 a3 = 0, u64 a4 = 0, u64 a5 = 0) {
    register u64 r0 asm("a0") = a0;
    register u64 r1 asm("a1") = a1;
    register u64 r2 asm("a2") = a2;
    register u64 r3 asm("a3") = a3;
    register u64 r4 asm("a4") = a4;
    register u64 r5 asm("a5") = a5;
    register u64 r6 asm("a6") = fn;
    register u64 r7 asm("a7") = ext;
    asm volatile("ecall" : "+r"(r0), "+r"(r1) : "r"(r2), "r"(r3), "r"(r4), "r"(r5), "r"(r6), "r"(r7) : "memory");
    return {static_cast<i64>(r0), r1};
}

// The caller's own timer: the firmware cannot refuse it.
inline void set_timer(u64 when) { static_cast<void>(call(kExtTime, 0, when)); }
[[nodiscard]] inline i64 send_ipi(u64 mask, u64 base) { return call(kExtIpi, 0, mask, base).error; }
[[nodiscard]] inline i64 hart_start(u64 hart, u64 start_phys, u64 opaque) { return call(kExtHsm, kHsmStart, hart, start_phys, opaque).error; }
inline Result hart_status(u64 hart) { return call(kExtHsm, kHsmStatus, hart); }
inline Result console_write(u64 phys, u64 len) { return call(kExtConsole, kConsoleWrite, len, phys, 0); }
// Does not return when it succeeds; the caller handles the return.
inline void system_reset(u64 type, u64 reason) { static_cast<void>(call(kExtReset, 0, type, reason)); }
}  // namespace nvx::sbi
