// Reduction operations as the collectives see them: checking an (op, datatype) pair and
// combining two buffers. Predefined operations work on every datatype whose data are all
// of types the operation allows (MPI 3.1 section 5.9.2), derived types included.
#pragma once
#include <mpi.h>

namespace lwmpi {

// Whether `op` is a predefined operation or a live one of the program's.
bool op_valid(MPI_Op op);

// MPI_SUCCESS; MPI_ERR_OP for an invalid operation or one not defined on the type's data;
// MPI_ERR_TYPE for an invalid or uncommitted type.
int op_check(MPI_Op op, MPI_Datatype type);

// inout = in op inout, element-wise over `count` elements of `type` (both buffers laid out
// as the type says). User functions are called as fn(in, inout, &count, &type). Takes a
// pair that op_check accepted; returns MPI_SUCCESS, or MPI_ERR_OP for an invalid op.
int op_apply(MPI_Op op, const void* in, void* inout, int count, MPI_Datatype type);

// Whether operands may be combined in any order (false: combine in rank order).
bool op_commutative(MPI_Op op);

// MPI_Finalize: frees every user operation of the calling rank.
void op_finalize();

}  // namespace lwmpi
