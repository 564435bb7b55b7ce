#include "kernel/proc/cluster_ends.hpp"

#include "hal/sbi/sbi_call.hpp"
#include "kernel/console.hpp"
#include "kernel/layout.hpp"
#include "kernel/proc/process.hpp"
#include "kernel/sched/blocking.hpp"
#include "support/bits.hpp"

namespace nvx::kernel {
namespace {
u64 g_ended_word;    // written by the firmware (bit per ended cluster)
u64 g_reported;      // clusters already handed to user space

// The lowest ended cluster not reported yet, or -1.
i64 take_unreported() {
    u64 fresh = __atomic_load_n(&g_ended_word, __ATOMIC_ACQUIRE) & ~g_reported;
    if (fresh == 0) return -1;
    u32 cluster = lowest_set_bit(fresh);
    g_reported |= u64{1} << cluster;
    return cluster;
}
}  // namespace

Thread* g_cluster_end_waiter;  // the thread blocked in cluster_end_wait, if any

void watch_cluster_ends() {
    if (g_layout.index != board::kControlCluster) return;
    u64 word = g_layout.virt_to_phys(reinterpret_cast<u64>(&g_ended_word));
    sbi::Result r = sbi::call(sbi::kExtVendorNvx, sbi::kVendorWatchClusterEnds, word);
    if (r.error != sbi::kSuccess) kprint("[cluster %u] cannot watch for ended clusters (%ld)\n", g_layout.index, r.error);
}

bool deliver_cluster_end() {
    i64 cluster = take_unreported();
    if (cluster < 0) return false;
    Thread* t = g_cluster_end_waiter;
    g_cluster_end_waiter = nullptr;
    wake(t, cluster);
    return true;
}

CallResult cluster_end_wait(Thread* caller) {
    if (!g_process.system || g_layout.index != board::kControlCluster) return resume_with(-NVX_EPERM);
    if (g_cluster_end_waiter != nullptr) return resume_with(-NVX_EBUSY);
    i64 cluster = take_unreported();
    if (cluster >= 0) return resume_with(cluster);
    g_cluster_end_waiter = caller;
    return block(caller, BlockReason::ClusterEnd);
}

void cluster_ends_reset() { g_cluster_end_waiter = nullptr; }
}  // namespace nvx::kernel
