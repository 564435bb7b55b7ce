// How the datatype engine represents a type: a node with its layout, either a predefined
// leaf (a C type) or a derived node made of blocks of child nodes. Blocks keep constructors
// compact: a vector of a million blocks is one strided block, not a million runs.
#pragma once
#include <mpi.h>
#include <stdint.h>

#include "libmpi/reduce_ops.hpp"

namespace lwmpi {

struct TypeNode;

// `repeat` groups, `stride` bytes apart, of `blocklength` consecutive child elements (child
// extent apart), the first at `disp` bytes from the element's origin.
struct TypeBlock {
    const TypeNode* child;
    MPI_Aint disp;
    MPI_Aint blocklength;
    MPI_Aint repeat;
    MPI_Aint stride;
};

struct TypeLayout {
    MPI_Aint size;          // bytes of data in one element
    MPI_Aint lb, ub;        // extent = ub - lb
    MPI_Aint true_lb, true_ub;
    MPI_Aint basic_count;   // basic elements (pair types count 2) in one element
    MPI_Aint alignment;     // strictest alignment of the C types inside
    const TypeNode* single; // predefined leaf shared by all the data, or nullptr (mixed/empty)
    bool dense;             // in type-map order, the data covers [true_lb, true_lb + size) in order
    bool sticky;            // lb/ub were set by MPI_Type_create_resized (no alignment padding)

    MPI_Aint extent() const { return ub - lb; }
    // `count` consecutive elements are one dense run of count * size bytes.
    bool tiles() const { return dense && extent() == size; }
};

struct TypeNode {
    TypeLayout layout;
    bool predefined;          // a PredefinedType (below) when true
    int block_count;          // 0 for predefined leaves
    const TypeBlock* blocks;
};

// A predefined C type: at most two parts (the value and the int of a pair type).
struct PredefinedType {
    TypeNode node;
    const char* name;
    TypeGroup group;
    int parts;
    MPI_Aint part_offset[2];
    MPI_Aint part_bytes[2];
    MPI_Aint number_bytes[2];   // each part is numbers of this size (a complex part: two)
    bool long_double[2];        // the part's numbers are C long doubles
    ReduceTable reduce;
};

// Row i describes the predefined handle of index i; row 0 is unused (size 0, no name).
extern const PredefinedType predefined_types[LWMPI_PREDEFINED_TYPE_COUNT];

inline const PredefinedType& as_predefined(const TypeNode* node) {
    return *reinterpret_cast<const PredefinedType*>(node);
}

}  // namespace lwmpi
