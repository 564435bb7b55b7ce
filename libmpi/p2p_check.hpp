// Argument checks shared by the point-to-point calls and the collectives: each returns
// MPI_SUCCESS or the error class the standard names for that argument.
#pragma once

#include <mpi.h>

#include "datatype.hpp"

namespace lwmpi {

struct Comm;

int check_count(int count);                                     // MPI_ERR_COUNT
int check_span(int count, MPI_Datatype type);                   // MPI_ERR_COUNT: larger than memory
int check_type(MPI_Datatype type);                              // MPI_ERR_TYPE (committed)
int check_buffer(const void* buf, int count, MPI_Datatype type);  // MPI_ERR_BUFFER
int check_send_rank(const Comm& c, int dest);                   // MPI_ERR_RANK
int check_recv_rank(const Comm& c, int source);                 // MPI_ERR_RANK (wildcard ok)
int check_send_tag(int tag);                                    // MPI_ERR_TAG
int check_recv_tag(int tag);                                    // MPI_ERR_TAG (wildcard ok)
// count, type and buffer together, in the standard's usual order; *span is the type's
// when it is valid (out may be nullptr)
int check_data(const void* buf, int count, MPI_Datatype type, TypeSpan* span = nullptr);

}  // namespace lwmpi
