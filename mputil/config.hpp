// Every number of the LWMPI transport: ports, thresholds, queue bounds, operation budgets.
// Change them here only (the rank threads' numbers are the runtime's: nvx/rank_config.h).
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <nvx/ikc.h>
#include <nvx/rank_config.h>
#include <nvx/services.h>

namespace mputil::config {

// Logical ports (programs own NVX_FIRST_USER_PORT..31 of every node).
// Each rank owns one mailbox input and one portal input, both at port kRankPortBase + its
// index among its cluster's ranks (in world-rank order); ports below stay the system's.
inline constexpr unsigned kRankPortBase = NVX_FIRST_USER_PORT;
static_assert(kRankPortBase + NVX_RANKS_PER_CLUSTER_MAX <= NVX_IKC_PORTS, "every rank of a full cluster has its ports");

// Wire: one mailbox message carries a header and, for eager messages, the payload.
inline constexpr size_t kMailboxBytes = NVX_MAILBOX_MSG_MAX;
inline constexpr size_t kWireHeaderBytes = 48;
// Largest message sent eagerly between clusters (bytes); larger ones use rendezvous.
inline constexpr size_t kEagerMax = kMailboxBytes - kWireHeaderBytes;
// Eager messages a sender may have unconsumed at one receiver; a receiver returns them
// in batches of kCreditBatch. Without credit a message goes by rendezvous instead.
inline constexpr uint32_t kEagerCredits = 8;
inline constexpr uint32_t kCreditBatch = 4;
// Portal transfers of one rendezvous message are at most this long.
inline constexpr size_t kPortalPiece = NVX_PORTAL_MAX;
// Slots of a rank's receive ring (a message each): past them, messages wait in the kernel
// (its port's quota), then at their senders.
inline constexpr uint32_t kInboxSlots = 16;
// Asynchronous IKC operations a rank keeps under way: its share of the cluster's pool
// (NVX_IKC_ASYNC_OPS / ranks here, at most a thread's NVX_IKC_THREAD_OPS), so the pool can
// never run out: its one portal read, and the rest for writes (mailbox and portal, portal
// ones leaving at least one to mailbox messages); further writes wait in the rank's queues
// and start as its own complete.
inline constexpr uint32_t kReadOps = 1;
inline constexpr uint32_t kMaxWriteOps = NVX_IKC_THREAD_OPS - kReadOps;
inline constexpr uint32_t write_ops(uint32_t ranks_here)
{
    uint32_t share = NVX_IKC_ASYNC_OPS / (ranks_here == 0 ? 1 : ranks_here);
    if (share > NVX_IKC_THREAD_OPS) share = NVX_IKC_THREAD_OPS;
    return share > kReadOps ? share - kReadOps : 0;
}
// The ranks a cluster can run: each needs a mailbox write and a portal write under way.
inline constexpr uint32_t kMaxRanksHere = NVX_IKC_ASYNC_OPS / (kReadOps + 2);
static_assert(write_ops(kMaxRanksHere) >= 2 && kMaxRanksHere >= 16, "mppa256's 16 ranks per cluster fit");

// Output mailboxes the cluster keeps open towards ranks' ports (one per destination
// rank): the kernel's table (NVX_IKC_MAILBOXES) also holds the ranks' inputs and the name
// services' mailboxes (one output per node they asked, a few more); past this, an unused
// output is closed for a new one.
inline constexpr uint32_t kNameMailboxesBeyondNodes = 4;
inline constexpr uint32_t output_mailboxes(uint32_t ranks_here, uint32_t nodes)
{
    uint32_t taken = ranks_here + nodes + kNameMailboxesBeyondNodes;
    return taken + 4 <= NVX_IKC_MAILBOXES ? NVX_IKC_MAILBOXES - taken : 4;
}
// Output portals the same way (NVX_IKC_PORTALS also holds the ranks' portal inputs and a
// few of other users).
inline constexpr uint32_t kOtherPortals = 4;
inline constexpr uint32_t output_portals(uint32_t ranks_here)
{
    uint32_t taken = ranks_here + kOtherPortals;
    return taken + 4 <= NVX_IKC_PORTALS ? NVX_IKC_PORTALS - taken : 4;
}
// An output can be closed only when no write waits on it: with more outputs than writes can
// be under way at once, one is always idle. Mailbox writes: at most the cluster's pool of
// asynchronous operations; portal writes: each rank's share less one (left to mailboxes).
inline constexpr bool idle_output_always(uint32_t nodes)
{
    if (output_mailboxes(kMaxRanksHere, nodes) <= NVX_IKC_ASYNC_OPS) return false;
    for (uint32_t r = 1; r <= kMaxRanksHere; r++)
        if (output_portals(r) <= r * (write_ops(r) - 1)) return false;
    return true;
}
static_assert(idle_output_always(NVX_NOC_NODES_MAX), "an idle output can always be closed");

// Local (opt) path: messages up to kLocalCellMax bytes are copied into a cell (taken from
// the heap when sent, given back when received) so that the sender returns at once, while
// the cells of the whole cluster take at most kLocalCellBytes of heap, entries included;
// larger messages (or beyond that) wait for the receive and are copied once, sender to
// receiver. A receiver that falls behind must still find memory for its own receives: the
// budget stays well under the 64 KiB a program may leave free (tests/mpi/mpi_soak.c).
inline constexpr size_t kLocalCellMax = 1024;
inline constexpr size_t kLocalCellBytes = 24 * 1024;

// Freed objects of one kind (operations, LWMPI's requests) a rank keeps for its next ones:
// as many as fit 1/kSpareShare of its part of the cluster's memory, at least kMinSpare.
// Taking one from the heap costs its cluster-wide lock twice, more than a small message,
// and a program that keeps many under way would pay it on each; a small cluster keeps few.
inline constexpr uint32_t kMinSpare = 4;
inline constexpr size_t kSpareShare = 64;
inline constexpr uint32_t spare_objects(size_t user_memory, uint32_t ranks_here, size_t object_bytes)
{
    size_t share = user_memory / (ranks_here == 0 ? 1 : ranks_here) / kSpareShare;
    size_t n = share / (object_bytes == 0 ? 1 : object_bytes);
    return n < kMinSpare ? kMinSpare : (uint32_t)n;
}

// Exit status of a run in which a rank ended (returned from main or called exit(0))
// between MPI_Init and MPI_Finalize: the others would wait for it forever.
inline constexpr int kExitWithoutFinalize = 1;

}  // namespace mputil::config
