// Info storage and handles (see info.hpp).
#include "info.hpp"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mputil/mputil.hpp>

#include "handles.hpp"
#include "rank_context.hpp"

namespace lwmpi {

namespace {

// strlen bounded by `limit` + 1, so a missing terminator is never run past far.
size_t bounded_length(const char* s, size_t limit)
{
    size_t n = 0;
    while (n <= limit && s[n] != '\0')
        n++;
    return n;
}

char* copy_string(const char* s)
{
    size_t n = strlen(s) + 1;
    char* copy = static_cast<char*>(malloc(n));
    if (copy)
        memcpy(copy, s, n);
    return copy;
}

InfoEntry** find(Info& info, const char* key)
{
    InfoEntry** at = &info.head;
    while (*at && strcmp((*at)->key, key) != 0)
        at = &(*at)->next;
    return at;
}

void free_entry(InfoEntry* e)
{
    free(e->key);
    free(e->value);
    free(e);
}

constexpr int kEnvIndex = LWMPI_HANDLE_INDEX(MPI_INFO_ENV);

// MPI_INFO_ENV (MPI 3.1 section 9.4): what LWMPI knows of how the rank was started.
Info* build_env()
{
    Info* env = info_new();
    char procs[16];
    snprintf(procs, sizeof procs, "%d", mputil::world_size());
    if (env && info_set(*env, "maxprocs", procs) == MPI_SUCCESS &&
        info_set(*env, "thread_level", "MPI_THREAD_SERIALIZED") == MPI_SUCCESS)
        return env;
    info_destroy(env);
    return nullptr;
}

}  // namespace

int info_check_key(const char* key)
{
    if (!key)
        return MPI_ERR_INFO_KEY;
    size_t n = bounded_length(key, MPI_MAX_INFO_KEY);
    return n == 0 || n >= MPI_MAX_INFO_KEY ? MPI_ERR_INFO_KEY : MPI_SUCCESS;
}

int info_check_value(const char* value)
{
    if (!value || bounded_length(value, MPI_MAX_INFO_VAL) >= MPI_MAX_INFO_VAL)
        return MPI_ERR_INFO_VALUE;
    return MPI_SUCCESS;
}

Info* info_new() { return static_cast<Info*>(calloc(1, sizeof(Info))); }

void info_destroy(Info* info)
{
    if (!info)
        return;
    while (InfoEntry* e = info->head) {
        info->head = e->next;
        free_entry(e);
    }
    free(info);
}

int info_set(Info& info, const char* key, const char* value)
{
    int err = info_check_key(key);
    if (err == MPI_SUCCESS)
        err = info_check_value(value);
    if (err != MPI_SUCCESS)
        return err;
    char* new_value = copy_string(value);
    if (!new_value)
        return MPI_ERR_NO_MEM;
    InfoEntry** at = find(info, key);
    if (*at) {
        free((*at)->value);
        (*at)->value = new_value;
        return MPI_SUCCESS;
    }
    InfoEntry* e = static_cast<InfoEntry*>(malloc(sizeof(InfoEntry)));
    char* new_key = copy_string(key);
    if (!e || !new_key) {
        free(e);
        free(new_key);
        free(new_value);
        return MPI_ERR_NO_MEM;
    }
    *e = InfoEntry{nullptr, new_key, new_value};
    *at = e;  // `find` stopped at the end of the list: append
    info.count++;
    return MPI_SUCCESS;
}

const char* info_find(const Info& info, const char* key)
{
    for (const InfoEntry* e = info.head; e; e = e->next)
        if (strcmp(e->key, key) == 0)
            return e->value;
    return nullptr;
}

int info_remove(Info& info, const char* key)
{
    InfoEntry** at = find(info, key);
    if (!*at)
        return MPI_ERR_INFO_NOKEY;
    InfoEntry* e = *at;
    *at = e->next;
    free_entry(e);
    info.count--;
    return MPI_SUCCESS;
}

const char* info_key_at(const Info& info, int n)
{
    if (n < 0 || n >= info.count)
        return nullptr;
    const InfoEntry* e = info.head;
    while (n-- > 0)
        e = e->next;
    return e->key;
}

int info_copy(const Info& from, Info** out)
{
    Info* copy = info_new();
    if (!copy)
        return MPI_ERR_NO_MEM;
    for (const InfoEntry* e = from.head; e; e = e->next)
        if (info_set(*copy, e->key, e->value) != MPI_SUCCESS) {
            info_destroy(copy);
            return MPI_ERR_NO_MEM;  // the keys and values were valid already
        }
    *out = copy;
    return MPI_SUCCESS;
}

int info_lookup(MPI_Info handle, Info** out)
{
    RankContext& rank = rank_context();
    if (is_predefined(handle, LWMPI_KIND_INFO) && handle_index(handle) == kEnvIndex) {
        if (!rank.env_info && !(rank.env_info = build_env()))
            return MPI_ERR_NO_MEM;
        *out = rank.env_info;
        return MPI_SUCCESS;
    }
    Info* info = is_user(handle, LWMPI_KIND_INFO) ? rank.infos.get(handle_index(handle)) : nullptr;
    if (!info)
        return MPI_ERR_INFO;
    *out = info;
    return MPI_SUCCESS;
}

int info_check(MPI_Info handle, bool null_ok)
{
    if (handle == MPI_INFO_NULL)
        return null_ok ? MPI_SUCCESS : MPI_ERR_INFO;
    if (is_predefined(handle, LWMPI_KIND_INFO))
        return handle_index(handle) == kEnvIndex ? MPI_SUCCESS : MPI_ERR_INFO;
    return is_user(handle, LWMPI_KIND_INFO) && rank_context().infos.get(handle_index(handle))
               ? MPI_SUCCESS
               : MPI_ERR_INFO;
}

int info_register(Info* info, MPI_Info* handle)
{
    int index = rank_context().infos.add(info);
    if (index < 0) {
        info_destroy(info);
        return MPI_ERR_NO_MEM;
    }
    *handle = user_handle(LWMPI_KIND_INFO, index);
    return MPI_SUCCESS;
}

void info_finalize()
{
    RankContext& rank = rank_context();
    for (int i = 0; i < rank.infos.limit(); i++)
        info_destroy(rank.infos.get(i));
    rank.infos.clear();
    info_destroy(rank.env_info);
    rank.env_info = nullptr;
}

}  // namespace lwmpi
