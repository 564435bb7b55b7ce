// MPI calls of the tree collectives: Barrier, Bcast, and the reductions (Reduce, Allreduce,
// Reduce_scatter(_block), Scan, Exscan). Each checks its arguments, copies its input into an
// operand and runs the building block of coll.hpp.
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "api.hpp"
#include "coll.hpp"
#include "coll_check.hpp"
#include "datatype.hpp"
#include "env.hpp"
#include "errhandler.hpp"
#include "intercomm.hpp"
#include "p2p_check.hpp"

namespace lwmpi {

namespace {

// The arguments of a reduction every rank passes alike: count, type and op. The shape
// covers `count` elements.
int check_reduce_args(int count, MPI_Datatype type, MPI_Op op, ReduceShape* shape)
{
    int err = check_count(count);
    if (err == MPI_SUCCESS)
        err = check_type(type);
    return err == MPI_SUCCESS ? reduce_shape(type, count, op, shape) : err;
}

// This rank's buffers: the input of `scount` elements (unless in place) and the output of
// `rcount`, which must not share bytes.
int check_reduce_buffers(const void* send, int scount, const void* recv, int rcount,
                         MPI_Datatype type)
{
    int err = send == MPI_IN_PLACE ? MPI_SUCCESS : check_buffer(send, scount, type);
    if (err == MPI_SUCCESS)
        err = check_buffer(recv, rcount, type);
    if (err == MPI_SUCCESS && aliased(send, scount, type, recv, rcount, type))
        err = MPI_ERR_BUFFER;
    return err;
}

// This rank's operand: a copy of `send`, or of `recv` for MPI_IN_PLACE.
int input_copy(const ReduceShape& shape, const void* send, const void* recv, Operand* acc)
{
    return operand_copy(shape, send == MPI_IN_PLACE ? recv : send, acc);
}

// The result from the operand to the program's buffer.
int output(const ReduceShape& shape, const Operand& acc, void* recv)
{
    return local_copy(acc.base, shape.count, shape.type, recv, shape.count, shape.type);
}

// Reduce_scatter's checks: counts (every rank passes the same array), type and op, then the
// input of every block (in recv when in place) and this rank's block of the result.
int check_reduce_scatter(const Comm& c, const void* send, const void* recv, const int* counts,
                         MPI_Datatype type, MPI_Op op, ReduceShape* shape)
{
    if (!counts)
        return MPI_ERR_ARG;
    long total = 0;
    for (int r = 0; r < c.size; r++) {
        if (counts[r] < 0)
            return MPI_ERR_COUNT;
        total += counts[r];
    }
    if (total > INT_MAX)
        return MPI_ERR_COUNT;
    int err = check_reduce_args(static_cast<int>(total), type, op, shape);
    if (err != MPI_SUCCESS)
        return err;
    int mine = send == MPI_IN_PLACE ? static_cast<int>(total) : counts[c.rank];
    return check_reduce_buffers(send, static_cast<int>(total), recv, mine, type);
}

// Reduces count-by-rank blocks to rank 0 and scatters block r (counts[r] elements) to rank r.
int reduce_scatter(Comm& c, const void* send, void* recv, const int* counts, MPI_Datatype type,
                   MPI_Op op)
{
    ReduceShape shape;
    int err = check_reduce_scatter(c, send, recv, counts, type, op, &shape);
    Operand acc = {};
    if (err == MPI_SUCCESS)
        err = input_copy(shape, send, recv, &acc);
    if (err == MPI_SUCCESS)
        err = coll_reduce(c, acc.base, shape, op, 0);
    if (err == MPI_SUCCESS) {
        Exchange ex(c, c.rank == 0 ? c.size : 1);
        if (c.rank == 0) {
            MPI_Aint extent = type_extent(type), first = 0;
            for (int r = 0; r < c.size; r++) {
                void* block = block_at(acc.base, first, extent);
                if (r == 0)
                    err = local_copy(block, counts[0], type, recv, counts[0], type);
                else
                    ex.send(r, block, counts[r], type);
                first += counts[r];
            }
        } else {
            ex.recv(0, recv, counts[c.rank], type);
        }
        int werr = ex.wait();
        err = err != MPI_SUCCESS ? err : werr;
    }
    operand_free(&acc);
    return err;
}

}  // namespace

}  // namespace lwmpi

using namespace lwmpi;

int api::Barrier(MPI_Comm comm)
{
    if (is_intercomm(comm))
        return inter_barrier(comm);
    return collective("MPI_Barrier", comm, [](Comm& c) { return coll_barrier(c); });
}

