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

// Pairwise-exchange steps of Alltoall(v) in flight at once (more overlap, more buffers).
constexpr int kAlltoallWindow = 32;

// Most dimensions MPI_Type_create_subarray and _darray accept (more: MPI_ERR_ARG); their
// per-dimension work lives on the stack.
constexpr int kMaxArrayDims = 32;

constexpr const char* kLibraryName = "LWMPI 1.0 (MPI 3.1) for nvx";

}  // namespace lwmpi
