// Clusters the firmware ended because their kernel asked for a system reset (only the
// control cluster may reset the board; hal/firmware/cluster_end.hpp). On the control
// cluster the kernel registers a word the firmware sets a bit in per ended cluster; the
// Spawn Server waits for them (NVX_SYS_CLUSTER_END_WAIT) and reports each as that
// cluster's end. Kernel core only.
#pragma once
#include "kernel/sched/outcome.hpp"
#include "kernel/sched/thread.hpp"

namespace nvx::kernel {
// At boot on the control cluster: asks the firmware to report ended clusters.
void watch_cluster_ends();
// From the core loop: hands newly ended clusters to a waiting thread; true if it did.
// Inline and one load when nobody waits (every cluster but the control one, always).
extern Thread* g_cluster_end_waiter;
bool deliver_cluster_end();
inline bool poll_cluster_ends() { return g_cluster_end_waiter != nullptr && deliver_cluster_end(); }
// The kernel call: the index of an ended cluster not reported before, at once or when
// one ends (blocks). System program of the control cluster only.
CallResult cluster_end_wait(Thread* caller);
// The program ended: no thread waits any more.
void cluster_ends_reset();
}  // namespace nvx::kernel
