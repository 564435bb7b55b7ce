// LWMPI's library-wide numbers, in one place.
#pragma once

#include <stdint.h>

namespace lwmpi {

// Largest user tag (MPI_TAG_UB); the transport carries any non-negative int.
constexpr int kTagUb = 0x3fffffff;

// MPI_Comm_create_group's members agree on a context id by messages on the parent's
// collective context tagged kCreateGroupTagBase + the program's tag: above kTagUb, so they
// never match the collectives' own messages, whose tags stay within 0..kTagUb.
constexpr int kCreateGroupTagBase = kTagUb + 1;

// Communicator context ids: each communicator owns one id; its point-to-point traffic uses
// transport context 2*id and its collectives 2*id + 1, so the two never match.
constexpr int kContextIds = 4096;
constexpr int kWorldContextId = 0;
constexpr int kSelfContextId = 1;

// Tags on a communicator's collective context. The collectives run in the same order on
// every member, so their own traffic needs one tag (kCollTag, FIFO per peer). The
// neighbourhood collectives reach only a rank's neighbours and use a range of their own,
// [kNeighborTagFirst, kNeighborTagFirst + kNeighborTags), so the two kinds never match each
// other's messages, whatever the other collectives' scheme becomes. The blocking ones use the
// first tag (FIFO per peer pairs repeated neighbours); the rest is kept for nonblocking ones.
constexpr int kCollTag = 0;
constexpr int kNeighborTagFirst = 0x70000000;
constexpr int kNeighborTags = 16;

// Pairwise-exchange steps of Alltoall(v) in flight at once (more overlap, more buffers).
constexpr int kAlltoallWindow = 32;

// Most dimensions MPI_Type_create_subarray and _darray accept (more: MPI_ERR_ARG); their
// per-dimension work lives on the stack.
constexpr int kMaxArrayDims = 32;

constexpr const char* kLibraryName = "LWMPI 1.0 (MPI 3.1) for nvx";

}  // namespace lwmpi
