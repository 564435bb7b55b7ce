// Argument checks of the collective calls, and typed buffers seen as packed bytes.
#pragma once

#include <mpi.h>
#include <stddef.h>

namespace lwmpi {

struct Comm;

int check_root(const Comm& c, int root);                        // MPI_ERR_ROOT
// Counts and displacements of the v-collectives: MPI_ERR_ARG for a missing array,
// MPI_ERR_COUNT for a negative count.
int check_counts(const Comm& c, const int* counts, const int* displs);

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
