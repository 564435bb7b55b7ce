// Test doubles for the host tests of libmpi's object layer: the error-handler hook behaves
// like MPI_ERRORS_RETURN and remembers the last error with the call that raised it; MPI is
// always running; the rank thread's world rank is set by the test. The tests call the real
// entry points (entries.cpp); the implementations this library leaves out are weak stubs.
#include "tests/host/mpi_objects/mpi_obj_doubles.hpp"

#include <stdlib.h>

#include "libmpi/api.hpp"
#include "libmpi/call.hpp"
#include "libmpi/env.hpp"

namespace mpi_obj_test {
LastError last_error;
int world_rank = 0;
}  // namespace mpi_obj_test

namespace lwmpi {
int raise_error(MPI_Comm comm, int error_code) {
    mpi_obj_test::last_error = {comm, error_code, current_call()};
    return error_code;
}
bool mpi_running() { return true; }
int not_running() { return MPI_ERR_OTHER; }
}  // namespace lwmpi

// Every implementation outside the object layer (point-to-point, collectives, environment):
// the object files of the library define theirs, which take precedence.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
namespace lwmpi::api {
#define LWMPI_CALL(name, when, params, args) \
    [[gnu::weak]] int name params { return MPI_ERR_INTERN; }
#define LWMPI_PLAIN(ret, name, params, args) \
    [[gnu::weak]] ret name params { return ret(); }
#include <mpi_functions.h>
#undef LWMPI_CALL
#undef LWMPI_PLAIN
}  // namespace lwmpi::api
#pragma GCC diagnostic pop

namespace mputil {
int world_rank() { return mpi_obj_test::world_rank; }
// A world larger than any group the tests make, its ranks in order.
constexpr int kWorldSize = 1024;
int world_size() { return kWorldSize; }
const int* world_in_order()
{
    static int in_order[kWorldSize];
    for (int r = 0; r < kWorldSize; r++)
        in_order[r] = r;
    return in_order;
}
thread_local void* t_rank_context;  // the test thread plays one rank
thread_local void** t_context_slot;
void** context_slot_lookup() { return &t_rank_context; }
void set_rank_context(void* context) { t_rank_context = context; }
[[noreturn]] void abort_run(int status) { exit(status); }
}  // namespace mputil

