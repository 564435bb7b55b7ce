// The datatype engine as the rest of libmpi sees it: checks, layout queries, packing of
// typed buffers into contiguous bytes and back, element counting.
//
// Buffers are addressed as MPI does: element i of a type starts at buf + i * extent, and
// its data sits at the offsets of the type map (relative to buf; buf may be MPI_BOTTOM).
// These functions take valid handles (see type_check); derived types that the program has
// freed stay usable here while retained (type_retain) by a pending operation.
#pragma once
#include <mpi.h>
#include <stddef.h>

namespace lwmpi {

// MPI_SUCCESS, or MPI_ERR_TYPE for a null, freed, unknown or (if asked) uncommitted type.
int type_check(MPI_Datatype type, bool need_committed);

MPI_Aint type_size(MPI_Datatype type);
MPI_Aint type_extent(MPI_Datatype type);
MPI_Aint type_lb(MPI_Datatype type);
MPI_Aint type_true_lb(MPI_Datatype type);
MPI_Aint type_true_extent(MPI_Datatype type);

// `count` elements are one dense block of count * size bytes starting at buf + lb.
bool type_is_contiguous(MPI_Datatype type);

// What moving data of a type needs, in one lookup: size, lb, type_is_contiguous.
struct TypeSpan {
    MPI_Aint size;
    MPI_Aint lb;
    bool contiguous;
};
TypeSpan type_span(MPI_Datatype type);
// type_check (committed) and type_span in one lookup: false for a type type_check refuses.
bool type_span_checked(MPI_Datatype type, TypeSpan* out);

// Copies the data of `count` elements at `buf`, in type-map order, to `out`; returns the bytes
// written (count * size).
size_t pack_bytes(MPI_Datatype type, const void* buf, int count, void* out);

// Fills `count` elements at `buf` from the packed bytes at `in`, stopping after `in_bytes`
// (a truncated message fills a prefix of the type map, partial elements included); returns
// the bytes consumed, min(in_bytes, count * size).
size_t unpack_bytes(MPI_Datatype type, const void* in, size_t in_bytes, void* buf, int count);

// Windowed forms for messages sent in pieces: bytes [first, first + max_bytes) of the packed
// form. They walk the type map from the start, so pieces should be large.
size_t pack_range(MPI_Datatype type, const void* buf, int count, size_t first, size_t max_bytes,
                  void* out);
size_t unpack_range(MPI_Datatype type, const void* in, size_t first, size_t bytes, void* buf,
                    int count);

// Basic elements in `bytes` bytes of packed data (MPI_Get_elements); MPI_UNDEFINED when the
// bytes end inside a basic element. Returns MPI_SUCCESS.
int type_elements(MPI_Datatype type, size_t bytes, MPI_Count* elements);

// True when every datum of the type is the same predefined type `basic` without padding, so
// packed data of `count` elements is count * per_element consecutive `basic` values.
bool type_basic(MPI_Datatype type, MPI_Datatype* basic, int* per_element);

// Keep a derived type alive while an operation uses it, even if the program frees it
// meanwhile (MPI 3.1 section 4.1.9). No-ops for predefined types.
void type_retain(MPI_Datatype type);
void type_release(MPI_Datatype type);

// MPI_Finalize: destroys every derived type of the calling rank, whoever holds it, and the
// names given to predefined types. Later retains and releases are no-ops.
void datatype_finalize();

}  // namespace lwmpi
