// Test doubles shared by the host tests of libmpi's object layer (see mpi_obj_doubles.cpp).
#pragma once
#include <mpi.h>

namespace mpi_obj_test {
struct LastError {
    MPI_Comm comm;
    int code;
    const char* call;
};
extern LastError last_error;  // the last error raised through lwmpi::raise_error
extern int world_rank;        // what mputil::world_rank() answers
}  // namespace mpi_obj_test
