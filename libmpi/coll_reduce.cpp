// MPI calls of the tree collectives: Barrier, Bcast, and the reductions (Reduce, Allreduce,
// Reduce_scatter(_block), Scan, Exscan). Each checks its arguments, copies its input into an
// operand and runs the building block of coll.hpp.
#include <stdlib.h>
#include <string.h>

#include "coll.hpp"
#include "coll_check.hpp"
#include "datatype.hpp"
#include "env.hpp"
#include "errhandler.hpp"
#include "p2p_check.hpp"

namespace lwmpi {

namespace {

// Comm, count, type and op of a reduction; `in` is this rank's input buffer.
int check_reduction(MPI_Comm comm, const void* in, int count, MPI_Datatype type, MPI_Op op,
                    Comm** c, ReduceShape* shape)
{
    *c = comm_get(comm);
    if (!*c)
        return MPI_ERR_COMM;
    int err = check_data(in, count, type);
    return err == MPI_SUCCESS ? reduce_shape(type, count, op, shape) : err;
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

// Reduces count-by-rank blocks to rank 0 and scatters block r (counts[r] elements) to rank r.
int reduce_scatter(Comm& c, const void* send, void* recv, const int* counts, MPI_Datatype type,
                   MPI_Op op)
{
    long total = 0;
    for (int r = 0; r < c.size; r++)
        total += counts[r];
    ReduceShape shape;
    int err = reduce_shape(type, static_cast<int>(total), op, &shape);
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

extern "C" int MPI_Barrier(MPI_Comm comm)
{
    const char* call = "MPI_Barrier";
    if (!mpi_running())
        return not_running(call);
    Comm* c = comm_get(comm);
    if (!c)
        return fail(comm, MPI_ERR_COMM, call);
    return fail(comm, coll_barrier(*c), call);
}

extern "C" int MPI_Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    const char* call = "MPI_Bcast";
    if (!mpi_running())
        return not_running(call);
    Comm* c = comm_get(comm);
    if (!c)
        return fail(comm, MPI_ERR_COMM, call);
    int err = check_data(buf, count, type);
    if (err == MPI_SUCCESS)
        err = check_root(*c, root);
    Packed p;
    if (err == MPI_SUCCESS)
        err = packed_view(buf, count, type, c->rank == root, &p);
    if (err == MPI_SUCCESS) {
        err = coll_bcast_bytes(*c, p.bytes, p.size, root);
        packed_done(&p, buf, count, type, err == MPI_SUCCESS && c->rank != root);
    }
    return fail(comm, err, call);
}

extern "C" int MPI_Reduce(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
                          int root, MPI_Comm comm)
{
    const char* call = "MPI_Reduce";
    if (!mpi_running())
        return not_running(call);
    Comm* c = nullptr;
    ReduceShape shape;
    int err = check_reduction(comm, send == MPI_IN_PLACE ? recv : send, count, type, op, &c, &shape);
    if (err == MPI_SUCCESS)
        err = check_root(*c, root);
    if (err == MPI_SUCCESS && c->rank == root)
        err = check_buffer(recv, count, type);
    else if (err == MPI_SUCCESS && send == MPI_IN_PLACE)
        err = MPI_ERR_BUFFER;  // only the root may reduce in place
    Operand acc = {};
    if (err == MPI_SUCCESS)
        err = input_copy(shape, send, recv, &acc);
    if (err == MPI_SUCCESS)
        err = coll_reduce(*c, acc.base, shape, op, root);
    if (err == MPI_SUCCESS && c->rank == root)
        err = output(shape, acc, recv);
    operand_free(&acc);
    return fail(comm, err, call);
}

extern "C" int MPI_Allreduce(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
                             MPI_Comm comm)
{
    const char* call = "MPI_Allreduce";
    if (!mpi_running())
        return not_running(call);
    Comm* c = nullptr;
    ReduceShape shape;
    int err = check_reduction(comm, send == MPI_IN_PLACE ? recv : send, count, type, op, &c, &shape);
    if (err == MPI_SUCCESS)
        err = check_buffer(recv, count, type);
    Operand acc = {};
    if (err == MPI_SUCCESS)
        err = input_copy(shape, send, recv, &acc);
    if (err == MPI_SUCCESS)
        err = coll_allreduce(*c, acc.base, shape, op);
    if (err == MPI_SUCCESS)
        err = output(shape, acc, recv);
    operand_free(&acc);
    return fail(comm, err, call);
}

extern "C" int MPI_Reduce_scatter_block(const void* send, void* recv, int recvcount,
                                        MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    const char* call = "MPI_Reduce_scatter_block";
    if (!mpi_running())
        return not_running(call);
    Comm* c = nullptr;
    ReduceShape shape;
    int err = check_reduction(comm, recv, recvcount, type, op, &c, &shape);
    int* counts = nullptr;
    if (err == MPI_SUCCESS) {
        counts = static_cast<int*>(malloc(sizeof(int) * c->size));
        if (!counts)
            err = MPI_ERR_NO_MEM;
    }
    if (err == MPI_SUCCESS) {
        for (int r = 0; r < c->size; r++)
            counts[r] = recvcount;
        err = reduce_scatter(*c, send, recv, counts, type, op);
    }
    free(counts);
    return fail(comm, err, call);
}

extern "C" int MPI_Reduce_scatter(const void* send, void* recv, const int recvcounts[],
                                  MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    const char* call = "MPI_Reduce_scatter";
    if (!mpi_running())
        return not_running(call);
    Comm* c = comm_get(comm);
    if (!c)
        return fail(comm, MPI_ERR_COMM, call);
    if (!recvcounts)
        return fail(comm, MPI_ERR_ARG, call);
    for (int r = 0; r < c->size; r++)
        if (recvcounts[r] < 0)
            return fail(comm, MPI_ERR_COUNT, call);
    ReduceShape shape;
    int err = check_reduction(comm, recv, recvcounts[c->rank], type, op, &c, &shape);
    if (err == MPI_SUCCESS)
        err = reduce_scatter(*c, send, recv, recvcounts, type, op);
    return fail(comm, err, call);
}

namespace {

int scan(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
         bool exclusive, const char* call)
{
    if (!mpi_running())
        return not_running(call);
    Comm* c = nullptr;
    ReduceShape shape;
    int err = check_reduction(comm, send == MPI_IN_PLACE ? recv : send, count, type, op, &c, &shape);
    if (err == MPI_SUCCESS)
        err = check_buffer(recv, count, type);
    Operand acc = {};
    if (err == MPI_SUCCESS)
        err = input_copy(shape, send, recv, &acc);
    if (err == MPI_SUCCESS)
        err = coll_scan(*c, acc.base, shape, op, exclusive);
    if (err == MPI_SUCCESS && !(exclusive && c->rank == 0))  // rank 0's Exscan result is undefined
        err = output(shape, acc, recv);
    operand_free(&acc);
    return fail(comm, err, call);
}

}  // namespace

extern "C" int MPI_Scan(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
                        MPI_Comm comm)
{
    return scan(send, recv, count, type, op, comm, false, "MPI_Scan");
}

extern "C" int MPI_Exscan(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
                          MPI_Comm comm)
{
    return scan(send, recv, count, type, op, comm, true, "MPI_Exscan");
}
