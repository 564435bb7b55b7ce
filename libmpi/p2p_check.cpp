// Point-to-point argument checks (see p2p_check.hpp).
#include "p2p_check.hpp"

#include "comm.hpp"
#include "config.hpp"

#include <mputil/mputil.hpp>

namespace lwmpi {

int check_count(int count) { return count < 0 ? MPI_ERR_COUNT : MPI_SUCCESS; }

int check_type(MPI_Datatype type) { return type_check(type, true); }

namespace {

int buffer_ok(const void* buf, int count, const TypeSpan& span)
{
    if (buf == MPI_IN_PLACE)
        return MPI_ERR_BUFFER;
    // A null buffer is fine with absolute addresses (a type whose lower bound is not 0,
    // used with MPI_BOTTOM) or when there is nothing to move.
    if (!buf && count > 0 && span.size > 0 && span.lb == 0)
        return MPI_ERR_BUFFER;
    return MPI_SUCCESS;
}

// No buffer is larger than the cluster's memory: such a count describes none, and the
// transport must never be asked to move it.
int span_fits(int count, MPI_Aint size)
{
    return count > 0 && size > 0 && (size_t)size > mputil::memory_bytes() / (size_t)count ? MPI_ERR_COUNT
                                                                                           : MPI_SUCCESS;
}

}  // namespace

int check_buffer(const void* buf, int count, MPI_Datatype type)
{
    return buffer_ok(buf, count, type_span(type));
}

int check_span(int count, MPI_Datatype type) { return span_fits(count, type_size(type)); }

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

int check_data(const void* buf, int count, MPI_Datatype type, TypeSpan* span)
{
    TypeSpan s;
    int err = check_count(count);
    if (err == MPI_SUCCESS && !type_span_checked(type, &s))
        err = MPI_ERR_TYPE;
    if (err != MPI_SUCCESS)
        return err;
    if (span)
        *span = s;
    err = span_fits(count, s.size);
    if (err == MPI_SUCCESS)
        err = buffer_ok(buf, count, s);
    return err;
}

}  // namespace lwmpi
