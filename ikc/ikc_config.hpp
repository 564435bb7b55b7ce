// Limits of the kernel's IKC: one place for every table size.
#pragma once
#include "hal/board/current.hpp"
#include "hal/noc/noc_abi.hpp"
#include "kernel/abi/nvx_abi.h"

namespace nvx::ikc {
inline constexpr u32 kPorts = NVX_IKC_PORTS;  // logical ports per physical endpoint
// The ABI's numbers are the board table's: tied here, where both are seen.
static_assert(NVX_MAILBOX_MSG_MAX == noc::kMailboxPayload, "the ABI's mailbox payload is the hardware's");
static_assert(NVX_NOC_NODES_MAX == board::kMaxNodes, "the ABI's node bound is the board table's");
static_assert(NVX_SYNC_PORTS == board::kSyncsPerNode, "the ABI's sync ports are the hardware's registers");
inline constexpr u32 kVirtualMailboxes = NVX_IKC_MAILBOXES;
inline constexpr u32 kVirtualPortals = NVX_IKC_PORTALS;
inline constexpr u32 kVirtualSyncs = 16;
inline constexpr u32 kMessageBuffers = NVX_MAILBOX_BUFFERS;         // arrived messages kept until read
inline constexpr u32 kPortQuota = NVX_MAILBOX_PORT_QUOTA;           // of them, at most this many per port
inline constexpr u32 kUnclaimedAllowance = NVX_MAILBOX_UNCLAIMED;   // and for ports nobody created
inline constexpr u32 kHeldMessages = 32;  // refused messages a sending kernel keeps for a retry
static_assert(kPorts <= noc::kMailboxPortBits, "a port is one bit of the engine's drained mask");
static_assert(kPorts <= noc::kPortalWindows, "every logical port has its portal receive window");

constexpr u32 max_cluster_nodes(const board::Board& b) {
    u32 most = 0;
    for (u32 i = 0; i < b.cluster_count; i++)
        if (b.clusters[i].nodes > most) most = b.clusters[i].nodes;
    return most;
}
inline constexpr u32 kMaxOwnNodes = max_cluster_nodes(board::kBoard);
}  // namespace nvx::ikc
