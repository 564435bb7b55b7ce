// The collectives' shared-memory phase. The ranks of a communicator on one cluster share an
// area (one per communicator and cluster, found by context id and the cluster's leader,
// made on the communicator's first shared-memory collective, freed with it): members copy
// their operand into their slot of it and count their arrival on a shared counter; the
// leader (the cluster's lowest rank) combines the slots in rank order, talks to the other
// clusters' leaders over the NoC, puts the result in the area and releases the members on
// a second counter, and each copies the result out. A rank waiting for a counter sleeps in
// its own wait (request.hpp), so its other operations keep progressing meanwhile.
//
// Used by the blocking Barrier, Allreduce and Reduce (commutative predefined operations on
// contiguous types, operands of at most kShmSlotBytes), Bcast (at most kShmSlotBytes of data,
// packed) and Alltoall (equal blocks, the cluster's at most kShmStagingBytes) of the opt
// variant; everything else keeps the schedules of
// coll_build.cpp. The order of a reduction is fixed: inside a
// cluster (((r0 op r1) op r2) ...) over its ranks in rank order, then between leaders
// recursive doubling over cluster slots (Reduce: a binomial tree rooted at the root's slot)
// (coll_shm_leaders.cpp), so results are bit-identical from run to run and on every rank.
#pragma once

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include <mputil/mputil.hpp>

#include "coll.hpp"
#include "comm.hpp"
#include "errhandler.hpp"

