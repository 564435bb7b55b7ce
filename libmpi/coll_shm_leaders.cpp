// The leaders' phase of the shared-memory collectives (see coll_shm.hpp): one rank per
// cluster slot of the communicator's layout, over LWMPI point-to-point through the
// schedule engine. Barrier and Allreduce: recursive doubling, log2 L rounds for L leaders
// (a power of two); otherwise the slots beyond the largest power of two P fold into a
// neighbour first and get the result last (log2 P + 2 rounds). Bcast: binomial tree,
// ceil(log2 L) rounds; Reduce: the same tree down (the root's verdict) and, at the same
// time, up (the data).
// Alltoall: every leader pair once, all in flight.
#include "coll_engine.hpp"
#include "coll_shm.hpp"

namespace lwmpi {

namespace {

int leader_of(const ClusterLayout& l, int slot) { return l.members[l.start[slot]]; }

bool leads(const Comm& c)
{
    return c.layout.index_in_slot[c.rank] == 0 && c.layout.slots > 1;
}

// Runs the leaders' steps that `build` adds; every other rank only takes the schedule's
// place in the collective sequence, so the tags of later collectives agree.
template <typename Build>
int run_leaders(Comm& c, Build build)
{
    if (!leads(c)) {
        c.coll_sequence++;
        return MPI_SUCCESS;
    }
    Schedule* s = Schedule::create(c);
    if (!s)
        return MPI_ERR_NO_MEM;
    build(*s, c.layout.slot_of[c.rank], c.layout.slots);
    return schedule_run(s);
}

}  // namespace

namespace {

// Recursive doubling over the n slots: `acc` (count of type) ends as every slot's operands
// combined by `op`; op MPI_OP_NULL: no data, a barrier. Slots 0 .. 2 * extra - 1 pair up,
// the even ones handing their operand to the odd ones and getting the result last.
void build_doubling(Schedule& s, int me, int n, void* acc, void* tmp, int count,
                    MPI_Datatype type, MPI_Op op)
{
    const ClusterLayout& l = s.comm().layout;
    if (op == MPI_OP_NULL) {
        acc = tmp = nullptr;
        count = 0;
        type = MPI_BYTE;
    }
    int pof2 = 1;
    while (pof2 * 2 <= n)
        pof2 *= 2;
    int extra = n - pof2;
    int vrank;
    if (me < 2 * extra) {
        if (me % 2 == 0) {
            s.send(leader_of(l, me + 1), acc, count, type);
            s.fence();
            s.recv(leader_of(l, me + 1), acc, count, type);
            s.fence();
            return;
        }
        s.recv(leader_of(l, me - 1), tmp, count, type);
        s.fence();
        if (op != MPI_OP_NULL)
            s.combine(op, tmp, acc, count, type);
        vrank = me / 2;
    } else {
        vrank = me - extra;
    }
    for (int mask = 1; mask < pof2; mask <<= 1) {
        int vpeer = vrank ^ mask;
        int peer = vpeer < extra ? 2 * vpeer + 1 : vpeer + extra;
        s.send(leader_of(l, peer), acc, count, type);
        s.recv(leader_of(l, peer), tmp, count, type);
        s.fence();
        // Both sides compute the same bits: the operation is commutative.
        if (op != MPI_OP_NULL)
            s.combine(op, tmp, acc, count, type);
    }
    if (me < 2 * extra) {
        s.send(leader_of(l, me - 1), acc, count, type);
        s.fence();
    }
}

}  // namespace

int leaders_barrier(Comm& c)
{
    if (c.shm_mode == kShmWithSyncBarrier) {
        c.coll_sequence++;  // as run_leaders: every rank takes the same place in the sequence
        return leads(c) ? noc_barrier_run(c) : MPI_SUCCESS;
    }
    return run_leaders(c, [&](Schedule& s, int me, int n) {
        build_doubling(s, me, n, nullptr, nullptr, 0, MPI_BYTE, MPI_OP_NULL);
    });
}

int leaders_allreduce(Comm& c, void* acc, int count, MPI_Datatype type, MPI_Op op)
{
    return run_leaders(c, [&](Schedule& s, int me, int n) {
        ReduceShape shape;
        if (reduce_shape(type, count, op, &shape) != MPI_SUCCESS)
            return;
        void* tmp = operand_scratch(s, shape);
        if (tmp)
            build_doubling(s, me, n, acc, tmp, count, type, op);
    });
}

int leaders_reduce(Comm& c, void* acc, int count, MPI_Datatype type, MPI_Op op, int root_slot,
                   int* verdict)
{
    // Two schedules in flight at once, so that neither waits for the other: the verdict down
    // the tree and the partial results up it. Every rank takes both places in the sequence.
    uint32_t after = c.coll_sequence + 2;
    if (!leads(c)) {
        c.coll_sequence = after;
        return MPI_SUCCESS;
    }
    Schedule* down = Schedule::create(c);
    Schedule* up = down ? Schedule::create(c) : nullptr;
    c.coll_sequence = after;
    if (!up) {
        Schedule::destroy(down);
        return MPI_ERR_NO_MEM;
    }
    const ClusterLayout& l = c.layout;
    int n = l.slots;
    int pos = (l.slot_of[c.rank] - root_slot + n) % n;
    auto leader_at = [&](int p) { return leader_of(l, (p + root_slot) % n); };
    int parent = binomial_parent(pos);
    int children[32];
    int count_children = binomial_children(pos, n, children);
    if (parent >= 0) {
        down->recv_bytes(leader_at(parent), verdict, sizeof *verdict);
        down->fence();
    }
    for (int i = 0; i < count_children; i++)
        down->send_bytes(leader_at(children[i]), verdict, sizeof *verdict);
    down->fence();
    // Every child's partial result at once, combined in the children's order.
    ReduceShape shape;
    void* partial[32];
    bool built = reduce_shape(type, count, op, &shape) == MPI_SUCCESS;
    for (int i = 0; i < count_children && built; i++) {
        built = (partial[i] = operand_scratch(*up, shape)) != nullptr;
        if (built)
            up->recv(leader_at(children[i]), partial[i], count, type);
    }
    if (built) {
        up->fence();
        for (int i = 0; i < count_children; i++)
            up->combine(op, partial[i], acc, count, type);
        if (parent >= 0) {
            up->send(leader_at(parent), acc, count, type);
            up->fence();
        }
    }
    Schedule* both[] = {down, up};
    return schedules_run(both, 2);
}

int leaders_bcast(Comm& c, void* data, size_t bytes, int root_slot)
{
    return run_leaders(c, [&](Schedule& s, int me, int n) {
        int pos = (me - root_slot + n) % n;
        int parent = binomial_parent(pos);
        if (parent >= 0) {
            s.recv_bytes(leader_of(c.layout, (parent + root_slot) % n), data, bytes);
            s.fence();
        }
        int children[32];
        int count = binomial_children(pos, n, children);
        for (int i = count - 1; i >= 0; i--)  // the largest subtree first
            s.send_bytes(leader_of(c.layout, (children[i] + root_slot) % n), data, bytes);
        s.fence();
    });
}

int leaders_exchange(Comm& c, char* out, char* in, size_t m, size_t b)
{
    return run_leaders(c, [&](Schedule& s, int me, int n) {
        const int* start = c.layout.start;
        for (int k = 1; k < n; k++) {  // step k: to me + k, from me - k
            int to = (me + k) % n, from = (me - k + n) % n;
            size_t from_at = m * static_cast<size_t>(start[from]) * b;
            size_t to_at = m * static_cast<size_t>(start[to]) * b;
            s.recv_bytes(leader_of(c.layout, from), in + from_at,
                         m * static_cast<size_t>(start[from + 1] - start[from]) * b);
            s.send_bytes(leader_of(c.layout, to), out + to_at,
                         m * static_cast<size_t>(start[to + 1] - start[to]) * b);
        }
        s.fence();
    });
}

}  // namespace lwmpi
