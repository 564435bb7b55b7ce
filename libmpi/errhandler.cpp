// Error handlers and the single path every error takes (see errhandler.hpp).
#include "api.hpp"
#include "errhandler.hpp"

#include <stdio.h>
#include <stdlib.h>

#include <mputil/mputil.hpp>

#include "call.hpp"
#include "comm.hpp"
#include "env.hpp"
#include "error_class.hpp"
#include "error_codes.hpp"
#include "handles.hpp"
#include "rank_context.hpp"

namespace lwmpi {

struct Errhandler {
    MPI_Comm_errhandler_function* fn;
    int refs;  // the program's handle plus every communicator using it
};

namespace {

Errhandler* get(MPI_Errhandler h)
{
    return is_user(h, LWMPI_KIND_ERRHANDLER) ? rank_context().errhandlers.get(handle_index(h)) : nullptr;
}

const char* error_text(int code)
{
    const char* text = error_code_string(code);
    return text && *text ? text : "unknown error code";
}

bool is_builtin(MPI_Errhandler h) { return h == MPI_ERRORS_ARE_FATAL || h == MPI_ERRORS_RETURN; }

}  // namespace

int raise_error(MPI_Comm comm, int code)
{
    if (code == MPI_SUCCESS)
        return code;
    Comm* c = comm_get(comm);
    if (!c)
        c = comm_get(MPI_COMM_WORLD);  // an invalid communicator: the world's handler decides
    MPI_Errhandler h = c ? c->errhandler : MPI_ERRORS_ARE_FATAL;
    if (h == MPI_ERRORS_RETURN)
        return code;
    if (Errhandler* user = get(h)) {
        MPI_Comm handle = c->handle;
        int error = code;
        user->fn(&handle, &error);
        return code;
    }
    printf("LWMPI: rank %d: %s: %s (error class %d); aborting the run\n", mputil::world_rank(),
           current_call(), error_text(code), code);
    fflush(stdout);
    mputil::abort_run(code);
}

bool errhandler_valid(MPI_Errhandler h) { return is_builtin(h) || get(h) != nullptr; }

void errhandler_retain(MPI_Errhandler h)
{
    if (Errhandler* e = get(h))
        e->refs++;
}

void errhandler_release(MPI_Errhandler h)
{
    Errhandler* e = get(h);
    if (e && --e->refs == 0) {
        rank_context().errhandlers.remove(handle_index(h));
        free(e);
    }
}

void errhandler_finalize() { rank_context().errhandlers.clear(); }

}  // namespace lwmpi

using namespace lwmpi;

int api::Comm_create_errhandler(MPI_Comm_errhandler_function* fn, MPI_Errhandler* errhandler)
{
    if (!fn || !errhandler)
        return fail(MPI_COMM_WORLD, MPI_ERR_ARG);
    Errhandler* e = static_cast<Errhandler*>(malloc(sizeof(Errhandler)));
    int index = e ? rank_context().errhandlers.add(e) : -1;
    if (index < 0) {
        free(e);
        return fail(MPI_COMM_WORLD, MPI_ERR_NO_MEM);
    }
    e->fn = fn;
    e->refs = 1;
    *errhandler = user_handle(LWMPI_KIND_ERRHANDLER, index);
    return MPI_SUCCESS;
}

int api::Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    Comm* c = comm_get(comm);
    if (!c)
        return fail(comm, MPI_ERR_COMM);
    if (!errhandler_valid(errhandler))
        return fail(comm, MPI_ERR_ARG);
    errhandler_retain(errhandler);
    errhandler_release(c->errhandler);
    c->errhandler = errhandler;
    return MPI_SUCCESS;
}

int api::Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler* errhandler)
{
    Comm* c = comm_get(comm);
    if (!c)
        return fail(comm, MPI_ERR_COMM);
    if (!errhandler)
        return fail(comm, MPI_ERR_ARG);
    errhandler_retain(c->errhandler);  // the program frees what it gets (MPI 3.1, 8.3)
    *errhandler = c->errhandler;
    return MPI_SUCCESS;
}

int api::Errhandler_free(MPI_Errhandler* errhandler)
{
    if (!errhandler || !errhandler_valid(*errhandler))
        return fail(MPI_COMM_WORLD, MPI_ERR_ARG);
    errhandler_release(*errhandler);
    *errhandler = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}

int api::Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
    if (!comm_get(comm))
        return fail(comm, MPI_ERR_COMM);
    fail(comm, errorcode);  // a fatal handler ends the run here
    return MPI_SUCCESS;     // the handler ran and returned (MPI 3.1 section 8.3.4)
}