namespace lwmpi {

constexpr size_t kShmSlotBytes = 1024;  // largest operand that goes through the area
// Members each woken member wakes in turn at a round's release (coll_shm_round.hpp): a
// binary tree beat 3 and a flat release (11 rings in a row) at 192 ranks.
constexpr int kReleaseFanout = 2;
// Alltoall through the area: the blocks the cluster sends (and those it receives) in one
// staging buffer of at most this many bytes each.
// A leader allocates two: 288 KiB for blocks of 64 B with 12 of 192 ranks on a 2 MiB
// cluster of mppa256, which fits; with 16 there (384 KiB) too little heap is left.
constexpr size_t kShmStagingBytes = 160 * 1024;
// What every rank's shm_alltoall returns, with nothing exchanged, when some cluster's
// leader could not allocate its staging: shm_run then declines the call, and the caller
// runs a schedule that needs none.
constexpr int kNoStaging = -1;

// The area of `c`'s ranks on the calling rank's cluster: counters and slots.
struct ShmArea {
    int context_id;      // key: the communicator's context id
    int leader_world;    // and the world rank of its leader on this cluster
    int members;         // ranks of the communicator on this cluster
    int attached;        // of them, those that hold it (the last one frees it)
    bool retired;        // a member let go: no new member may find it
    mputil::Counter arrived;   // members' arrivals, counted over every round
    mputil::Counter released;  // rounds the leader released
    int error;           // the leader's verdict on the round it released last
    int root_verdict;    // Reduce: its root's check of its buffers, when a member here
    char* data;          // [members + 1] slots of kShmSlotBytes: the members', the result
    char* staging;       // Alltoall's blocks while one runs (the leader's allocation)
    ShmArea* next;       // registry list
};

// Whether this is the opt variant, whose collectives use the cluster's shared memory and
// one leader per cluster (the unopt baseline keeps the trees).
bool shm_variant();

// Whether `c`'s blocking collectives take the shared-memory phase (*use): the first call
// attaches to the area and agrees with every member (an allreduce of the old kind) that
// every cluster has one, so the answer is the same on every rank: false (the old path)
// when some cluster could not have one. Collective until decided; an error (MPI_ERR_NO_MEM
// in the agreement itself) leaves it undecided, to be tried again by the next call.
int shm_ready(Comm& c, bool* use);
// A blocking collective of `comm` (c) through the area when c takes that phase: `shared()`
// runs and its error, through comm's handler, goes to *err; false when the schedules take
// the call instead.
template <typename Shared>
bool shm_run(MPI_Comm comm, Comm& c, int* err, Shared shared)
{
    bool use = false;
    *err = shm_ready(c, &use);
    if (*err == MPI_SUCCESS && !use)
        return false;
    if (*err == MPI_SUCCESS)
        *err = shared();
    if (*err == kNoStaging)
        return false;
    *err = fail(comm, *err);
    return true;
}
// MPI_Comm_free's end (the communicator's last reference): lets go of the area.
void shm_detach(Comm& c);

// The two collectives (c: shm_ready). Allreduce: `input` and `result` typed buffers of
// `count` elements of a contiguous `type` (input may equal result).
int shm_barrier(Comm& c);
int shm_allreduce(Comm& c, const void* input, void* result, int count, MPI_Datatype type,
                  MPI_Op op);
// Reduce to `root` (the same arguments as Allreduce; `result`: the root's): `verdict` is
// the calling rank's check of its own buffers (input is nullptr if it failed). Each rank
// returns its own error, else the root's, which goes to every rank as agree_with_root
// spreads it on the schedules' path.
int shm_reduce(Comm& c, const void* input, void* result, int count, MPI_Datatype type, MPI_Op op,
               int root, int verdict);
// Bcast of `count` elements of `type` (at most kShmSlotBytes of data).
int shm_bcast(Comm& c, void* buf, int count, MPI_Datatype type, int root);
// Whether a Bcast of these arguments takes the shared-memory phase.
bool shm_bcast_fits(int count, MPI_Datatype type);
// Alltoall of equal blocks (not in place: see coll_shm_alltoall.cpp); kNoStaging when no
// staging could be had.
int shm_alltoall(Comm& c, const PerRank& send, const PerRank& recv);
bool shm_alltoall_fits(const Comm& c, const PerRank& send, const PerRank& recv);
// Whether the cluster with the most ranks of c can stage its blocks of `bytes` each
// (kShmStagingBytes).
bool alltoall_staging_fits(const Comm& c, size_t bytes);
// Whether an Allreduce (or a Reduce) of these arguments takes the shared-memory phase (the
// same answer on every rank, as the arguments are).
bool shm_allreduce_fits(int count, MPI_Datatype type, MPI_Op op);

// The leaders' phase (coll_shm_leaders.cpp): the calling rank leads its cluster's slot of
// c.layout; every rank calls it (non-leaders only advance the collective sequence).
int leaders_barrier(Comm& c);

// The leaders' barrier of MPI_COMM_WORLD on the NoC's sync registers
// (coll_noc_barrier.cpp): every leader signals the first slot's leader's register, which
// then signals every other leader's, two NoC latencies instead of log2 L message rounds.
// noc_barrier_open: the calling leader takes its syncs (false if it cannot); shm_ready
// agrees on the outcome with the shared area's (c.shm_mode 2). noc_barrier_run: the
// calling leader's part of one barrier. noc_barrier_close: lets the syncs go.
constexpr int kShmWithSyncBarrier = 2;  // Comm::shm_mode: the area, and the world's syncs
bool noc_barrier_open(Comm& c);
int noc_barrier_run(Comm& c);
void noc_barrier_close(Comm& c);
// `acc`: this leader's cluster's partial result in place (typed, `count` of `type`).
int leaders_allreduce(Comm& c, void* acc, int count, MPI_Datatype type, MPI_Op op);
// Binomial tree over the slots rooted at `root_slot`: the root leader's *verdict (an MPI
// error class) goes down to every leader while `acc` (this leader's cluster's partial
// result) goes up, each leader combining its children's in a fixed order; the root
// leader's acc ends as the result.
int leaders_reduce(Comm& c, void* acc, int count, MPI_Datatype type, MPI_Op op, int root_slot,
                   int* verdict);
// Binomial tree over the slots rooted at `root_slot`: `data` from its leader to the others.
int leaders_bcast(Comm& c, void* data, size_t bytes, int root_slot);
// Alltoall's swap (coll_shm_alltoall.cpp): with m ranks on this cluster and blocks of b
// bytes, every leader sends the group of slot s (m * n_s blocks at out + m * start[s] * b)
// to s's leader and receives s's group for it at the same place in `in`; not its own.
int leaders_exchange(Comm& c, char* out, char* in, size_t m, size_t b);

}  // namespace lwmpi
