// Communicators: an ordered group of world ranks, a context id, an error handler, a name and
// the cluster layout the collectives' schedules use. Objects are per rank; handles of
// program-created communicators index the rank's table, MPI_COMM_WORLD and MPI_COMM_SELF
// are built by MPI_Init.
#pragma once

#include <mpi.h>
#include <stdint.h>

#include "attr.hpp"
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
    struct Topology* topo;    // process topology (topo.hpp), or nullptr
    char name[MPI_MAX_OBJECT_NAME];
    // Intercommunicators only (intercomm.cpp): the remote group, which point-to-point ranks
    // name, and a handle-less intracommunicator of the local group for the local phases of
    // the collectives. `local` is null on an intracommunicator.
    Comm* local;
    MPI_Group remote_group;
    const int* remote_world;
    int remote_size;
    AttrList attrs;           // cached attributes (attr.hpp)
    // The collectives' shared-memory phase (coll_shm.hpp): the cluster's area once
    // attached, the rounds this rank ran through it, and whether the communicator uses it
    // (0 not decided yet, 1 yes, -1 no; 2 yes, and MPI_COMM_WORLD's leaders meet on the NoC's
    // sync registers: coll_noc_barrier.cpp).
    struct ShmArea* shm;
    uint32_t shm_round;
    int shm_mode;
};

inline bool is_inter(const Comm& c) { return c.local != nullptr; }
// The group a point-to-point rank names: the remote one on an intercommunicator.
inline const int* peer_world(const Comm& c) { return is_inter(c) ? c.remote_world : c.world; }
inline int peer_size(const Comm& c) { return is_inter(c) ? c.remote_size : c.size; }
// The peer rank of a message's source (world rank), or MPI_UNDEFINED.
int comm_peer_of_world(const Comm& c, int world_rank);

inline uint32_t p2p_context(const Comm& c) { return 2u * static_cast<uint32_t>(c.context_id); }
inline uint32_t coll_context(const Comm& c) { return p2p_context(c) + 1; }

Comm* comm_get(MPI_Comm handle);   // nullptr unless a live communicator of this rank

// A communicator of the `n` world ranks (in rank order; the caller must be one of them) on
// `context_id` (kPendingContextId: set later, by MPI_Comm_idup), registered under a new
// handle (or `predefined`, for WORLD and SELF). Returns MPI_SUCCESS or MPI_ERR_NO_MEM /
// MPI_ERR_INTERN.
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

// Context ids. The calling rank's free ids of the blocking constructors' range as a bitmask
// (1 = free; ids from kIdupContextFirst up are 0), and marking one used or free; agreeing on
// a new id is a collective (context_id_agree).
constexpr int kContextMaskWords = kContextIds / 32;
void context_ids_free_mask(uint32_t* mask);
// The same for MPI_Comm_idup's range: bit i of `mask` stands for id kIdupContextFirst + i.
constexpr int kIdupMaskWords = (kContextIds - kIdupContextFirst) / 32;
void context_ids_free_idup_mask(uint32_t* mask);
bool context_id_used(int id);
void context_id_take(int id);
void context_id_put(int id);
// Collective over `parent`: every member obtains the same id, free on all of them (the new
// communicator takes it in comm_make).
int context_id_agree(Comm& parent, int* id);
// Its two steps: the ids free on every member of `c` (collective), and the lowest of them.
int context_mask_agree(Comm& c, uint32_t* mask);
int context_id_first(const uint32_t* mask, int* id);

// Comm_split's choice of one member: its color and key, and its rank in the parent.
struct ColorKey {
    int color;
    int key;
    int rank;
};
// The world ranks (`world` is the parent's list) of the members of `all[0..n)` with `color`
// ordered by key then parent rank, into `members`; returns their count (0 for
// MPI_UNDEFINED). Reorders `all`.
int members_of_color(ColorKey* all, int n, int color, const int* world, int* members);
// What a duplicate carries (Comm_dup, Comm_idup): the topology and the attributes the copy
// callbacks keep. On an error the caller frees `to`, which is then without a duplicate.
int dup_carry(Comm& from, Comm& to);
// The new communicator of world[0..n) on the agreed `id`, with `parent`'s error handler
// (n == 0: MPI_COMM_NULL).
int comm_derive(Comm& parent, const int* world, int n, int id, MPI_Comm* out);

}  // namespace lwmpi
