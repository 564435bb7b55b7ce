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

// Pairwise-exchange steps of Alltoall(v) in flight at once (more overlap, more buffers).
constexpr int kAlltoallWindow = 32;

constexpr const char* kLibraryName = "LWMPI 1.0 (MPI 3.1) for nvx";

}  // namespace lwmpi
