// Control and status registers and their bits (RISC-V privileged spec 1.12).
#pragma once
#include "support/types.hpp"

#define NVX_CSR_READ(name)                                  \
    ({                                                      \
        nvx::u64 value_;                                    \
        asm volatile("csrr %0, " #name : "=r"(value_));     \
        value_;                                             \
    })
#define NVX_CSR_WRITE(name, value) asm volatile("csrw " #name ", %0" ::"r"(static_cast<nvx::u64>(value)) : "memory")
#define NVX_CSR_SET(name, bits) asm volatile("csrs " #name ", %0" ::"r"(static_cast<nvx::u64>(bits)) : "memory")
#define NVX_CSR_CLEAR(name, bits) asm volatile("csrc " #name ", %0" ::"r"(static_cast<nvx::u64>(bits)) : "memory")

namespace nvx::riscv {
// mstatus / sstatus
inline constexpr u64 kStatusSIE = 1ull << 1;
inline constexpr u64 kStatusMIE = 1ull << 3;
inline constexpr u64 kStatusSPIE = 1ull << 5;
inline constexpr u64 kStatusMPIE = 1ull << 7;
inline constexpr u64 kStatusSPP = 1ull << 8;
inline constexpr u64 kStatusMPPShift = 11;
inline constexpr u64 kStatusMPPMask = 3ull << kStatusMPPShift;
inline constexpr u64 kStatusFSMask = 3ull << 13;
inline constexpr u64 kStatusFSInitial = 1ull << 13;
inline constexpr u64 kStatusFSClean = 2ull << 13;
inline constexpr u64 kStatusFSDirty = 3ull << 13;
inline constexpr u64 kStatusSUM = 1ull << 18;
inline constexpr u64 kPrivUser = 0, kPrivSupervisor = 1, kPrivMachine = 3;

// interrupt bits in mip/mie/sip/sie
inline constexpr u64 kIntSSoft = 1ull << 1;
inline constexpr u64 kIntMSoft = 1ull << 3;
inline constexpr u64 kIntSTimer = 1ull << 5;
inline constexpr u64 kIntMTimer = 1ull << 7;
inline constexpr u64 kIntSExternal = 1ull << 9;

inline constexpr u64 kCauseInterrupt = 1ull << 63;
enum Cause : u64 {
    kInstructionMisaligned = 0, kInstructionAccessFault = 1, kIllegalInstruction = 2,
    kBreakpoint = 3, kLoadMisaligned = 4, kLoadAccessFault = 5, kStoreMisaligned = 6,
    kStoreAccessFault = 7, kEcallFromU = 8, kEcallFromS = 9, kEcallFromM = 11,
    kInstructionPageFault = 12, kLoadPageFault = 13, kStorePageFault = 15,
};
enum InterruptCause : u64 { kIrqSSoft = 1, kIrqMSoft = 3, kIrqSTimer = 5, kIrqMTimer = 7 };

// Human-readable name of an exception cause, for fault reports.
constexpr const char* cause_name(u64 cause) {
    switch (cause) {
    case kInstructionMisaligned: return "instruction address misaligned";
    case kInstructionAccessFault: return "instruction access fault";
    case kIllegalInstruction: return "illegal instruction";
    case kBreakpoint: return "breakpoint";
    case kLoadMisaligned: return "load address misaligned";
    case kLoadAccessFault: return "load access fault";
    case kStoreMisaligned: return "store address misaligned";
    case kStoreAccessFault: return "store access fault";
    case kEcallFromU: return "ecall from U-mode";
    case kEcallFromS: return "ecall from S-mode";
    case kInstructionPageFault: return "instruction page fault";
    case kLoadPageFault: return "load page fault";
    case kStorePageFault: return "store page fault";
    default: return "unknown exception";
    }
}

inline void wfi() { asm volatile("wfi" ::: "memory"); }
inline u64 read_time() {
    u64 t;
    asm volatile("rdtime %0" : "=r"(t));
    return t;
}
}  // namespace nvx::riscv
