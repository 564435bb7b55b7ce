// Info objects (MPI 3.1 chapter 9): ordered (key, value) string pairs, per rank. The storage
// below is plain logic; info_calls.cpp holds the MPI calls.
#pragma once
#include <mpi.h>

namespace lwmpi {

struct InfoEntry {
    InfoEntry* next;
    char* key;
    char* value;
};

// Keys keep the order they were first set in (MPI_Info_get_nthkey numbers them so).
struct Info {
    InfoEntry* head;
    int count;
};

// MPI_ERR_INFO_KEY unless 1..MPI_MAX_INFO_KEY - 1 characters; MPI_ERR_INFO_VALUE unless at
// most MPI_MAX_INFO_VAL - 1 (both fit buffers of those sizes with their terminator: MPI 3.1
// chapter 9 lets programs declare keys of size MPI_MAX_INFO_KEY).
int info_check_key(const char* key);
int info_check_value(const char* value);

Info* info_new();                 // empty, or nullptr when out of memory
void info_destroy(Info* info);
// Adds the pair, or replaces the value of an existing key in its place. MPI_SUCCESS,
// MPI_ERR_INFO_KEY, MPI_ERR_INFO_VALUE or MPI_ERR_NO_MEM (the object unchanged on errors).
int info_set(Info& info, const char* key, const char* value);
const char* info_find(const Info& info, const char* key);  // the value, or nullptr
int info_remove(Info& info, const char* key);              // MPI_ERR_INFO_NOKEY if absent
const char* info_key_at(const Info& info, int n);          // nullptr unless 0 <= n < count
// A copy of every pair, in the same order; MPI_SUCCESS or MPI_ERR_NO_MEM.
int info_copy(const Info& from, Info** out);

// Handles: a program-created info or MPI_INFO_ENV. MPI_SUCCESS with the object, else
// MPI_ERR_INFO (MPI_ERR_NO_MEM if MPI_INFO_ENV could not be built).
int info_lookup(MPI_Info handle, Info** out);
// An info argument: MPI_SUCCESS for a live info (or MPI_INFO_NULL when `null_ok`), else
// MPI_ERR_INFO.
int info_check(MPI_Info handle, bool null_ok);
// Registers a new object under a handle; MPI_ERR_NO_MEM destroys it.
int info_register(Info* info, MPI_Info* handle);
void info_finalize();             // MPI_Finalize: frees every info of the rank

}  // namespace lwmpi
