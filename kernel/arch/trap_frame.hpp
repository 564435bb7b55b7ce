// A user thread's saved registers, as uservec stores them (offsets are used by trap.S).
#pragma once
#include "support/types.hpp"

namespace nvx::kernel {
struct TrapFrame {
    u64 x[32];      // x[n] = register xn; x[0] is unused
    u64 sepc;       // 256
    u64 kernel_sp;  // 264: top of the kernel stack of the hart running this thread
    u64 kernel_tp;  // 272: that hart's Cpu*
};
static_assert(__builtin_offsetof(TrapFrame, sepc) == 256);
static_assert(__builtin_offsetof(TrapFrame, kernel_sp) == 264);
static_assert(__builtin_offsetof(TrapFrame, kernel_tp) == 272);

struct FpState {
    u64 f[32];
    u64 fcsr;
};

enum Reg : u32 { kRa = 1, kSp = 2, kGp = 3, kTp = 4, kA0 = 10, kA1, kA2, kA3, kA4, kA5, kA6, kA7 };

extern "C" [[noreturn]] void return_to_user(TrapFrame* frame);
extern "C" void fp_save(FpState* state);
extern "C" void fp_restore(const FpState* state);
extern "C" void uservec();
extern "C" void kernelvec();
}  // namespace nvx::kernel
