// The collectives' internal layer. Everything runs on the communicator's collective context
// (so it never matches user messages) with the library's own requests. Every collective is
// a schedule of the engine (coll_engine.hpp) built by one builder below; trees:
// coll_schedule.hpp.
#pragma once

#include <mpi.h>
#include <stddef.h>

#include "call.hpp"
#include "coll_check.hpp"
#include "coll_engine.hpp"
#include "comm.hpp"
#include "config.hpp"
#include "errhandler.hpp"
#include "request.hpp"

namespace lwmpi {

// A batch of transfers started together and waited for together, for blocking calls whose
// members all wait for it before anything else, all with one tag (config.hpp).
class Exchange {
public:
    Exchange(Comm& comm, int max_transfers, int tag = kCollTag);
    ~Exchange();
    Exchange(const Exchange&) = delete;
    Exchange& operator=(const Exchange&) = delete;

    void send(int dest, const void* buf, int count, MPI_Datatype type);
    void recv(int source, void* buf, int count, MPI_Datatype type);
    void send_bytes(int dest, const void* buf, size_t bytes);
    void recv_bytes(int source, void* buf, size_t bytes);
    // Waits for every transfer; MPI_SUCCESS or the first error (MPI_ERR_TRUNCATE: a peer
    // sent more than expected, MPI_ERR_NO_MEM).
    int wait();

private:
    void add(bool is_send, const void* buf, int count, MPI_Datatype type, int peer);
    Comm& comm_;
    Request* requests_;
    Request** list_;
    int used_ = 0;
    int max_;
    int tag_;
    int error_ = MPI_SUCCESS;
};

// Reduction data: `count` elements of `type` in the type's own layout (op_apply combines
// typed buffers, so program operations on any type and the pair types work unchanged).
struct ReduceShape {
    MPI_Datatype type;
    int count;
    size_t span;      // bytes from the first to the last byte of the elements
    MPI_Aint offset;  // where element 0 starts relative to the first byte
};
int reduce_shape(MPI_Datatype type, int count, MPI_Op op, ReduceShape* out);  // or ERR_TYPE/OP

// Scratch for one reduction operand in `s`: returns where element 0 goes (nullptr when out
// of memory, which the schedule remembers).
void* operand_scratch(Schedule& s, const ReduceShape& shape);

// Schedule builders (coll_build.cpp): each adds one collective's steps to `s`, built the
// same way on every member. Data move typed; `input` is this rank's operand of a reduction
// (count elements of the shape's type), `result` where its result goes.
void build_barrier(Schedule& s);
void build_bcast(Schedule& s, void* buf, int count, MPI_Datatype type, int root);
void build_bcast_bytes(Schedule& s, void* buf, size_t bytes, int root);
// `result`: the root's buffer (ignored elsewhere). Commutative ops use the two-level tree
// rooted at the root; the others the rank-ordered tree rooted at rank 0.
void build_reduce(Schedule& s, const void* input, void* result, const ReduceShape& shape,
                  MPI_Op op, int root);
void build_allreduce(Schedule& s, const void* input, void* result, const ReduceShape& shape,
                     MPI_Op op);
// Inclusive (or exclusive) prefix reduction in rank order (recursive doubling); rank 0's
// `result` of an exclusive scan is left as it is.
void build_scan(Schedule& s, const void* input, void* result, const ReduceShape& shape,
                MPI_Op op, bool exclusive);
// Reduces `input` (the sum of counts elements) and gives rank r block r (counts[r]).
void build_reduce_scatter(Schedule& s, const void* input, void* result, const int* counts,
                          const ReduceShape& shape, MPI_Op op);
// Rooted data movement: the root's side has a block per rank (`many`), every rank one
// block (`one`, MPI_IN_PLACE at the root: its block is already in place).
void build_gather(Schedule& s, const void* one, int count, MPI_Datatype type, const PerRank& many,
                  int root);
void build_scatter(Schedule& s, const PerRank& many, void* one, int count, MPI_Datatype type,
                   int root);
void build_allgather(Schedule& s, const void* one, int count, MPI_Datatype type,
                     const PerRank& all);
// Through the cluster leaders where leader_alltoall_fits (and `leaders`: false after their
// staging could not be had), else Bruck's rounds for small
// equal blocks (config.hpp), else pairwise exchange in windows of kAlltoallWindow steps;
// send.buf MPI_IN_PLACE: the outgoing blocks are taken from `recv` (packed aside first).
void build_alltoall(Schedule& s, const PerRank& send, const PerRank& recv, bool leaders = true);
// Equal blocks through one leader per cluster (coll_leader_alltoall.cpp): opt only, on a
// communicator of two clusters or more with one of them holding two ranks or more, blocks
// of one packed size (*bytes) whose cluster fits kShmStagingBytes.
bool leader_alltoall_fits(const Comm& c, const PerRank& send, const PerRank& recv, size_t* bytes);
void build_leader_alltoall(Schedule& s, const PerRank& send, const PerRank& recv, size_t bytes);
// Small equal blocks by Bruck's rounds (coll_bruck.cpp): on kAlltoallBruckRanks ranks or more,
// blocks of one packed size (*bytes) up to kAlltoallBruckMax, scratch within the bounds.
bool bruck_fits(const Comm& c, const PerRank& send, const PerRank& recv, size_t* bytes);
void build_bruck(Schedule& s, const PerRank& send, const PerRank& recv, size_t bytes);

// How a collective call starts: blocking calls run their schedule to completion, the
// I-forms hand its request to the program.
struct CollStart {
    MPI_Request* request;
    bool nonblocking;
};
constexpr CollStart kBlocking = {nullptr, false};
inline CollStart nonblocking(MPI_Request* request) { return {request, true}; }

// Runs one collective call on `comm`: `build(Comm&, Schedule&)` checks the arguments (an
// error ends the call with nothing started) and adds the steps. Errors go to the
// communicator's handler; the I-forms report argument errors at once.
template <typename Build>
int coll_call(MPI_Comm comm, CollStart start, Build build)
{
    if (start.nonblocking) {
        if (!start.request)
            return fail(comm, MPI_ERR_ARG);
        *start.request = MPI_REQUEST_NULL;
    }
    Comm* c = comm_get(comm);
    if (!c)
        return fail(comm, MPI_ERR_COMM);
    // The blocking intercommunicator collectives take another path (intercomm_coll.cpp);
    // the others are defined here on intracommunicators only.
    if (is_inter(*c))
        return fail(comm, MPI_ERR_COMM);
    Schedule* s = Schedule::create(*c);
    if (!s)
        return fail(comm, MPI_ERR_NO_MEM);
    int err = build(*c, *s);
    if (err != MPI_SUCCESS) {
        Schedule::destroy(s);
        return fail(comm, err);
    }
    err = start.nonblocking ? schedule_start(s, start.request) : schedule_run(s);
    return fail(comm, err);
}

// Building blocks for other calls (communicator constructors, checks): build and run.
int coll_barrier(Comm& c);
int coll_bcast_bytes(Comm& c, void* buf, size_t bytes, int root);
int coll_allreduce(Comm& c, void* acc, const ReduceShape& shape, MPI_Op op);  // in place
// In place too: on return the root's `acc` holds the result.
int coll_reduce(Comm& c, void* acc, const ReduceShape& shape, MPI_Op op, int root);
// Every rank's `bytes` bytes, concatenated in rank order into `all` (size * bytes).
int coll_allgather_bytes(Comm& c, const void* mine, size_t bytes, void* all);

}  // namespace lwmpi
