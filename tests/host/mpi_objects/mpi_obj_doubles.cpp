// Test doubles for the host tests of libmpi's object layer: the error-handler hook behaves
// like MPI_ERRORS_RETURN and remembers the last error; the rank thread's world rank is set
// by the test.
#include "tests/host/mpi_objects/mpi_obj_doubles.hpp"

#include <stdlib.h>

namespace mpi_obj_test {
LastError last_error;
int world_rank = 0;
}  // namespace mpi_obj_test

namespace lwmpi {
int raise_error(MPI_Comm comm, int error_code, const char* call) {
    mpi_obj_test::last_error = {comm, error_code, call};
    return error_code;
}
}  // namespace lwmpi

namespace mputil {
int world_rank() { return mpi_obj_test::world_rank; }
thread_local void* t_rank_context;  // the test thread plays one rank
void* rank_context() { return t_rank_context; }
void set_rank_context(void* context) { t_rank_context = context; }
[[noreturn]] void abort_run(int status) { exit(status); }
}  // namespace mputil

// The object layer is built without entries.cpp (which needs all of libmpi): here MPI_x calls
// the implementation directly. Rows outside the object layer stay weak and unresolved; the
// tests never call them.
#include "libmpi/api.hpp"

#define LWMPI_CALL(name, when, params, args)                                   \
    namespace lwmpi::api {                                                     \
    int name params __attribute__((weak));                                     \
    }                                                                          \
    extern "C" int MPI_##name params { return lwmpi::api::name args; }
#define LWMPI_PLAIN(ret, name, params, args)                                   \
    namespace lwmpi::api {                                                     \
    ret name params __attribute__((weak));                                     \
    }                                                                          \
    extern "C" ret MPI_##name params { return lwmpi::api::name args; }
#include <mpi_functions.h>
#undef LWMPI_CALL
#undef LWMPI_PLAIN
