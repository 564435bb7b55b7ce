// The collectives' internal layer. Everything runs on the communicator's collective context
// (so it never matches user messages) with the library's own requests. Data moves as packed
// bytes or typed operands (reductions). Schedules: coll_schedule.hpp.
#pragma once

#include <mpi.h>
#include <stddef.h>

#include "comm.hpp"
#include "config.hpp"
#include "request.hpp"

namespace lwmpi {

// A batch of transfers started together and waited for together, all with one tag (see
// config.hpp).
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

// A buffer for one reduction operand: `base` is where element 0 goes.
struct Operand {
    void* base;
    void* memory;
};
int operand_alloc(const ReduceShape& s, Operand* out);  // MPI_ERR_NO_MEM
void operand_free(Operand* o);
// An operand holding a copy of `buf` (count elements of the shape's type).
int operand_copy(const ReduceShape& s, const void* buf, Operand* out);

// Building blocks (collective over `c`; every member calls them with matching arguments).
int coll_barrier(Comm& c);
int coll_bcast_bytes(Comm& c, void* buf, size_t bytes, int root);
// `acc` holds this rank's operand; on return the root's `acc` holds the result.
int coll_reduce(Comm& c, void* acc, const ReduceShape& shape, MPI_Op op, int root);
int coll_allreduce(Comm& c, void* acc, const ReduceShape& shape, MPI_Op op);
// Inclusive (or exclusive) prefix reduction in rank order; with `exclusive`, rank 0's
// `acc` is left as it is.
int coll_scan(Comm& c, void* acc, const ReduceShape& shape, MPI_Op op, bool exclusive);
// Every rank's `bytes` bytes, concatenated in rank order into `all` (size * bytes).
int coll_allgather_bytes(Comm& c, const void* mine, size_t bytes, void* all);

}  // namespace lwmpi
