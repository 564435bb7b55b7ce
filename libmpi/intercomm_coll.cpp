// Collectives on an intercommunicator (MPI 3.1 section 5.2.2), by point-to-point between the
// groups on the collective context plus the local group's own collectives:
// - Barrier: local barrier, the leaders swap an empty message, each spreads it locally.
// - Bcast, Reduce: the root (MPI_ROOT) talks to the other group's leader (local rank 0),
//   which spreads or combines locally; the root group's other members (MPI_PROC_NULL) idle.
// - Allreduce, Reduce_scatter(_block): each group reduces to its leader, the leaders swap,
//   each spreads the result of the other group (of which every member keeps its block).
// - Gather(v), Scatter(v): the root receives from (sends to) every remote member at once.
// - Allgather(v), Alltoall(v): every member exchanges with every remote member; all
//   receives are posted before any send waits, so no order of the groups can deadlock.
// MPI_IN_PLACE is not allowed on an intercommunicator (MPI_ERR_BUFFER). The root's own
// buffer verdict is not spread to the other group: a program whose root alone passes a bad
// buffer is erroneous (see coll_check.hpp).
#include <limits.h>
#include <stdlib.h>

#include "call.hpp"
#include "coll.hpp"
#include "coll_check.hpp"
#include "config.hpp"
#include "datatype.hpp"
#include "errhandler.hpp"
#include "intercomm.hpp"
#include "p2p_check.hpp"

namespace lwmpi {

namespace {

template <typename Body>
int run(MPI_Comm comm, Body body)
{
    Comm* c = comm_get(comm);
    return fail(comm, c && is_inter(*c) ? body(*c) : MPI_ERR_COMM);
}

// A root argument: MPI_ROOT (the root itself), MPI_PROC_NULL (the rest of its group) or the
// root's rank in the remote group.
int check_inter_root(const Comm& c, int root)
{
    return root == MPI_ROOT || root == MPI_PROC_NULL || (root >= 0 && root < c.remote_size)
               ? MPI_SUCCESS
               : MPI_ERR_ROOT;
}

// One side of a call with a block per remote member.
struct Side {
    const void* buf;
    MPI_Datatype type;
    bool varying;        // the v-forms' arrays
    const int* counts;
    const int* displs;
    int count;           // of every block otherwise
    bool same_block;     // Allgather(v)'s send: one block for every remote member

