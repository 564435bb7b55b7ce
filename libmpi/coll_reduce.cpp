// MPI calls of the tree collectives, blocking and nonblocking: Barrier, Bcast, and the
// reductions (Reduce, Allreduce, Reduce_scatter(_block), Scan, Exscan). Each checks its
// arguments and builds its schedule (coll_build.cpp); coll_call runs or starts it.
#include <limits.h>
#include <stdlib.h>

#include "api.hpp"
#include "coll.hpp"
#include "coll_check.hpp"
#include "coll_shm.hpp"
#include "datatype.hpp"
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

// This rank's operand: `send`, or `recv` for MPI_IN_PLACE.
const void* input_of(const void* send, const void* recv) { return send == MPI_IN_PLACE ? recv : send; }

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

int reduce_scatter(const void* send, void* recv, const int* counts, MPI_Datatype type, MPI_Op op,
                   MPI_Comm comm, CollStart start)
{
    return coll_call(comm, start, [&](Comm& c, Schedule& s) {
        ReduceShape shape;
        int err = check_reduce_scatter(c, send, recv, counts, type, op, &shape);
        if (err == MPI_SUCCESS)
            build_reduce_scatter(s, input_of(send, recv), recv, counts, shape, op);
        return err;
    });
}

// Reduce_scatter_block: the same with equal blocks (the counts live until the schedule is
// built, which is all it needs of them).
int reduce_scatter_block(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
                         MPI_Comm comm, CollStart start)
{
    Comm* c = comm_get(comm);
    int* counts = c ? static_cast<int*>(malloc(sizeof(int) * c->size)) : nullptr;
    if (c && !counts)
        return fail(comm, MPI_ERR_NO_MEM);
    for (int r = 0; c && r < c->size; r++)
        counts[r] = count;
    int err = reduce_scatter(send, recv, counts, type, op, comm, start);
    free(counts);
    return err;
}

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

// A blocking Allreduce or Reduce through the cluster's shared memory when it applies
// (coll_shm.hpp); false: the schedule takes it (and reports any argument error). A Reduce
// takes it with bad buffers too, as every rank of the schedules' path takes part in the
// root's verdict: each rank returns its own error, else the root's.
bool shm_reduction(Reduction kind, const void* send, void* recv, int count, MPI_Datatype type,
                   MPI_Op op, int root, MPI_Comm comm, int* err)
{
    Comm* c = comm_get(comm);
    ReduceShape shape;
    if (!c || is_inter(*c) || check_reduce_args(count, type, op, &shape) != MPI_SUCCESS ||
        !shm_allreduce_fits(count, type, op) ||
        (kind == Reduction::ToRoot && check_root(*c, root) != MPI_SUCCESS))
        return false;
    int verdict = check_reduction_buffers(kind, *c, send, recv, count, type, root);
    if (verdict != MPI_SUCCESS && kind != Reduction::ToRoot)
        return false;
    const void* input = verdict == MPI_SUCCESS ? input_of(send, recv) : nullptr;
    return shm_run(comm, *c, err, [&] {
        return kind == Reduction::ToRoot ? shm_reduce(*c, input, recv, count, type, op, root, verdict)
                                         : shm_allreduce(*c, input, recv, count, type, op);
    });
}

int reduction(Reduction kind, const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
              int root, MPI_Comm comm, CollStart start)
{
    return coll_call(comm, start, [&](Comm& c, Schedule& s) {
        ReduceShape shape;
        int err = check_reduce_args(count, type, op, &shape);
        if (err == MPI_SUCCESS && kind == Reduction::ToRoot)
            err = check_root(c, root);
        if (err == MPI_SUCCESS) {
            err = check_reduction_buffers(kind, c, send, recv, count, type, root);
            // A blocking Reduce spreads the root's verdict; an Ireduce cannot wait for it.
            if (kind == Reduction::ToRoot && !start.nonblocking)
                err = agree_with_root(c, root, err);
        }
        if (err != MPI_SUCCESS)
            return err;
        const void* input = input_of(send, recv);
        switch (kind) {
        case Reduction::ToRoot: build_reduce(s, input, recv, shape, op, root); break;
        case Reduction::ToAll: build_allreduce(s, input, recv, shape, op); break;
        case Reduction::Scan: build_scan(s, input, recv, shape, op, false); break;
        case Reduction::Exscan: build_scan(s, input, recv, shape, op, true); break;
        }
        return MPI_SUCCESS;
    });
}

int barrier(MPI_Comm comm, CollStart start)
{
    Comm* c = start.nonblocking ? nullptr : comm_get(comm);
    int err;
    if (c && !is_inter(*c) && shm_run(comm, *c, &err, [&] { return shm_barrier(*c); }))
        return err;
    return coll_call(comm, start, [](Comm&, Schedule& s) {
        build_barrier(s);
        return MPI_SUCCESS;
    });
}

