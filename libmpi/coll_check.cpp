// Collective argument checks and packed views (see coll_check.hpp).
#include "coll_check.hpp"

#include <stdint.h>
#include <stdlib.h>

#include "coll.hpp"
#include "comm.hpp"
#include "datatype.hpp"
#include "op.hpp"
#include "p2p_check.hpp"

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

int agree_with_root(Comm& c, int root, int local)
{
    int verdict = local;
    int err = coll_bcast_bytes(c, &verdict, sizeof verdict, root);
    return local != MPI_SUCCESS ? local : err != MPI_SUCCESS ? err : verdict;
}

int check_op(MPI_Op op, MPI_Datatype type)
{
    return op == MPI_REPLACE || op == MPI_NO_OP ? MPI_ERR_OP : op_check(op, type);
}

namespace {

// Whether any block of the side holds elements.
bool moves_elements(const Comm& c, const PerRank& side)
{
    if (!side.varying)
        return side.count > 0 && c.size > 0;
    for (int r = 0; r < c.size; r++)
        if (side.counts[r] > 0)
            return true;
    return false;
}

// The bytes [lo, hi) that `count` elements of `type` from element `first` of `buf` span;
// `dense`: every byte between is data of the buffer. lo == hi: no bytes at all.
struct Run {
    uintptr_t lo, hi;
    bool dense;
};

Run run_of(const void* buf, MPI_Aint first, size_t count, MPI_Datatype type)
{
    if (buf == MPI_IN_PLACE || count == 0 || type_size(type) == 0)
        return {0, 0, true};
    MPI_Aint extent = type_extent(type);
    uintptr_t base = reinterpret_cast<uintptr_t>(buf) + static_cast<uintptr_t>(first * extent);
    if (type_is_contiguous(type)) {
        uintptr_t lo = base + static_cast<uintptr_t>(type_lb(type));
        return {lo, lo + count * static_cast<size_t>(type_size(type)), true};
    }
    uintptr_t lo = base + static_cast<uintptr_t>(type_true_lb(type));
    uintptr_t span = (count - 1) * static_cast<size_t>(extent) + type_true_extent(type);
    return {lo, lo + span, false};
}

bool runs_alias(Run a, Run b)
{
    if (a.lo == a.hi || b.lo == b.hi)
        return false;
    if (a.dense && b.dense)
        return a.lo < b.hi && b.lo < a.hi;
    return a.lo == b.lo;
}

// A side of equal blocks is one run of size * count elements.
Run equal_run(const Comm& c, const PerRank& side)
{
    return run_of(side.buf, 0, static_cast<size_t>(side.count) * c.size, side.type);
}

}  // namespace

void* PerRank::block(int r) const
{
    if (w_form)
        return block_at(buf, displs[r], 1);  // the w-form's displacements are in bytes
    MPI_Aint index = varying ? displs[r] : static_cast<MPI_Aint>(r) * count;
    return block_at(buf, index, type_extent(type));
}

size_t PerRank::packed_bytes(int r) const
{
    return static_cast<size_t>(type_size(type_of(r))) * static_cast<size_t>(count_of(r));
}

bool equal_packed_blocks(const PerRank& send, const PerRank& recv, size_t* bytes)
{
    if (recv.varying || recv.w_form)
        return false;
    *bytes = recv.packed_bytes(0);
    if (send.buf != MPI_IN_PLACE && (send.varying || send.w_form || send.packed_bytes(0) != *bytes))
        return false;
    return *bytes > 0;
}

int check_blocks_buffer(const Comm& c, const PerRank& side)
{
    return check_buffer(side.buf, moves_elements(c, side) ? 1 : 0, side.type);
}

bool aliased(const void* a, int acount, MPI_Datatype atype, const void* b, int bcount,
             MPI_Datatype btype)
{
    return runs_alias(run_of(a, 0, acount > 0 ? acount : 0, atype),
                      run_of(b, 0, bcount > 0 ? bcount : 0, btype));
}

bool aliased(const Comm& c, const PerRank& many, const void* one, int count, MPI_Datatype type)
{
    Run single = run_of(one, 0, count > 0 ? count : 0, type);
    if (!many.varying)
        return runs_alias(equal_run(c, many), single);
    for (int r = 0; r < c.size; r++)
        if (many.counts[r] > 0 && runs_alias(run_of(many.buf, many.displs[r], many.counts[r], many.type), single))
            return true;
    return false;
}

bool aliased(const Comm& c, const PerRank& a, const PerRank& b)
{
    if (!a.varying && !b.varying)
        return runs_alias(equal_run(c, a), equal_run(c, b));
    // Blocks of the v-forms may interleave legally; comparing every pair would cost
    // size^2 on every call, so only one buffer given twice counts here.
    return a.buf == b.buf && a.buf != MPI_IN_PLACE && moves_elements(c, a) && moves_elements(c, b);
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
