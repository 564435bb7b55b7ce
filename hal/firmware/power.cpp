#include "hal/firmware/power.hpp"

#include "hal/board/current.hpp"
#include "hal/firmware/console.hpp"
#include "hal/firmware/devices.hpp"
#include "support/atomic.hpp"

namespace nvx::firmware {
namespace {
constexpr u64 kNotExited = ~0ull;
struct ClusterExitTable {
    u64 status[board::kMaxClusters];
    u32 remaining;
};
ClusterExitTable g_exits = [] {
    ClusterExitTable t{};
    for (u64& s : t.status) s = kNotExited;
    t.remaining = board::kBoard.compute_count;
    return t;
}();
}  // namespace

void power_off(u32 status) {
    console_print("[board] power off, status %u\n", status);
    finisher_exit(status);
}

sbi::Result system_reset(u64 type, u64 reason) {
    if (type == sbi::kResetCold || type == sbi::kResetWarm) finisher_reset();
    if (type != sbi::kResetShutdown) return {sbi::kErrInvalidParam, 0};
    if (reason >= sbi::kReasonExitStatus) power_off(static_cast<u32>(reason & 0xffff));
    if (reason == sbi::kReasonNone) power_off(0);
    if (reason == sbi::kReasonFailure) power_off(1);
    return {sbi::kErrInvalidParam, 0};
}

sbi::Result cluster_exit(u32 cluster, u64 status) {
    if (board::kBoard.cluster(cluster).kind != board::ClusterKind::Compute) return {sbi::kErrDenied, 0};
    u64 expected = kNotExited;
    if (!atomic::compare_exchange(&g_exits.status[cluster], expected, status & 0xffff))
        return {sbi::kErrAlreadyStopped, 0};
    if (atomic::fetch_add(&g_exits.remaining, ~0u) != 1) return {sbi::kSuccess, 0};
    // Last compute cluster: the board's status is the first failing cluster's status.
    u32 board_status = 0;
    for (u32 i = board::kBoard.first_compute(); i < board::kBoard.cluster_count; i++) {
        if (g_exits.status[i] != 0) {
            board_status = static_cast<u32>(g_exits.status[i]);
            break;
        }
    }
    power_off(board_status);
}
}  // namespace nvx::firmware
