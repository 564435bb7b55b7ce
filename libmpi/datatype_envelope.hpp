// What built a derived type (MPI 3.1 section 4.1.13): the combiner and the constructor's
// arguments, kept as MPI_Type_get_envelope and MPI_Type_get_contents return them.
#pragma once
#include <mpi.h>

namespace lwmpi {

struct TypeNode;

// One allocation: the header, then the addresses, the types and the integers. The types are
// nodes (handles may be freed meanwhile); the type that owns the envelope retains them.
struct TypeEnvelope {
    int combiner;
    int ni, na, nd;
    MPI_Aint* aints;
    const TypeNode** types;
    int* ints;
};

// An envelope with room for the given counts (contents unset), or nullptr without memory.
TypeEnvelope* envelope_new(int combiner, int ni, int na, int nd);

// A copy of an envelope (the types not retained), or nullptr without memory.
TypeEnvelope* envelope_copy(const TypeEnvelope& envelope);

// Frees the memory only; releasing the types is the owner's business.
void envelope_free(TypeEnvelope* envelope);

}  // namespace lwmpi
