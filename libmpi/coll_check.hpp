// Argument checks of the collective calls, and typed buffers seen as packed bytes.
#pragma once

#include <mpi.h>
#include <stddef.h>

#include "comm.hpp"
#include "env.hpp"
#include "errhandler.hpp"

namespace lwmpi {

// Order of the checks, so that every rank reaches the same verdict without communicating:
// first the arguments every rank must pass alike (communicator, counts that must match,
// datatypes, operation, root), then this rank's own buffers (null, MPI_IN_PLACE where the
// standard forbids it, send and receive buffers that overlap). A program that passes a bad
// argument on every rank gets the class on every rank. One whose buffers are wrong on some
// ranks only is erroneous (MPI 3.1 section 8.3: the state after such an error is undefined);
// under the default MPI_ERRORS_ARE_FATAL the erring rank ends the run, under
// MPI_ERRORS_RETURN the other ranks may wait for it: no agreement round is paid on every
// collective call to cover that case. The exception is the rooted calls (Reduce, Gather(v),
// Scatter(v)), whose root alone has some buffers: there the root's verdict is broadcast
// (agree_with_root) before the data phase, so a bad root buffer fails on every rank (the
// shared-memory Reduce sends it down the leaders' tree beside the data: coll_shm.hpp).

int check_root(const Comm& c, int root);                        // MPI_ERR_ROOT
// Counts and displacements of the v-collectives: MPI_ERR_ARG for a missing array,
// MPI_ERR_COUNT for a negative count.
int check_counts(const Comm& c, const int* counts, const int* displs);
// Every rank's verdict after the root's is spread (one small broadcast): `local` if this
// rank found an error, else the root's.
int agree_with_root(Comm& c, int root, int local);
// The operation of a reduction collective: MPI_ERR_OP for MPI_REPLACE and MPI_NO_OP (they
// belong to the one-sided accumulate calls), then op_check's verdict on (op, type).
int check_op(MPI_Op op, MPI_Datatype type);

// One side of a collective with a block per rank: the v-forms' arrays, or `count` elements
// each, back to back; the w-form (Alltoallw) adds a type per block and byte displacements.
struct PerRank {
    const void* buf;
    bool varying;
    const int* counts;
    const int* displs;
    int count;
    MPI_Datatype type;
    bool w_form;                // Alltoallw: a type per block, byte displacements
    const MPI_Datatype* types;

    int count_of(int r) const { return varying ? counts[r] : count; }
    MPI_Datatype type_of(int r) const { return w_form ? types[r] : type; }
    void* block(int r) const;  // where block r starts
    size_t packed_bytes(int r) const;  // block r's data, packed
};
// Whether both sides are equal blocks (no v- or w-form) of one packed size (*bytes, > 0);
// send may be MPI_IN_PLACE.
bool equal_packed_blocks(const PerRank& send, const PerRank& recv, size_t* bytes);
inline PerRank v_blocks(const void* buf, const int* counts, const int* displs, MPI_Datatype type)
{
    return {buf, true, counts, displs, 0, type, false, nullptr};
}
inline PerRank equal_blocks(const void* buf, int count, MPI_Datatype type)
{
    return {buf, false, nullptr, nullptr, count, type, false, nullptr};
}
inline PerRank w_blocks(const void* buf, const int* counts, const int* displs,
                        const MPI_Datatype* types)
{
    return {buf, true, counts, displs, 0, MPI_BYTE, true, types};
}

// This rank's buffer of a side whose counts and type passed their checks: MPI_ERR_BUFFER
// for MPI_IN_PLACE or for a null buffer that would be read or written (see check_buffer).
int check_blocks_buffer(const Comm& c, const PerRank& side);

// Whether two buffers of one call share bytes (MPI_IN_PLACE never does). Exact when the
// layouts are dense; layouts with gaps may interleave legally, so there only the same first
// byte (one buffer given twice) counts. Zero-byte buffers never alias.
bool aliased(const void* a, int acount, MPI_Datatype atype, const void* b, int bcount,
             MPI_Datatype btype);
bool aliased(const Comm& c, const PerRank& many, const void* one, int count, MPI_Datatype type);
bool aliased(const Comm& c, const PerRank& a, const PerRank& b);

// A typed buffer as packed bytes: the data itself when it is one dense block, otherwise a
// staging copy (packed at once if `fill`). packed_done unpacks (if `unpack`) and frees.
struct Packed {
    void* bytes;
    size_t size;
    bool staged;
};
int packed_view(const void* buf, int count, MPI_Datatype type, bool fill, Packed* out);
void packed_done(Packed* p, void* buf, int count, MPI_Datatype type, bool unpack);

// Copies typed data to typed data on this rank (a rank's own block of a collective):
// MPI_ERR_TRUNCATE if the receive side is smaller.
int local_copy(const void* src, int scount, MPI_Datatype stype, void* dst, int rcount,
               MPI_Datatype rtype);

// Address of block `index` (in elements of `type`) of `buf`.
inline void* block_at(const void* buf, MPI_Aint index, MPI_Aint extent)
{
    return static_cast<char*>(const_cast<void*>(buf)) + index * extent;
}

}  // namespace lwmpi
