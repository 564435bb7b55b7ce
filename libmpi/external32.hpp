// The "external32" data representation (MPI 3.1 section 13.5.2): every number big-endian,
// integers two's complement, floating point IEEE 754 (long double: binary128). On this ABI
// every predefined type's external size equals its native data size (the part bytes), so
// only byte order, and on hosts whose long double is the x87 format the encoding, change.
#pragma once
#include <mpi.h>

#include "libmpi/datatype_node.hpp"

namespace lwmpi {

// Writes one value of `leaf` (its parts at their native offsets from `native`) as
// leaf.node.layout.size external32 bytes at `out`.
void external32_encode(const PredefinedType& leaf, const char* native, char* out);

// The reverse: reads leaf.node.layout.size external32 bytes into one native value.
void external32_decode(const PredefinedType& leaf, const char* in, char* native);

}  // namespace lwmpi
