// What each hart of a cluster may touch from S- and U-mode: its cluster's memory and the
// read-only program region. Everything else (firmware, other clusters, devices) faults.
#pragma once
#include "hal/board/board.hpp"
#include "hal/riscv/pmp.hpp"

namespace nvx::firmware {
constexpr riscv::pmp::Plan pmp_plan_for(const board::Cluster& cluster) {
    riscv::pmp::Plan plan;
    plan.grant(board::kProgramBase, board::kProgramSize, riscv::pmp::kRead);
    plan.grant(cluster.mem_base, cluster.mem_size, riscv::pmp::kRead | riscv::pmp::kWrite | riscv::pmp::kExec);
    return plan;
}

// Writes the plan into this hart's PMP CSRs (must happen before the first mret).
void program_pmp(const board::Cluster& cluster);
}  // namespace nvx::firmware
