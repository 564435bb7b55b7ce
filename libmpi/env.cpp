// Environment calls: Init / Finalize and the lifecycle, thread levels, clock, processor
// name, versions, memory, and the values of the predefined attributes of MPI_COMM_WORLD.
#include "api.hpp"
#include "env.hpp"

#include <stdio.h>
#include <string.h>

#include <mputil/mputil.hpp>

#include "attr.hpp"
#include "bsend.hpp"
#include "call.hpp"
#include "comm.hpp"
#include "config.hpp"
#include "errhandler.hpp"
#include "error_codes.hpp"
#include "info.hpp"
#include "request.hpp"
#include "rank_context.hpp"

namespace lwmpi {

namespace {

// The rank's state is found from the rank (rank_context.hpp), so any thread a rank started
// may call MPI, one at a time: SERIALIZED. MULTIPLE is not offered (nothing in libmpi locks).
constexpr int kThreadLevelProvided = MPI_THREAD_SERIALIZED;

// Predefined attribute values (read-only, so shared by the ranks of a cluster).
const int kAttrTagUb = kTagUb;
const int kAttrHost = MPI_PROC_NULL;
const int kAttrIo = MPI_ANY_SOURCE;      // every rank can write to the console
const int kAttrWtimeIsGlobal = 0;        // the clocks of clusters are not promised in sync
const int kAttrAppnum = 0;

int init(int required, int* provided)
{
    RankContext& rank = rank_context();
    if (rank.phase != kBefore)
        return not_running();
    mputil::init();
    int err = comm_init_predefined();
    if (err != MPI_SUCCESS)
        return fail(MPI_COMM_WORLD, err);
    rank.phase = kRunning;
    rank.thread_level = required < kThreadLevelProvided ? required : kThreadLevelProvided;
    if (rank.thread_level < MPI_THREAD_SINGLE)
        rank.thread_level = MPI_THREAD_SINGLE;
    rank.universe_size = mputil::world_size();
    if (provided)
        *provided = rank.thread_level;
    return MPI_SUCCESS;
}

}  // namespace

const int* predefined_attr(int keyval)
{
    switch (keyval) {
    case MPI_TAG_UB: return &kAttrTagUb;
    case MPI_HOST: return &kAttrHost;
    case MPI_IO: return &kAttrIo;
    case MPI_WTIME_IS_GLOBAL: return &kAttrWtimeIsGlobal;
    case MPI_UNIVERSE_SIZE: return &rank_context().universe_size;
    case MPI_APPNUM: return &kAttrAppnum;
    case MPI_LASTUSEDCODE: return error_last_used_code();
    default: return nullptr;
    }
}

int not_running()
{
    // No communicator exists outside Init..Finalize, so the default handler applies: fatal.
    static const char* const when[] = {"before MPI_Init", "while MPI is initialized",
                                       "after MPI_Finalize"};
    printf("LWMPI: rank %d: %s called %s\n", mputil::world_rank(), current_call(),
           when[rank_context().phase]);
    return fail(MPI_COMM_NULL, MPI_ERR_OTHER);
}


}  // namespace lwmpi

using namespace lwmpi;

int api::Init(int*, char***) { return init(MPI_THREAD_SINGLE, nullptr); }

int api::Init_thread(int*, char***, int required, int* provided)
{
    if (!provided)
        return fail(MPI_COMM_WORLD, MPI_ERR_ARG);
    return init(required, provided);
}

int api::Initialized(int* flag)
{
    if (!flag)
        return fail(MPI_COMM_WORLD, MPI_ERR_ARG);
    *flag = rank_context().phase != kBefore;
    return MPI_SUCCESS;
}

int api::Finalized(int* flag)
{
    if (!flag)
        return fail(MPI_COMM_WORLD, MPI_ERR_ARG);
    *flag = rank_context().phase == kFinalized;
    return MPI_SUCCESS;
}

int api::Finalize(void)
{
    // First, as if MPI_COMM_SELF were freed, while MPI is still fully usable (8.7.1).
    int err = attr_delete_all(rank_context().self->attrs, MPI_COMM_SELF);
    if (err != MPI_SUCCESS)
        return fail(MPI_COMM_SELF, err);
    request_drain_detached();
    bsend_finalize();
    err = api::Barrier(MPI_COMM_WORLD);  // no rank leaves while others may still talk to it
    if (err != MPI_SUCCESS)
        return err;
    comm_finalize_predefined();
    attr_finalize();
    info_finalize();
    request_finalize();
    errhandler_finalize();
    error_codes_finalize();
    mputil::finalize();
    rank_context().phase = kFinalized;
    return MPI_SUCCESS;
}

int api::Abort(MPI_Comm, int errorcode)
{
    // The whole run ends, whatever the communicator: ranks are not independent processes.
    printf("LWMPI: rank %d called MPI_Abort with error code %d\n", mputil::world_rank(), errorcode);
    fflush(stdout);
    mputil::abort_run(errorcode);
}

int api::Query_thread(int* provided)
{
    if (!provided)
        return fail(MPI_COMM_WORLD, MPI_ERR_ARG);
    *provided = rank_context().thread_level;
    return MPI_SUCCESS;
}

int api::Is_thread_main(int* flag)
{
    if (!flag)
        return fail(MPI_COMM_WORLD, MPI_ERR_ARG);
    *flag = mputil::is_main_rank_thread();
    return MPI_SUCCESS;
}

double api::Wtime(void) { return mputil::wtime(); }
double api::Wtick(void) { return mputil::wtick(); }

int api::Get_version(int* version, int* subversion)
{
    if (!version || !subversion)
        return fail(MPI_COMM_WORLD, MPI_ERR_ARG);
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}

int api::Get_library_version(char* version, int* resultlen)
{
    if (!version || !resultlen)
        return fail(MPI_COMM_WORLD, MPI_ERR_ARG);
    int n = snprintf(version, MPI_MAX_LIBRARY_VERSION_STRING, "%s, variant %s", kLibraryName,
                     mputil::variant());
    *resultlen = n < MPI_MAX_LIBRARY_VERSION_STRING ? n : MPI_MAX_LIBRARY_VERSION_STRING - 1;
    return MPI_SUCCESS;
}

int api::Get_processor_name(char* name, int* resultlen)
{
    if (!name || !resultlen)
        return fail(MPI_COMM_WORLD, MPI_ERR_ARG);
    *resultlen = mputil::processor_name(name, MPI_MAX_PROCESSOR_NAME);
    return MPI_SUCCESS;
}

int api::Alloc_mem(MPI_Aint size, MPI_Info info, void* baseptr)
{
    if (size < 0 || !baseptr)
        return fail(MPI_COMM_WORLD, MPI_ERR_ARG);
    if (info_check(info, true) != MPI_SUCCESS)
        return fail(MPI_COMM_WORLD, MPI_ERR_INFO);
    void* p = mputil::alloc_mem(size > 0 ? static_cast<size_t>(size) : 1);
    if (!p)
        return fail(MPI_COMM_WORLD, MPI_ERR_NO_MEM);
    memcpy(baseptr, &p, sizeof p);  // baseptr is a void** passed as void*
    return MPI_SUCCESS;
}

int api::Free_mem(void* base)
{
    if (base)
        mputil::free_mem(base);
    return MPI_SUCCESS;
}
