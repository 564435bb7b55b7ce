// Point-to-point argument checks (see p2p_check.hpp).
#include "p2p_check.hpp"

#include "comm.hpp"
#include "config.hpp"
#include "datatype.hpp"

#include <mputil/mputil.hpp>

namespace lwmpi {

int check_count(int count) { return count < 0 ? MPI_ERR_COUNT : MPI_SUCCESS; }

int check_type(MPI_Datatype type) { return type_check(type, true); }

int check_buffer(const void* buf, int count, MPI_Datatype type)
{
    if (buf == MPI_IN_PLACE)
        return MPI_ERR_BUFFER;
    // A null buffer is fine with absolute addresses (a type whose lower bound is not 0,
    // used with MPI_BOTTOM) or when there is nothing to move.
    if (!buf && count > 0 && type_size(type) > 0 && type_lb(type) == 0)
        return MPI_ERR_BUFFER;
    return MPI_SUCCESS;
}

// No buffer is larger than the cluster's memory: such a count describes none, and the
// transport must never be asked to move it.
int check_span(int count, MPI_Datatype type)
{
    MPI_Aint size = type_size(type);
    return count > 0 && size > 0 && (size_t)size > mputil::memory_bytes() / (size_t)count ? MPI_ERR_COUNT
                                                                                           : MPI_SUCCESS;
}

int check_send_rank(const Comm& c, int dest)
{
    return dest == MPI_PROC_NULL || (dest >= 0 && dest < peer_size(c)) ? MPI_SUCCESS : MPI_ERR_RANK;
}

int check_recv_rank(const Comm& c, int source)
{
    return source == MPI_ANY_SOURCE ? MPI_SUCCESS : check_send_rank(c, source);
}

int check_send_tag(int tag) { return tag >= 0 && tag <= kTagUb ? MPI_SUCCESS : MPI_ERR_TAG; }

int check_recv_tag(int tag) { return tag == MPI_ANY_TAG ? MPI_SUCCESS : check_send_tag(tag); }

int check_data(const void* buf, int count, MPI_Datatype type)
{
    int err = check_count(count);
    if (err == MPI_SUCCESS)
        err = check_type(type);
    if (err == MPI_SUCCESS)
        err = check_span(count, type);
    if (err == MPI_SUCCESS)
        err = check_buffer(buf, count, type);
    return err;
}

}  // namespace lwmpi
