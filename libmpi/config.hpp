// LWMPI's library-wide numbers, in one place.
#pragma once

#include <stdint.h>

namespace lwmpi {

// Largest user tag (MPI_TAG_UB); the transport carries any non-negative int.
constexpr int kTagUb = 0x3fffffff;

// Communicator context ids: each communicator owns one id; its point-to-point traffic uses
// transport context 2*id and its collectives 2*id + 1, so the two never match.
constexpr int kContextIds = 4096;
constexpr int kWorldContextId = 0;
constexpr int kSelfContextId = 1;
// The blocking constructors agree on ids below kIdupContextFirst, MPI_Comm_idup on the ones
// from it up: a rank runs one blocking agreement at a time but any number of idups, whose
// agreements claim their id in a second round (comm_idup.cpp), and the two kinds never meet.
constexpr int kIdupContextFirst = kContextIds / 2;
constexpr int kPendingContextId = -1;  // an idup's duplicate until its id is agreed

// Tags on a communicator's collective context (the transport's tags are non-negative ints),
// in disjoint ranges so that no kind of collective traffic can match another's:
//   0                         Exchange batches: blocking calls that do not overlap
//   1 .. kScheduleTags        collective schedules (the neighbourhood collectives too),
//                             numbered by the communicator's sequence
//   kCreateGroupTagBase + t   MPI_Comm_create_group's agreement under the program's tag t
constexpr int kCollTag = 0;
constexpr uint32_t kScheduleTags = kTagUb;
constexpr int kCreateGroupTagBase = kTagUb + 1;
static_assert(static_cast<int64_t>(kCreateGroupTagBase) + kTagUb <= INT32_MAX,
              "every collective tag is a non-negative int");

// Pairwise-exchange steps of Alltoall(v) in flight at once (more overlap, more buffers).
constexpr int kAlltoallWindow = 32;
// Alltoall of equal blocks up to this many bytes, on at least kAlltoallBruckRanks ranks,
// goes by Bruck's algorithm: log2(P) rounds per rank instead of P - 1 messages, each round
// about P/2 blocks (small messages cost their envelope and the kernel's work, not their
// bytes). Its buffers (up to P blocks of its own and a round's two packed messages) stay
// within kAlltoallBruckScratch bytes per rank, else the pairwise exchange (no buffer) runs.
// All ranks of a cluster run their rounds at once: a round whose two messages, over the
// cluster's ranks, would take more than kAlltoallBruckClusterScratch goes as a few smaller
// ones. 64 B blocks at 192 ranks: one message a round with 12 ranks per 2 MiB cluster
// (144 KiB), two for the 96-block rounds with 16 (128 KiB instead of 192).
constexpr size_t kAlltoallBruckMax = 256;
constexpr int kAlltoallBruckRanks = 8;
constexpr size_t kAlltoallBruckScratch = 32 * 1024;
constexpr size_t kAlltoallBruckClusterScratch = 160 * 1024;

// Most dimensions MPI_Type_create_subarray and _darray accept (more: MPI_ERR_ARG); their
// per-dimension work lives on the stack.
constexpr int kMaxArrayDims = 32;

// The sync register (of NVX_SYNC_PORTS per node) MPI_COMM_WORLD's barrier takes on the
// nodes of its clusters (coll_noc_barrier.cpp); a program that holds it keeps the messages.
constexpr unsigned kBarrierSyncPort = 3;

constexpr const char* kLibraryName = "LWMPI 1.0 (MPI 3.1) for nvx";

}  // namespace lwmpi
