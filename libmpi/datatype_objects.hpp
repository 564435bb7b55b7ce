// Derived datatype objects: creation from blocks, the per-rank handle table, reference counts
// (a handle and every parent type hold one), and handle-to-node lookup.
#pragma once
#include <mpi.h>

#include "libmpi/datatype_envelope.hpp"
#include "libmpi/attr.hpp"
#include "libmpi/datatype_node.hpp"
#include "libmpi/handles.hpp"

namespace lwmpi {

struct DerivedType {
    TypeNode node;  // first member: a derived node converts back to its object
    int refs;
    int index;      // in the rank's handle table
    bool committed;
    bool freed;     // the program's handle is gone; parents or operations still hold it
    char* name;     // malloc'ed, or nullptr for the empty default name
    TypeEnvelope* envelope;  // how the program built it; nullptr for libmpi's inner parts
    AttrList attrs; // cached attributes (attr.hpp)
    // followed in the same allocation by node.block_count TypeBlocks
};

// The node of a derived type not yet destroyed, else nullptr.
const TypeNode* derived_type_node(MPI_Datatype type);

// The node of a live type (predefined, or derived and not yet destroyed), else nullptr.
// Inline: every transfer asks it several times, mostly of a predefined type.
inline const TypeNode* type_node(MPI_Datatype type) {
    if (is_predefined(type, LWMPI_KIND_DATATYPE)) {
        const int index = handle_index(type);
        return index <= 0 || index >= LWMPI_PREDEFINED_TYPE_COUNT ? nullptr : &predefined_types[index].node;
    }
    return derived_type_node(type);
}

// The derived object behind a handle the program may still use (not freed), else nullptr.
DerivedType* derived_type(MPI_Datatype type);

// Builds a derived type from `count` blocks (retaining their children) and gives it a handle.
// `resized` overrides lb and extent (MPI_Type_create_resized); `align` pads the extent to the
// strictest alignment inside (MPI_Type_create_struct). The type takes `envelope` (may be
// nullptr), also on failure, and retains its types. Returns MPI_SUCCESS or MPI_ERR_NO_MEM.
struct ResizedBounds {
    bool set;
    MPI_Aint lb, extent;
};
int type_create(const TypeBlock* blocks, int count, ResizedBounds resized, bool align,
                TypeEnvelope* envelope, MPI_Datatype* out);

// A new, separately freed derived type equal to `node` in every respect (layout, envelope,
// committed state): what MPI_Type_get_contents returns for a derived inner type.
int type_clone(const TypeNode* node, MPI_Datatype* out);

// Appends a block, merging it into the previous one when it continues it in memory.
void append_block(TypeBlock* blocks, int* count, const TypeBlock& block);

// Drops the program's handle (MPI_Type_free); the object lives on while referenced.
void type_free_handle(DerivedType* type);

// Destroys every derived type of the calling rank (datatype_finalize).
void type_destroy_all();

// The predefined handle of a leaf node.
MPI_Datatype predefined_handle(const TypeNode* leaf);

// The one predefined type all data of `node` shares, or nullptr.
inline const TypeNode* single_leaf(const TypeNode* node) {
    return node->predefined ? node : node->layout.single;
}

}  // namespace lwmpi
