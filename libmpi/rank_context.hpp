// The per-rank state of libmpi, found from the rank, not from the OS thread: a rank may call
// MPI from any thread it started (MPI_THREAD_SERIALIZED), and all of them must see the same
// communicators, requests and handles. mputil keeps one pointer per rank for it.
#pragma once
#include <mpi.h>
#include <stdint.h>

#include <mputil/mputil.hpp>

#include "bsend.hpp"
#include "attr.hpp"
#include "comm.hpp"
#include "datatype_objects.hpp"
#include "handles.hpp"
#include "request.hpp"

namespace lwmpi {

struct Group;       // group.cpp
struct Errhandler;  // errhandler.cpp
struct UserOp;      // op.cpp
struct MatchedMessage;  // message.cpp
struct ErrorCodes;  // error_codes.cpp
struct Info;        // info.cpp

// Where the rank is in the MPI lifecycle (RankContext::phase).
enum Phase : int { kBefore, kRunning, kFinalized };

// All zero is the state before MPI_Init. A literal type with no destructor: it is calloc'ed
// on the rank's first call and freed by mputil when the rank ends.
struct RankContext {
    // env.cpp
    int phase;
    int thread_level;
    int universe_size;  // MPI_UNIVERSE_SIZE, returned by address
    // comm.cpp
    HandleTable<Comm> comms;
    Comm* world;
    Comm* self;
    uint32_t used_ids[kContextMaskWords];  // 1 = taken by a live communicator
    // errhandler.cpp
    HandleTable<Errhandler> errhandlers;
    // request.cpp
    HandleTable<Request> requests;
    Request* detached;
    Request* collectives;  // active collective requests (coll_engine.cpp)
    Request* spare_requests;  // freed ones kept for reuse, linked by next_detached
    uint32_t spare_request_count;  // at most spare_request_limit
    uint32_t spare_request_limit;  // mputil::spare_objects(sizeof(Request)), set at the first free
    // op.cpp, datatype_objects.cpp, datatype_queries.cpp, group.cpp
    HandleTable<UserOp> user_ops;
    HandleTable<DerivedType> derived_types;
    // Names given to predefined types, [LWMPI_PREDEFINED_TYPE_COUNT] once the rank names one.
    char** type_names;
    HandleTable<Group> groups;
    // bsend.cpp, message.cpp, error_codes.cpp
    BsendBuffer bsend;
    HandleTable<MatchedMessage> messages;
    ErrorCodes* error_codes;  // classes and codes the program added; nullptr: none
    // attr.cpp
    HandleTable<Keyval> keyvals;
    // Attributes of predefined types, [LWMPI_PREDEFINED_TYPE_COUNT] once the rank sets one.
    AttrList* type_attrs;
    // info.cpp
    HandleTable<Info> infos;
    Info* env_info;  // MPI_INFO_ENV, made on first use
};

// The calling rank's state (on any thread of the rank), made on its first call. Out of
// memory ends the run.
RankContext& first_rank_context();
inline RankContext& rank_context()
{
    void* context = mputil::rank_context();
    return context ? *static_cast<RankContext*>(context) : first_rank_context();
}

// Between MPI_Init and MPI_Finalize on this rank.
inline bool mpi_running() { return rank_context().phase == kRunning; }

}  // namespace lwmpi
