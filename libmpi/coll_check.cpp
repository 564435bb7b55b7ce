// Collective argument checks and packed views (see coll_check.hpp).
#include "coll_check.hpp"

#include <stdlib.h>

#include "comm.hpp"
#include "datatype.hpp"

namespace lwmpi {

int check_root(const Comm& c, int root) { return root >= 0 && root < c.size ? MPI_SUCCESS : MPI_ERR_ROOT; }

int check_counts(const Comm& c, const int* counts, const int* displs)
{
    if (!counts || !displs)
        return MPI_ERR_ARG;
    for (int i = 0; i < c.size; i++)
        if (counts[i] < 0)
            return MPI_ERR_COUNT;
    return MPI_SUCCESS;
}

int packed_view(const void* buf, int count, MPI_Datatype type, bool fill, Packed* out)
{
    out->size = static_cast<size_t>(type_size(type)) * static_cast<size_t>(count);
    out->staged = !type_is_contiguous(type);
    if (!out->staged) {
        out->bytes = static_cast<char*>(const_cast<void*>(buf)) + type_lb(type);
        return MPI_SUCCESS;
    }
    out->bytes = malloc(out->size > 0 ? out->size : 1);
    if (!out->bytes)
        return MPI_ERR_NO_MEM;
    if (fill)
        pack_bytes(type, buf, count, out->bytes);
    return MPI_SUCCESS;
}

void packed_done(Packed* p, void* buf, int count, MPI_Datatype type, bool unpack)
{
    if (!p->staged)
        return;
    if (unpack)
        unpack_bytes(type, p->bytes, p->size, buf, count);
    free(p->bytes);
    p->bytes = nullptr;
}

int local_copy(const void* src, int scount, MPI_Datatype stype, void* dst, int rcount,
               MPI_Datatype rtype)
{
    Packed in;
    int err = packed_view(src, scount, stype, true, &in);
    if (err != MPI_SUCCESS)
        return err;
    size_t room = static_cast<size_t>(type_size(rtype)) * static_cast<size_t>(rcount);
    unpack_bytes(rtype, in.bytes, in.size < room ? in.size : room, dst, rcount);
    packed_done(&in, nullptr, 0, stype, false);
    return in.size > room ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
}

}  // namespace lwmpi