int api::Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    if (is_intercomm(comm))
        return inter_bcast(buf, count, type, root, comm);
    return collective("MPI_Bcast", comm, [&](Comm& c) {
        int err = check_count(count);
        if (err == MPI_SUCCESS)
            err = check_type(type);
        if (err == MPI_SUCCESS)
            err = check_root(c, root);
        if (err == MPI_SUCCESS)
            err = check_buffer(buf, count, type);
        Packed p;
        if (err == MPI_SUCCESS)
            err = packed_view(buf, count, type, c.rank == root, &p);
        if (err == MPI_SUCCESS) {
            err = coll_bcast_bytes(c, p.bytes, p.size, root);
            packed_done(&p, buf, count, type, err == MPI_SUCCESS && c.rank != root);
        }
        return err;
    });
}

int api::Reduce_scatter_block(const void* send, void* recv, int recvcount,
                                        MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    if (is_intercomm(comm))
        return inter_reduce_scatter_block(send, recv, recvcount, type, op, comm);
    return collective("MPI_Reduce_scatter_block", comm, [&](Comm& c) {
        int* counts = static_cast<int*>(malloc(sizeof(int) * c.size));
        if (!counts)
            return MPI_ERR_NO_MEM;
        for (int r = 0; r < c.size; r++)
            counts[r] = recvcount;
        int err = reduce_scatter(c, send, recv, counts, type, op);
        free(counts);
        return err;
    });
}

int api::Reduce_scatter(const void* send, void* recv, const int recvcounts[],
                                  MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    if (is_intercomm(comm))
        return inter_reduce_scatter(send, recv, recvcounts, type, op, comm);
    return collective("MPI_Reduce_scatter", comm, [&](Comm& c) {
        return reduce_scatter(c, send, recv, recvcounts, type, op);
    });
}

namespace {

// Where a reduction's result goes: Reduce (to a root), Allreduce, Scan, Exscan.
enum class Reduction { ToRoot, ToAll, Scan, Exscan };

// This rank's buffers of a reduction: only the root of a Reduce has a result buffer, and
// only it may reduce in place.
int check_reduction_buffers(Reduction kind, const Comm& c, const void* send, const void* recv,
                            int count, MPI_Datatype type, int root)
{
    if (kind != Reduction::ToRoot || c.rank == root)
        return check_reduce_buffers(send, count, recv, count, type);
    return send == MPI_IN_PLACE ? MPI_ERR_BUFFER : check_buffer(send, count, type);
}

int reduction(Reduction kind, const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
              int root, MPI_Comm comm, const char* call)
{
    if (!mpi_running())
        return not_running(call);
    Comm* c = comm_get(comm);
    ReduceShape shape;
    int err = c ? check_reduce_args(count, type, op, &shape) : MPI_ERR_COMM;
    if (err == MPI_SUCCESS && kind == Reduction::ToRoot)
        err = check_root(*c, root);
    if (err == MPI_SUCCESS) {
        err = check_reduction_buffers(kind, *c, send, recv, count, type, root);
        if (kind == Reduction::ToRoot)
            err = agree_with_root(*c, root, err);
    }
    Operand acc = {};
    if (err == MPI_SUCCESS)
        err = input_copy(shape, send, recv, &acc);
    if (err == MPI_SUCCESS) {
        switch (kind) {
        case Reduction::ToRoot: err = coll_reduce(*c, acc.base, shape, op, root); break;
        case Reduction::ToAll: err = coll_allreduce(*c, acc.base, shape, op); break;
        case Reduction::Scan: err = coll_scan(*c, acc.base, shape, op, false); break;
        case Reduction::Exscan: err = coll_scan(*c, acc.base, shape, op, true); break;
        }
    }
    // Only the root has a Reduce result; rank 0's Exscan result is undefined.
    bool result = kind == Reduction::ToRoot ? c && c->rank == root
                  : kind == Reduction::Exscan ? c && c->rank != 0
                                              : true;
    if (err == MPI_SUCCESS && result)
        err = output(shape, acc, recv);
    operand_free(&acc);
    return fail(comm, err, call);
}

}  // namespace

int api::Reduce(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
                          int root, MPI_Comm comm)
{
    if (is_intercomm(comm))
        return inter_reduce(send, recv, count, type, op, root, comm);
    return reduction(Reduction::ToRoot, send, recv, count, type, op, root, comm, "MPI_Reduce");
}

int api::Allreduce(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
                             MPI_Comm comm)
{
    if (is_intercomm(comm))
        return inter_allreduce(send, recv, count, type, op, comm);
    return reduction(Reduction::ToAll, send, recv, count, type, op, 0, comm, "MPI_Allreduce");
}

int api::Scan(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
                        MPI_Comm comm)
{
    if (is_intercomm(comm))
        return intracomm_only(comm);
    return reduction(Reduction::Scan, send, recv, count, type, op, 0, comm, "MPI_Scan");
}

int api::Exscan(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
                          MPI_Comm comm)
{
    if (is_intercomm(comm))
        return intracomm_only(comm);
    return reduction(Reduction::Exscan, send, recv, count, type, op, 0, comm, "MPI_Exscan");
}