    int count_of(int j) const { return varying ? counts[j] : count; }
    void* at(int j) const
    {
        MPI_Aint index = same_block ? 0 : varying ? displs[j] : static_cast<MPI_Aint>(j) * count;
        return block_at(buf, index, type_extent(type));
    }
    // counts (MPI_ERR_ARG, _COUNT), type, then the buffer (MPI_ERR_BUFFER)
    int check(int blocks) const
    {
        if (varying && (!counts || !displs))
            return MPI_ERR_ARG;
        bool moves = false;
        for (int j = 0; j < blocks; j++) {
            if (count_of(j) < 0)
                return MPI_ERR_COUNT;
            moves = moves || count_of(j) > 0;
        }
        int err = check_type(type);
        return err == MPI_SUCCESS ? check_buffer(buf, moves ? 1 : 0, type) : err;
    }
};

Side fixed_side(const void* buf, int count, MPI_Datatype type)
{
    return {buf, type, false, nullptr, nullptr, count, false};
}

Side v_side(const void* buf, const int* counts, const int* displs, MPI_Datatype type)
{
    return {buf, type, true, counts, displs, 0, false};
}

int rooted(Comm& c, int root, const Side& many, const void* one, int count, MPI_Datatype type,
           bool gather)
{
    int err = check_inter_root(c, root);
    if (err != MPI_SUCCESS || root == MPI_PROC_NULL)
        return err;
    if (root != MPI_ROOT) {
        err = check_data(one, count, type);
        if (err != MPI_SUCCESS)
            return err;
        Exchange ex(c, 1);
        if (gather)
            ex.send(root, one, count, type);
        else
            ex.recv(root, const_cast<void*>(one), count, type);
        return ex.wait();
    }
    err = many.check(c.remote_size);
    if (err != MPI_SUCCESS)
        return err;
    Exchange ex(c, c.remote_size);
    for (int j = 0; j < c.remote_size; j++) {
        if (gather)
            ex.recv(j, many.at(j), many.count_of(j), many.type);
        else
            ex.send(j, many.at(j), many.count_of(j), many.type);
    }
    return ex.wait();
}

// Block j of `send` to remote member j and block j of `recv` from it, for every j.
int with_every_remote(Comm& c, const Side& send, const Side& recv)
{
    int err = recv.check(c.remote_size);
    if (err == MPI_SUCCESS)
        err = send.check(send.same_block ? 1 : c.remote_size);
    if (err != MPI_SUCCESS)
        return err;
    Exchange receives(c, c.remote_size);
    for (int j = 0; j < c.remote_size; j++)
        receives.recv(j, recv.at(j), recv.count_of(j), recv.type);
    // Sends go in windows, starting at a different remote member on each rank.
    Exchange sends(c, kAlltoallWindow);
    for (int first = 0; first < c.remote_size && err == MPI_SUCCESS; first += kAlltoallWindow) {
        for (int s = first; s < c.remote_size && s < first + kAlltoallWindow; s++) {
            int j = (c.rank + s) % c.remote_size;
            sends.send(j, send.at(j), send.count_of(j), send.type);
        }
        err = sends.wait();
    }
    int rerr = receives.wait();
    return err != MPI_SUCCESS ? err : rerr;
}

// The arguments of a reduction every member passes alike, then this rank's buffers.
int check_reduction(const void* send, const void* recv, int count, MPI_Datatype type, MPI_Op op,
                    bool has_send, bool has_recv, ReduceShape* shape)
{
    int err = check_count(count);
    if (err == MPI_SUCCESS)
        err = check_type(type);
    if (err == MPI_SUCCESS)
        err = reduce_shape(type, count, op, shape);
    if (err == MPI_SUCCESS && has_send)
        err = check_buffer(send, count, type);
    if (err == MPI_SUCCESS && has_recv)
        err = check_buffer(recv, count, type);
    if (err == MPI_SUCCESS && has_send && has_recv && aliased(send, count, type, recv, count, type))
        err = MPI_ERR_BUFFER;
    return err;
}

// One reduction operand in its own memory: `base` is where element 0 goes.
struct Operand {
    void* base;
    void* memory;
};

int operand_alloc(const ReduceShape& s, Operand* out)
{
    out->memory = malloc(s.span > 0 ? s.span : 1);
    out->base = static_cast<char*>(out->memory) + s.offset;
    return out->memory ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

void operand_free(Operand* o)
{
    free(o->memory);
    o->memory = o->base = nullptr;
}

int operand_copy(const ReduceShape& s, const void* buf, Operand* out)
{
    int err = operand_alloc(s, out);
    if (err == MPI_SUCCESS && (err = local_copy(buf, s.count, s.type, out->base, s.count, s.type)))
        operand_free(out);
    return err;
}

// This group's data reduced to its leader (whose `acc` then holds it).
int reduce_here(Comm& c, const ReduceShape& shape, const void* send, MPI_Op op, Operand* acc)
{
    int err = operand_copy(shape, send, acc);
    return err == MPI_SUCCESS ? coll_reduce(*c.local, acc->base, shape, op, 0) : err;
}

// Reduce_scatter(_block): both groups reduce vectors of the same `total` elements (the sum
// of their own `counts`); my block of the other group's result starts at element `first`.
int reduce_scatter(Comm& c, const void* send, void* recv, const int* counts, MPI_Datatype type,
                   MPI_Op op)
{
    if (!counts)
        return MPI_ERR_ARG;
    long total = 0, first = 0;
    for (int r = 0; r < c.size; r++) {
        if (counts[r] < 0)
            return MPI_ERR_COUNT;
        first += r < c.rank ? counts[r] : 0;
        total += counts[r];
    }
    if (total > INT_MAX)
        return MPI_ERR_COUNT;
    int mine = counts[c.rank];
    ReduceShape shape;
    int err = check_reduction(send, recv, static_cast<int>(total), type, op, true, false, &shape);
    if (err == MPI_SUCCESS)
        err = check_buffer(recv, mine, type);
    if (err == MPI_SUCCESS && aliased(send, static_cast<int>(total), type, recv, mine, type))
        err = MPI_ERR_BUFFER;
    Operand acc = {}, theirs = {};
    if (err == MPI_SUCCESS)
        err = reduce_here(c, shape, send, op, &acc);
    if (err == MPI_SUCCESS)
        err = operand_alloc(shape, &theirs);
    if (err == MPI_SUCCESS)
        err = inter_swap(c, acc.memory, shape.span, theirs.memory, shape.span);
    if (err == MPI_SUCCESS)
        err = local_copy(block_at(theirs.base, first, type_extent(type)), mine, type, recv, mine, type);
    operand_free(&acc);
    operand_free(&theirs);
    return err;
}

}  // namespace

int inter_barrier(MPI_Comm comm)
{
    return run(comm, [](Comm& c) {
        int err = coll_barrier(*c.local);
        char none = 0;
        return err == MPI_SUCCESS ? inter_swap(c, &none, 0, &none, 0) : err;
    });
}

int inter_bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    return run(comm, [&](Comm& c) {
        int err = check_inter_root(c, root);
        if (err != MPI_SUCCESS || root == MPI_PROC_NULL)
            return err;
        err = check_data(buf, count, type);
        Packed p;
        if (err == MPI_SUCCESS)
            err = packed_view(buf, count, type, root == MPI_ROOT, &p);
        if (err != MPI_SUCCESS)
            return err;
        if (root == MPI_ROOT) {
            Exchange ex(c, 1);
            ex.send_bytes(0, p.bytes, p.size);
            err = ex.wait();
        } else {
            if (c.rank == 0) {
                Exchange ex(c, 1);
                ex.recv_bytes(root, p.bytes, p.size);
                err = ex.wait();
            }
            int berr = coll_bcast_bytes(*c.local, p.bytes, p.size, 0);
            err = err != MPI_SUCCESS ? err : berr;
        }
        packed_done(&p, buf, count, type, err == MPI_SUCCESS && root != MPI_ROOT);
        return err;
    });
}

int inter_reduce(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op, int root,
                 MPI_Comm comm)
{
    return run(comm, [&](Comm& c) {
        int err = check_inter_root(c, root);
        if (err != MPI_SUCCESS || root == MPI_PROC_NULL)
            return err;
        ReduceShape shape;
        err = check_reduction(send, recv, count, type, op, root != MPI_ROOT, root == MPI_ROOT, &shape);
        if (err != MPI_SUCCESS)
            return err;
        Operand acc = {};
        if (root == MPI_ROOT) {
            err = operand_alloc(shape, &acc);
            if (err == MPI_SUCCESS) {
                Exchange ex(c, 1);
                ex.recv_bytes(0, acc.memory, shape.span);
                err = ex.wait();
            }
            if (err == MPI_SUCCESS)
                err = local_copy(acc.base, count, type, recv, count, type);
        } else {
            err = reduce_here(c, shape, send, op, &acc);
            if (err == MPI_SUCCESS && c.rank == 0) {
                Exchange ex(c, 1);
                ex.send_bytes(root, acc.memory, shape.span);
                err = ex.wait();
            }
        }
        operand_free(&acc);
        return err;
    });
}

int inter_allreduce(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
                    MPI_Comm comm)
{
    return run(comm, [&](Comm& c) {
        ReduceShape shape;
        int err = check_reduction(send, recv, count, type, op, true, true, &shape);
        Operand acc = {}, theirs = {};
        if (err == MPI_SUCCESS)
            err = reduce_here(c, shape, send, op, &acc);
        if (err == MPI_SUCCESS)
            err = operand_alloc(shape, &theirs);
        if (err == MPI_SUCCESS)
            err = inter_swap(c, acc.memory, shape.span, theirs.memory, shape.span);
        if (err == MPI_SUCCESS)
            err = local_copy(theirs.base, count, type, recv, count, type);
        operand_free(&acc);
        operand_free(&theirs);
        return err;
    });
}

int inter_reduce_scatter(const void* send, void* recv, const int* recvcounts, MPI_Datatype type,
                         MPI_Op op, MPI_Comm comm)
{
    return run(comm, [&](Comm& c) { return reduce_scatter(c, send, recv, recvcounts, type, op); });
}

int inter_reduce_scatter_block(const void* send, void* recv, int recvcount, MPI_Datatype type,
                               MPI_Op op, MPI_Comm comm)
{
    return run(comm, [&](Comm& c) {
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

int inter_gatherv(const void* send, int scount, MPI_Datatype stype, void* recv, const int* rcounts,
                  const int* displs, MPI_Datatype rtype, int root, MPI_Comm comm)
{
    return run(comm, [&](Comm& c) {
        return rooted(c, root, v_side(recv, rcounts, displs, rtype), send, scount, stype, true);
    });
}

int inter_gather(const void* send, int scount, MPI_Datatype stype, void* recv, int rcount,
                 MPI_Datatype rtype, int root, MPI_Comm comm)
{
    return run(comm, [&](Comm& c) {
        return rooted(c, root, fixed_side(recv, rcount, rtype), send, scount, stype, true);
    });
}

int inter_scatterv(const void* send, const int* scounts, const int* displs, MPI_Datatype stype,
                   void* recv, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
    return run(comm, [&](Comm& c) {
        return rooted(c, root, v_side(send, scounts, displs, stype), recv, rcount, rtype, false);
    });
}

int inter_scatter(const void* send, int scount, MPI_Datatype stype, void* recv, int rcount,
                  MPI_Datatype rtype, int root, MPI_Comm comm)
{
    return run(comm, [&](Comm& c) {
        return rooted(c, root, fixed_side(send, scount, stype), recv, rcount, rtype, false);
    });
}

int inter_allgatherv(const void* send, int scount, MPI_Datatype stype, void* recv,
                     const int* rcounts, const int* displs, MPI_Datatype rtype, MPI_Comm comm)
{
    return run(comm, [&](Comm& c) {
        Side one = fixed_side(send, scount, stype);
        one.same_block = true;
        return with_every_remote(c, one, v_side(recv, rcounts, displs, rtype));
    });
}

int inter_allgather(const void* send, int scount, MPI_Datatype stype, void* recv, int rcount,
                    MPI_Datatype rtype, MPI_Comm comm)
{
    return run(comm, [&](Comm& c) {
        Side one = fixed_side(send, scount, stype);
        one.same_block = true;
        return with_every_remote(c, one, fixed_side(recv, rcount, rtype));
    });
}

int inter_alltoallv(const void* send, const int* scounts, const int* sdispls, MPI_Datatype stype,
                    void* recv, const int* rcounts, const int* rdispls, MPI_Datatype rtype,
                    MPI_Comm comm)
{
    return run(comm, [&](Comm& c) {
        return with_every_remote(c, v_side(send, scounts, sdispls, stype),
                                 v_side(recv, rcounts, rdispls, rtype));
    });
}

int inter_alltoall(const void* send, int scount, MPI_Datatype stype, void* recv, int rcount,
                   MPI_Datatype rtype, MPI_Comm comm)
{
    return run(comm, [&](Comm& c) {
        return with_every_remote(c, fixed_side(send, scount, stype), fixed_side(recv, rcount, rtype));
    });
}

}  // namespace lwmpi
