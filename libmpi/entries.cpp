// The entry points: PMPI_x for every row of mpi_functions.h, and MPI_x as a weak alias of it
// (MPI 3.1 chapter 14), so a tool that defines its own MPI_x and calls PMPI_x replaces the
// alias. Each entry checks that MPI may be called now, names the call for error reports and
// runs the implementation (api.hpp).
#include <mpi.h>

#include "api.hpp"
#include "call.hpp"
#include "env.hpp"
#include "rank_context.hpp"

namespace lwmpi {

namespace {

constexpr bool RUNNING = true;
constexpr bool ANYTIME = false;

thread_local const char* running_call = "MPI";

}  // namespace

const char* current_call() { return running_call; }

CallScope::CallScope(const char* name) : outer_(running_call) { running_call = name; }
CallScope::~CallScope() { running_call = outer_; }

}  // namespace lwmpi

#define LWMPI_CALL(name, when, params, args)                                       \
    extern "C" int PMPI_##name params                                              \
    {                                                                              \
        lwmpi::CallScope scope("MPI_" #name);                                      \
        if (lwmpi::when && !lwmpi::mpi_running())                                  \
            return lwmpi::not_running();                                           \
        return lwmpi::api::name args;                                              \
    }                                                                              \
    extern "C" int MPI_##name params __attribute__((weak, alias("PMPI_" #name)));

#define LWMPI_PLAIN(ret, name, params, args)                                       \
    extern "C" ret PMPI_##name params { return lwmpi::api::name args; }            \
    extern "C" ret MPI_##name params __attribute__((weak, alias("PMPI_" #name)));

#include <mpi_functions.h>
