// Per-hart records of the firmware: SBI hart state (HSM) and where a started hart goes.
#pragma once
#include "hal/board/current.hpp"
#include "hal/riscv/csr.hpp"
#include "hal/sbi/sbi_ids.hpp"

namespace nvx::firmware {
struct HartRecord {
    u64 state;    // sbi::HartState, changed atomically
    u64 start_address;
    u64 opaque;
    u32 cluster;
};

extern HartRecord g_harts[board::kBoard.hart_count];

// Inline: every SBI call asks both.
inline HartRecord& hart_record(u64 hart) { return g_harts[hart]; }
inline u64 current_hart() { return NVX_CSR_READ(mhartid); }
inline const board::Cluster& cluster_of(u64 hart) { return board::kBoard.cluster(g_harts[hart].cluster); }

// Marks a stopped hart START_PENDING and wakes it; false if it was not stopped.
bool request_start(u64 hart, u64 start_address, u64 opaque);

// Puts the calling hart to sleep until someone starts it, then enters S-mode there.
[[noreturn]] void wait_for_start(u64 hart);
}  // namespace nvx::firmware
