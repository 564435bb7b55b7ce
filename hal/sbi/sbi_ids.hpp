// SBI extension and function ids (SBI 2.0) plus our vendor extension; shared by the
// firmware that implements them and the kernel that calls them.
#pragma once
#include "support/types.hpp"

namespace nvx::sbi {
inline constexpr u64 kSpecVersion = 2ull << 24;  // SBI 2.0
inline constexpr u64 kImplementationId = 0x4e5658;  // "NVX"

enum Extension : u64 {
    kExtLegacyPutchar = 0x01,
    kExtBase = 0x10,
    kExtTime = 0x54494d45,
    kExtIpi = 0x735049,
    kExtHsm = 0x48534d,
    kExtReset = 0x53525354,
    kExtConsole = 0x4442434e,
    kExtVendorNvx = 0x094e5658,  // vendor range 0x09000000-0x09ffffff
};

enum BaseFunction : u64 {
    kBaseSpecVersion = 0, kBaseImplId = 1, kBaseImplVersion = 2, kBaseProbe = 3,
    kBaseMvendorid = 4, kBaseMarchid = 5, kBaseMimpid = 6,
};
enum HsmFunction : u64 { kHsmStart = 0, kHsmStop = 1, kHsmStatus = 2, kHsmSuspend = 3 };
enum ConsoleFunction : u64 { kConsoleWrite = 0, kConsoleRead = 1, kConsoleWriteByte = 2 };

// Vendor extension: the emulated manycore's NoC engine (hal/noc/noc_abi.hpp).
enum VendorFunction : u64 {
    kVendorWatchClusterEnds = 0x10,  // control cluster: (word) gets a bit per ended cluster
    kVendorWatchDeadlock = 0x11,     // any kernel core: (word) is set when the board deadlocks
    kVendorDeadlockReported = 0x12,  // that kernel printed its report
    kVendorNocFirst = 0x100,
    kVendorNocLast = 0x1ff,
};

// The board's status when the firmware found it deadlocked (NVX_EXIT_DEADLOCK).
inline constexpr u32 kExitDeadlock = 125;

enum HartState : u64 {
    kHartStarted = 0, kHartStopped = 1, kHartStartPending = 2, kHartStopPending = 3,
    kHartSuspended = 4,
};

enum ResetType : u64 { kResetShutdown = 0, kResetCold = 1, kResetWarm = 2 };
enum ResetReason : u64 { kReasonNone = 0, kReasonFailure = 1 };
// Platform-specific reasons 0xf0000000 | status carry a program exit status to the host.
inline constexpr u64 kReasonExitStatus = 0xf0000000;

enum Error : i64 {
    kSuccess = 0, kErrFailed = -1, kErrNotSupported = -2, kErrInvalidParam = -3,
    kErrDenied = -4, kErrInvalidAddress = -5, kErrAlreadyAvailable = -6,
    kErrAlreadyStarted = -7, kErrAlreadyStopped = -8,
};

struct [[nodiscard]] Result {
    i64 error;
    u64 value;
};
}  // namespace nvx::sbi
