// The implementations of the MPI functions, one per row of mpi_functions.h: lwmpi::api::Send
// implements MPI_Send. Only the entry points (entries.cpp) call them from outside libmpi;
// inside, one MPI function that needs another calls its implementation, so a profiling
// tool's MPI_x wrappers see only the program's own calls.
#pragma once
#include <mpi.h>

namespace lwmpi::api {

#define LWMPI_CALL(name, when, params, args) int name params;
#define LWMPI_PLAIN(ret, name, params, args) ret name params;
#include <mpi_functions.h>
#undef LWMPI_CALL
#undef LWMPI_PLAIN

}  // namespace lwmpi::api
