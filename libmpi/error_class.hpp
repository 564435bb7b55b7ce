// Error classes (MPI 3.1 section 8.4): LWMPI's error codes are its error classes.
#pragma once
#include <mpi.h>

namespace lwmpi {

// The text of an error class, or nullptr for a value that is not one.
const char* error_class_string(int error_class);

// Hands an error of the running call (current_call(), call.hpp) to the error handler of
// `comm` and returns the code the call must return (MPI 3.1 section 8.3). Calls without a
// communicator argument (datatypes, groups, operations) use MPI_COMM_WORLD. Defined by the
// error-handler module of libmpi; MPI_SUCCESS passes straight through.
int raise_error(MPI_Comm comm, int error_code);

// The common case of the object calls: report a failure on MPI_COMM_WORLD.
inline int world_error(int error_code) {
    return error_code == MPI_SUCCESS ? MPI_SUCCESS : raise_error(MPI_COMM_WORLD, error_code);
}

}  // namespace lwmpi