// A blocking Bcast through the cluster's shared memory when it applies (coll_shm.hpp);
// false: the schedule takes it (and reports any argument error).
bool shm_bcast_call(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, int* err)
{
    Comm* c = comm_get(comm);
    if (!c || is_inter(*c) || check_count(count) != MPI_SUCCESS || check_type(type) != MPI_SUCCESS ||
        check_root(*c, root) != MPI_SUCCESS || check_buffer(buf, count, type) != MPI_SUCCESS ||
        !shm_bcast_fits(count, type))
        return false;
    return shm_run(comm, *c, err, [&] { return shm_bcast(*c, buf, count, type, root); });
}

int bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, CollStart start)
{
    return coll_call(comm, start, [&](Comm& c, Schedule& s) {
        int err = check_count(count);
        if (err == MPI_SUCCESS)
            err = check_type(type);
        if (err == MPI_SUCCESS)
            err = check_root(c, root);
        if (err == MPI_SUCCESS)
            err = check_buffer(buf, count, type);
        if (err == MPI_SUCCESS)
            build_bcast(s, buf, count, type, root);
        return err;
    });
}

}  // namespace

}  // namespace lwmpi

using namespace lwmpi;

int api::Barrier(MPI_Comm comm)
{
    if (is_intercomm(comm))
        return inter_barrier(comm);
    return barrier(comm, kBlocking);
}

int api::Ibarrier(MPI_Comm comm, MPI_Request* request)
{
    return barrier(comm, nonblocking(request));
}

int api::Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    if (is_intercomm(comm))
        return inter_bcast(buf, count, type, root, comm);
    int err;
    if (shm_bcast_call(buf, count, type, root, comm, &err))
        return err;
    return bcast(buf, count, type, root, comm, kBlocking);
}

int api::Ibcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm,
                MPI_Request* request)
{
    return bcast(buf, count, type, root, comm, nonblocking(request));
}

int api::Reduce(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op, int root,
                MPI_Comm comm)
{
    if (is_intercomm(comm))
        return inter_reduce(send, recv, count, type, op, root, comm);
    int err;
    if (shm_reduction(Reduction::ToRoot, send, recv, count, type, op, root, comm, &err))
        return err;
    return reduction(Reduction::ToRoot, send, recv, count, type, op, root, comm, kBlocking);
}

int api::Ireduce(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op, int root,
                 MPI_Comm comm, MPI_Request* request)
{
    return reduction(Reduction::ToRoot, send, recv, count, type, op, root, comm,
                     nonblocking(request));
}

int api::Allreduce(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
                   MPI_Comm comm)
{
    if (is_intercomm(comm))
        return inter_allreduce(send, recv, count, type, op, comm);
    int err;
    if (shm_reduction(Reduction::ToAll, send, recv, count, type, op, 0, comm, &err))
        return err;
    return reduction(Reduction::ToAll, send, recv, count, type, op, 0, comm, kBlocking);
}

int api::Iallreduce(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
                    MPI_Comm comm, MPI_Request* request)
{
    return reduction(Reduction::ToAll, send, recv, count, type, op, 0, comm, nonblocking(request));
}

int api::Scan(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    return reduction(Reduction::Scan, send, recv, count, type, op, 0, comm, kBlocking);
}

int api::Iscan(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
               MPI_Comm comm, MPI_Request* request)
{
    return reduction(Reduction::Scan, send, recv, count, type, op, 0, comm, nonblocking(request));
}

int api::Exscan(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
                MPI_Comm comm)
{
    return reduction(Reduction::Exscan, send, recv, count, type, op, 0, comm, kBlocking);
}

int api::Iexscan(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
                 MPI_Comm comm, MPI_Request* request)
{
    return reduction(Reduction::Exscan, send, recv, count, type, op, 0, comm, nonblocking(request));
}

int api::Reduce_scatter_block(const void* send, void* recv, int recvcount, MPI_Datatype type,
                              MPI_Op op, MPI_Comm comm)
{
    if (is_intercomm(comm))
        return inter_reduce_scatter_block(send, recv, recvcount, type, op, comm);
    return reduce_scatter_block(send, recv, recvcount, type, op, comm, kBlocking);
}

int api::Ireduce_scatter_block(const void* send, void* recv, int recvcount, MPI_Datatype type,
                               MPI_Op op, MPI_Comm comm, MPI_Request* request)
{
    return reduce_scatter_block(send, recv, recvcount, type, op, comm, nonblocking(request));
}

int api::Reduce_scatter(const void* send, void* recv, const int recvcounts[], MPI_Datatype type,
                        MPI_Op op, MPI_Comm comm)
{
    if (is_intercomm(comm))
        return inter_reduce_scatter(send, recv, recvcounts, type, op, comm);
    return reduce_scatter(send, recv, recvcounts, type, op, comm, kBlocking);
}

int api::Ireduce_scatter(const void* send, void* recv, const int recvcounts[], MPI_Datatype type,
                         MPI_Op op, MPI_Comm comm, MPI_Request* request)
{
    return reduce_scatter(send, recv, recvcounts, type, op, comm, nonblocking(request));
}
