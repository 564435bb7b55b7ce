// Error handlers. Every error of every call goes through raise_error() (declared in
// error_class.hpp for the object calls; fail() is its short name here): it runs the handler
// of the communicator (MPI_COMM_WORLD's when the communicator itself is invalid) and returns
// the error code for the call to return.
#pragma once

#include <mpi.h>

#include "error_class.hpp"

namespace lwmpi {

inline int fail(MPI_Comm comm, int code) { return raise_error(comm, code); }

bool errhandler_valid(MPI_Errhandler handler);
void errhandler_retain(MPI_Errhandler handler);   // no-op for the predefined ones
void errhandler_release(MPI_Errhandler handler);
void errhandler_finalize();  // MPI_Finalize: forgets every handle

}  // namespace lwmpi
