// Every number of the LWMPI transport: ports, thresholds, queue bounds, helper stacks.
// Change them here only (the rank threads' numbers are the runtime's: nvx/rank_config.h).
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <nvx/ikc.h>
#include <nvx/rank_config.h>
#include <nvx/services.h>

namespace mputil::config {

// Logical ports (programs own NVX_FIRST_USER_PORT..31 of every node).
inline constexpr unsigned kMailboxPort = NVX_FIRST_USER_PORT;      // the cluster's MPI mailbox
inline constexpr unsigned kPortalBase = NVX_FIRST_USER_PORT;       // + local rank index
static_assert(kPortalBase + NVX_RANKS_PER_CLUSTER_MAX <= NVX_IKC_PORTS, "every rank of a full cluster has its portal");

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
// Portal writer threads per cluster: kReservedWriters start with the cluster, before the
// program can take the memory they need, so a cleared send always has a writer to wait
// for; more start on demand (when memory allows) up to kMaxWriters; further sends queue.
inline constexpr uint32_t kReservedWriters = 1;
inline constexpr uint32_t kMaxWriters = 8;

// Local (opt) path: messages up to kLocalCellMax bytes are copied into a cell (taken from
// the heap when sent, given back when received) so that the sender returns at once, while
// the cells of the whole cluster take at most kLocalCellBytes of heap, entries included;
// larger messages (or beyond that) wait for the receive and are copied once, sender to
// receiver. A receiver that falls behind must still find memory for its own receives: the
// budget stays well under the 64 KiB a program may leave free (tests/mpi/mpi_soak.c).
inline constexpr size_t kLocalCellMax = 1024;
inline constexpr size_t kLocalCellBytes = 24 * 1024;

// Exit status of a run in which a rank ended (returned from main or called exit(0))
// between MPI_Init and MPI_Finalize: the others would wait for it forever.
inline constexpr int kExitWithoutFinalize = 1;

// Helper threads' stacks (a rank's is the runtime's rule, nvx/rank_config.h).
inline constexpr size_t kAgentStack = 8 * 1024;
inline constexpr size_t kWriterStack = 8 * 1024;

}  // namespace mputil::config
