// The info calls (MPI 3.1 chapter 9). Errors go to MPI_COMM_WORLD's handler: info objects
// have none of their own.
#include <string.h>

#include "api.hpp"
#include "call.hpp"
#include "comm.hpp"
#include "error_class.hpp"
#include "handles.hpp"
#include "info.hpp"
#include "rank_context.hpp"

using namespace lwmpi;

namespace {

// The object behind `handle` and, when `key` is given, a valid key.
int enter(MPI_Info handle, const char* key, bool need_key, Info** info)
{
    int err = info_lookup(handle, info);
    if (err == MPI_SUCCESS && need_key)
        err = info_check_key(key);
    return world_error(err);
}

int failed(int code) { return world_error(code); }

}  // namespace

int api::Info_create(MPI_Info* info)
{
    if (!info)
        return failed(MPI_ERR_ARG);
    Info* created = info_new();
    return failed(created ? info_register(created, info) : MPI_ERR_NO_MEM);
}

int api::Info_set(MPI_Info info, const char* key, const char* value)
{
    Info* object;
    int err = enter(info, key, false, &object);
    return err != MPI_SUCCESS ? err : failed(info_set(*object, key, value));
}

int api::Info_delete(MPI_Info info, const char* key)
{
    Info* object;
    int err = enter(info, key, true, &object);
    return err != MPI_SUCCESS ? err : failed(info_remove(*object, key));
}

int api::Info_get(MPI_Info info, const char* key, int valuelen, char* value, int* flag)
{
    Info* object;
    int err = enter(info, key, true, &object);
    if (err != MPI_SUCCESS)
        return err;
    if (valuelen < 0 || !value || !flag)
        return failed(MPI_ERR_ARG);
    const char* found = info_find(*object, key);
    *flag = found != nullptr;
    if (found) {
        // `value` holds valuelen characters and a terminator; longer values are truncated.
        size_t n = strlen(found);
        if (n > static_cast<size_t>(valuelen))
            n = static_cast<size_t>(valuelen);
        memcpy(value, found, n);
        value[n] = '\0';
    }
    return MPI_SUCCESS;
}

int api::Info_get_valuelen(MPI_Info info, const char* key, int* valuelen, int* flag)
{
    Info* object;
    int err = enter(info, key, true, &object);
    if (err != MPI_SUCCESS)
        return err;
    if (!valuelen || !flag)
        return failed(MPI_ERR_ARG);
    const char* found = info_find(*object, key);
    *flag = found != nullptr;
    if (found)
        *valuelen = static_cast<int>(strlen(found));
    return MPI_SUCCESS;
}

int api::Info_get_nkeys(MPI_Info info, int* nkeys)
{
    Info* object;
    int err = enter(info, nullptr, false, &object);
    if (err != MPI_SUCCESS)
        return err;
    if (!nkeys)
        return failed(MPI_ERR_ARG);
    *nkeys = object->count;
    return MPI_SUCCESS;
}

int api::Info_get_nthkey(MPI_Info info, int n, char* key)
{
    Info* object;
    int err = enter(info, nullptr, false, &object);
    if (err != MPI_SUCCESS)
        return err;
    const char* found = info_key_at(*object, n);
    if (!key || !found)
        return failed(MPI_ERR_ARG);  // n outside 0..nkeys-1
    strcpy(key, found);               // fits MPI_MAX_INFO_KEY bytes
    return MPI_SUCCESS;
}

int api::Info_dup(MPI_Info info, MPI_Info* newinfo)
{
    Info* object;
    int err = enter(info, nullptr, false, &object);
    if (err != MPI_SUCCESS)
        return err;
    if (!newinfo)
        return failed(MPI_ERR_ARG);
    Info* copy;
    err = info_copy(*object, &copy);
    if (err == MPI_SUCCESS)
        err = info_register(copy, newinfo);
    return failed(err);
}

int api::Info_free(MPI_Info* info)
{
    if (!info)
        return failed(MPI_ERR_ARG);
    if (!is_user(*info, LWMPI_KIND_INFO) || info_check(*info, false) != MPI_SUCCESS)
        return failed(MPI_ERR_INFO);  // MPI_INFO_ENV is predefined: never freed
    info_destroy(rank_context().infos.remove(handle_index(*info)));
    *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}

int api::Comm_set_info(MPI_Comm comm, MPI_Info info)
{
    // LWMPI acts on no communicator hint, so there is nothing to keep (MPI 3.1 6.4.4).
    Comm* c = comm_get(comm);
    if (!c)
        return raise_error(comm, MPI_ERR_COMM);
    return raise_error(comm, info_check(info, false));
}

int api::Comm_get_info(MPI_Comm comm, MPI_Info* info_used)
{
    // The hints in use: none, so a new empty info object (MPI 3.1 section 6.4.4).
    if (!comm_get(comm))
        return raise_error(comm, MPI_ERR_COMM);
    if (!info_used)
        return raise_error(comm, MPI_ERR_ARG);
    Info* created = info_new();
    return raise_error(comm, created ? info_register(created, info_used) : MPI_ERR_NO_MEM);
}
