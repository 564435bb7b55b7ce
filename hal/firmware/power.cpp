#include "hal/firmware/power.hpp"

#include "hal/firmware/cluster_end.hpp"
#include "hal/firmware/console.hpp"
#include "hal/firmware/devices.hpp"

namespace nvx::firmware {

void power_off(u32 status) {
    console_print("[board] power off, status %u\n", status);
    finisher_exit(status);
}

sbi::Result system_reset(const board::Cluster& caller, u64 type, u64 reason) {
    if (&caller != &board::kBoard.cluster(board::kControlCluster)) end_cluster(caller, type, reason);
    if (type == sbi::kResetCold || type == sbi::kResetWarm) finisher_reset();
    if (type != sbi::kResetShutdown) return {sbi::kErrInvalidParam, 0};
    if (reason >= sbi::kReasonExitStatus) power_off(static_cast<u32>(reason & 0xffff));
    if (reason == sbi::kReasonNone) power_off(0);
    if (reason == sbi::kReasonFailure) power_off(1);
    return {sbi::kErrInvalidParam, 0};
}

}  // namespace nvx::firmware
