// Communicators: an ordered group of world ranks, a context id, an error handler, a name and
// the cluster layout the collectives' schedules use. Objects are per rank; handles of
// program-created communicators index the rank's table, MPI_COMM_WORLD and MPI_COMM_SELF
// are built by MPI_Init.
#pragma once

#include <mpi.h>
#include <stdint.h>

#include "coll_schedule.hpp"
#include "config.hpp"

namespace lwmpi {

struct Comm {
    MPI_Comm handle;
    int refs;                 // the handle plus every pending request on it
    MPI_Group group;          // members in communicator rank order
    const int* world;         // world rank of every member (the group's list)
    int size;
    int rank;                 // of the calling rank
    int context_id;           // see config.hpp
    uint32_t coll_sequence;   // collectives started on it by this rank (their tags)
    MPI_Errhandler errhandler;
    ClusterLayout layout;
    char name[MPI_MAX_OBJECT_NAME];
};

inline uint32_t p2p_context(const Comm& c) { return 2u * static_cast<uint32_t>(c.context_id); }
inline uint32_t coll_context(const Comm& c) { return p2p_context(c) + 1; }

Comm* comm_get(MPI_Comm handle);   // nullptr unless a live communicator of this rank

// A communicator of the `n` world ranks (in rank order; the caller must be one of them) on
// `context_id`, registered under a new handle (or `predefined`, for WORLD and SELF).
// Returns MPI_SUCCESS or MPI_ERR_NO_MEM / MPI_ERR_INTERN.
int comm_make(const int* world, int n, int context_id, MPI_Comm predefined, Comm** out);
void comm_retain(Comm* c);
void comm_release(Comm* c);        // frees it (and its context id) after the last reference
void comm_free_handle(Comm* c);    // MPI_Comm_free: the handle dies now, the object with its
                                   // last reference

// Communicator rank of a world rank, or MPI_UNDEFINED.
int comm_rank_of_world(const Comm& c, int world_rank);

// MPI_Init / MPI_Finalize: WORLD and SELF of the calling rank.
int comm_init_predefined();
void comm_finalize_predefined();

// Context ids. The calling rank's free ids as a bitmask (1 = free), and marking one used or
// free; agreeing on a new id is a collective (context_id_agree).
constexpr int kContextMaskWords = kContextIds / 32;
void context_ids_free_mask(uint32_t* mask);
void context_id_take(int id);
void context_id_put(int id);
// Collective over `parent`: every member obtains the same id, free on all of them (the new
// communicator takes it in comm_make).
int context_id_agree(Comm& parent, int* id);

}  // namespace lwmpi
