// The NoC engine: the emulated interconnect between clusters (mailboxes, portals, syncs).
// It runs in M-mode on the calling hart, checks every node and address against the
// caller's cluster, copies between cluster memories itself, and interrupts the kernel
// core of the cluster that has something new.
#pragma once
#include "hal/board/board.hpp"
#include "hal/sbi/sbi_ids.hpp"

namespace nvx::firmware {
sbi::Result noc_call(const board::Cluster& caller, u64 fn, const u64 args[6]);
}
