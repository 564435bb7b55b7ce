// MPI_Reduce_local (MPI 3.1 section 5.9.7): one application of an operation, no
// communication; the collectives' combining step (op_apply) on the caller's buffers.
#include "api.hpp"
#include "call.hpp"
#include "errhandler.hpp"
#include "op.hpp"
#include "p2p_check.hpp"

using namespace lwmpi;

int api::Reduce_local(const void* inbuf, void* inoutbuf, int count, MPI_Datatype type, MPI_Op op)
{
    int err = check_count(count);
    if (err == MPI_SUCCESS)
        err = op_check(op, type);
    if (err == MPI_SUCCESS)
        err = check_buffer(inbuf, count, type);  // MPI_IN_PLACE is no buffer here
    if (err == MPI_SUCCESS)
        err = check_buffer(inoutbuf, count, type);
    if (err == MPI_SUCCESS && count > 0)
        err = op_apply(op, inbuf, inoutbuf, count, type);
    return world_error(err);
}
