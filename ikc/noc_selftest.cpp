// The NoC engine's own isolation checks (kernel option `selftest`): it refuses every node
// and address that is not this cluster's.
#include "ikc/noc_selftest.hpp"

#include "hal/noc/noc_driver.hpp"
#include "kernel/layout.hpp"
#include "kernel/selftest.hpp"

namespace nvx::ikc {
void noc_selftest() {
    using kernel::expect_sbi;
    using kernel::g_layout;
    const board::Board& b = board::kBoard;
    const board::Cluster& foreign = b.cluster((g_layout.index + 1) % b.cluster_count);
    u32 own_node = g_layout.cluster->first_node, foreign_node = foreign.first_node;
    u64 own_buffer = g_layout.mem_base + g_layout.mem_size - board::kPageSize;  // the boot info page
    u64 foreign_buffer = foreign.mem_base;
    expect_sbi("noc-attach-foreign-node", noc::attach(foreign_node, own_buffer, 0).error, sbi::kErrInvalidParam);
    expect_sbi("noc-attach-foreign-area", noc::attach(own_node, foreign_buffer, 0).error, sbi::kErrInvalidAddress);
    // The engine advances the clock offsets it is given: they must be the caller's memory.
    expect_sbi("noc-attach-foreign-clock", noc::attach(own_node, own_buffer, foreign_buffer).error,
               sbi::kErrInvalidAddress);
    expect_sbi("noc-send-as-foreign-node", noc::mailbox_send(foreign_node, own_node, own_buffer).error,
               sbi::kErrInvalidParam);
    expect_sbi("noc-send-foreign-message", noc::mailbox_send(own_node, foreign_node, foreign_buffer).error,
               sbi::kErrInvalidAddress);
    expect_sbi("noc-send-to-missing-node", noc::mailbox_send(own_node, board::kMaxNodes + 1, own_buffer).error,
               sbi::kErrInvalidParam);
    expect_sbi("noc-portal-write-foreign-data",
               noc::portal_write(own_node, foreign_node, 0, foreign_buffer, 64, 64).error, sbi::kErrInvalidAddress);
    expect_sbi("noc-portal-allow-foreign-list",
               noc::portal_allow(own_node, foreign_node, 0, foreign_buffer, 1, 64).error, sbi::kErrInvalidAddress);
    noc::PortalSegment window[1] = {{foreign_buffer, 64}};  // a list of ours naming foreign memory
    u64 window_phys = g_layout.virt_to_phys(reinterpret_cast<u64>(window));
    expect_sbi("noc-portal-allow-foreign-segment",
               noc::portal_allow(own_node, foreign_node, 0, window_phys, 1, 64).error, sbi::kErrInvalidAddress);
    window[0] = {own_buffer, 0};
    expect_sbi("noc-portal-allow-empty-segment",
               noc::portal_allow(own_node, foreign_node, 0, window_phys, 1, 64).error, sbi::kErrInvalidParam);
    window[0] = {own_buffer, u64{1} << 40};  // runs past the cluster's memory
    expect_sbi("noc-portal-allow-segment-past-memory",
               noc::portal_allow(own_node, foreign_node, 0, window_phys, 1, 1 << 20).error, sbi::kErrInvalidAddress);
    window[0] = {own_buffer, 128};
    expect_sbi("noc-portal-allow-window-over-message",
               noc::portal_allow(own_node, foreign_node, 0, window_phys, 1, 64).error, sbi::kErrInvalidParam);
    expect_sbi("noc-portal-allow-too-many-segments",
               noc::portal_allow(own_node, foreign_node, 0, own_buffer, noc::kPortalMaxSegments + 1, 1 << 20).error,
               sbi::kErrInvalidParam);
    window[0] = {own_buffer, 64};
    expect_sbi("noc-portal-allow-missing-port",
               noc::portal_allow(own_node, foreign_node, noc::kPortalWindows, window_phys, 1, 64).error,
               sbi::kErrInvalidParam);
    expect_sbi("noc-portal-write-missing-port",
               noc::portal_write(own_node, foreign_node, noc::kPortalWindows, own_buffer, 64, 64).error,
               sbi::kErrInvalidParam);
    expect_sbi("noc-release-foreign-node", noc::mailbox_release(foreign_node, own_node).error, sbi::kErrInvalidParam);
    expect_sbi("noc-sync-arm-bad-register", noc::sync_arm(own_node, board::kSyncsPerNode, 1).error,
               sbi::kErrInvalidParam);
    expect_sbi("noc-stats-foreign-buffer", noc::stats(own_node, foreign_buffer).error, sbi::kErrInvalidAddress);
}
}  // namespace nvx::ikc
