// Only the control cluster may reset or power off the board. A system reset asked by any
// other cluster's kernel ends that cluster alone: its harts stop for good (the machine
// trap vector parks every hart marked in g_hart_ended), and the control cluster's kernel,
// which registered a word in its own memory for this, gets the cluster's bit set there
// and an IPI, so the Spawn Server can report that cluster's end.
#pragma once
#include "hal/board/current.hpp"
#include "hal/sbi/sbi_ids.hpp"

namespace nvx::firmware {
// Ends the caller's (non-control) cluster; does not return.
[[noreturn]] void end_cluster(const board::Cluster& c, u64 type, u64 reason);
// Parks the calling hart if its cluster was ended; returns otherwise.
void park_if_ended(u64 hart);
// Control cluster's kernel only: `word` (physical, 8-aligned, in its own memory) gets bit
// (1 << cluster index) for every cluster ended, now and later.
sbi::Result watch_cluster_ends(const board::Cluster& c, u64 word);
}  // namespace nvx::firmware
