// Barrier, Allreduce, Reduce and Bcast through the cluster's shared area (see coll_shm.hpp),
// each one round (coll_shm_round.hpp).
#include <string.h>

#include "coll_shm.hpp"
#include "coll_shm_round.hpp"
#include "datatype.hpp"
#include "handles.hpp"
#include "op.hpp"

namespace lwmpi {

int shm_barrier(Comm& c)
{
    Round r = begin(c);
    if (r.index != 0) {
        arrive(r);
        leaders_barrier(c);  // only advances the collective sequence here
        return wait_release(r);
    }
    wait_arrivals(r);
    int err = leaders_barrier(c);
    release(r, err);
    return err;
}

bool shm_allreduce_fits(int count, MPI_Datatype type, MPI_Op op)
{
    // Program operations keep the schedules: their functions run on each rank's own
    // buffers there, and a commutative one may still count on its grouping.
    if (!is_predefined(op, LWMPI_KIND_OP) || !type_is_contiguous(type))
        return false;
    return static_cast<size_t>(type_size(type)) * static_cast<size_t>(count) <= kShmSlotBytes;
}

namespace {

// A reduction's operand in its slot: slots hold the data packed; as the type is contiguous,
// slot - lb is its typed address.
struct Operand {
    size_t bytes;
    MPI_Aint lb;
    Operand(int count, MPI_Datatype type)
        : bytes(static_cast<size_t>(type_size(type)) * static_cast<size_t>(count)), lb(type_lb(type)) {}
    void copy_out(const char* from, void* result) const { memcpy(static_cast<char*>(result) + lb, from, bytes); }
};

// The leader's start of a reduction round: its operand (in_data; nullptr: none), then each
// member's in rank order, combined into the result slot. Every member read the last round's
// result before it arrived at this one.
int combine_members(const Round& r, const Operand& o, const char* in_data, int count,
                    MPI_Datatype type, MPI_Op op)
{
    wait_arrivals(r);
    char* acc = r.result();
    if (in_data)
        memcpy(acc, in_data, o.bytes);
    else  // bad buffers (this rank returns its error): zeros stand for its operand
        memset(acc, 0, o.bytes);
    int err = MPI_SUCCESS;
    for (int i = 1; i < r.area->members && err == MPI_SUCCESS; i++) {
        // acc = slot op acc: the same bits as acc op slot, the op being commutative.
        const char* slot = r.area->data + kShmSlotBytes * static_cast<size_t>(i);
        err = op_apply(op, slot - o.lb, acc - o.lb, count, type);
    }
    return err;
}

}  // namespace

int shm_allreduce(Comm& c, const void* input, void* result, int count, MPI_Datatype type,
                  MPI_Op op)
{
    Operand o(count, type);
    const char* in_data = static_cast<const char*>(input) + o.lb;
    Round r = begin(c);
    if (r.index != 0) {
        memcpy(r.slot(), in_data, o.bytes);
        arrive(r);
        leaders_allreduce(c, nullptr, count, type, op);  // only advances the sequence here
        int err = wait_release(r);
        if (err == MPI_SUCCESS)
            o.copy_out(r.result(), result);
        return err;
    }
    int err = combine_members(r, o, in_data, count, type, op);
    int leaders_err = leaders_allreduce(c, r.result() - o.lb, count, type, op);
    if (err == MPI_SUCCESS)
        err = leaders_err;
    release(r, err);
    if (err == MPI_SUCCESS)
        o.copy_out(r.result(), result);
    return err;
}

int shm_reduce(Comm& c, const void* input, void* result, int count, MPI_Datatype type, MPI_Op op,
               int root, int verdict)
{
    Operand o(count, type);
    const char* in_data = input ? static_cast<const char*>(input) + o.lb : nullptr;
    const ClusterLayout& l = c.layout;
    int root_slot = l.slot_of[root];
    Round r = begin(c);
    if (r.index != 0) {
        if (in_data)
            memcpy(r.slot(), in_data, o.bytes);
        if (c.rank == root)
            r.area->root_verdict = verdict;
        arrive(r);
        leaders_reduce(c, nullptr, count, type, op, root_slot, nullptr);  // advances the sequence
        int err = wait_release(r);
        if (verdict != MPI_SUCCESS)
            return verdict;
        if (err == MPI_SUCCESS && c.rank == root)
            o.copy_out(r.result(), result);
        return err;
    }
    int err = combine_members(r, o, in_data, count, type, op);
    // The root's verdict: its own, its member's (written before it arrived), or the tree's.
    int root_verdict = c.rank == root ? verdict
                       : root_slot == l.slot_of[c.rank] ? r.area->root_verdict
                                                        : MPI_SUCCESS;
    int leaders_err = leaders_reduce(c, r.result() - o.lb, count, type, op, root_slot, &root_verdict);
    if (err == MPI_SUCCESS)
        err = leaders_err;
    if (err == MPI_SUCCESS)
        err = root_verdict;
    release(r, err);
    if (verdict != MPI_SUCCESS)
        return verdict;
    if (err == MPI_SUCCESS && c.rank == root)
        o.copy_out(r.result(), result);
    return err;
}

bool shm_bcast_fits(int count, MPI_Datatype type)
{
    // Ranks may pass different types of one signature: the bytes alone decide.
    return static_cast<size_t>(type_size(type)) * static_cast<size_t>(count) <= kShmSlotBytes;
}

int shm_bcast(Comm& c, void* buf, int count, MPI_Datatype type, int root)
{
    // The data travel packed. A root that is a member hands them over in its own slot (the
    // result slot may still be read by a member of the last round until everyone arrived).
    size_t bytes = static_cast<size_t>(type_size(type)) * static_cast<size_t>(count);
    Round r = begin(c);
    const ClusterLayout& l = c.layout;
    int root_slot = l.slot_of[root];
    if (r.index != 0) {
        if (c.rank == root)
            pack_bytes(type, buf, count, r.slot());
        arrive(r);
        leaders_bcast(c, nullptr, 0, root_slot);  // only advances the sequence here
        int err = wait_release(r);
        if (err == MPI_SUCCESS && c.rank != root)
            unpack_bytes(type, r.result(), bytes, buf, count);
        return err;
    }
    wait_arrivals(r);
    char* shared = r.result();
    if (c.rank == root)
        pack_bytes(type, buf, count, shared);
    else if (root_slot == l.slot_of[c.rank])
        memcpy(shared, r.area->data + kShmSlotBytes * static_cast<size_t>(l.index_in_slot[root]), bytes);
    int err = leaders_bcast(c, shared, bytes, root_slot);
    release(r, err);
    if (err == MPI_SUCCESS && c.rank != root)
        unpack_bytes(type, shared, bytes, buf, count);
    return err;
}

}  // namespace lwmpi
