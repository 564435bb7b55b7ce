// The collectives' algorithms as schedule builders (see coll.hpp): two-level trees for
// barrier, broadcast and commutative reductions, the rank-ordered tree for the others,
// recursive doubling for prefix reductions, linear rooted gathers and scatters, the
// windowed pairwise exchange for all-to-all (Bruck's rounds: coll_bruck.cpp).
#include <string.h>

#include "coll.hpp"
#include "coll_schedule.hpp"
#include "config.hpp"
#include "datatype.hpp"
#include "op.hpp"

namespace lwmpi {

void* operand_scratch(Schedule& s, const ReduceShape& shape)
{
    char* memory = static_cast<char*>(s.scratch(shape.span));
    return memory ? memory + shape.offset : nullptr;
}

void build_barrier(Schedule& s)
{
    // Everyone reports up the tree to rank 0, then rank 0 releases everyone down the tree.
    Comm& c = s.comm();
    TreeNode node;
    tree_node(c.layout, 0, c.rank, &node);
    for (int i = 0; i < node.children; i++)
        s.recv_bytes(node.child[i], nullptr, 0);
    s.fence();
    if (node.parent >= 0) {
        s.send_bytes(node.parent, nullptr, 0);
        s.recv_bytes(node.parent, nullptr, 0);
        s.fence();
    }
    for (int i = 0; i < node.children; i++)
        s.send_bytes(node.child[i], nullptr, 0);
    s.fence();
}

void build_bcast_bytes(Schedule& s, void* buf, size_t bytes, int root)
{
    Comm& c = s.comm();
    TreeNode node;
    tree_node(c.layout, root, c.rank, &node);
    if (node.parent >= 0) {
        s.recv_bytes(node.parent, buf, bytes);
        s.fence();
    }
    for (int i = 0; i < node.children; i++)  // remote leaders first: they have further to go
        s.send_bytes(node.child[i], buf, bytes);
    s.fence();
}

void build_bcast(Schedule& s, void* buf, int count, MPI_Datatype type, int root)
{
    size_t bytes = static_cast<size_t>(type_size(type)) * static_cast<size_t>(count);
    if (type_is_contiguous(type)) {
        build_bcast_bytes(s, static_cast<char*>(buf) + type_lb(type), bytes, root);
        return;
    }
    // Scattered data travels packed once, not staged again for every child.
    Comm& c = s.comm();
    if (c.size == 1)
        return;
    void* packed = s.scratch(bytes);
    int room = static_cast<int>(bytes);
    if (c.rank == root)
        s.copy(buf, count, type, packed, room, MPI_BYTE);
    build_bcast_bytes(s, packed, bytes, root);
    if (c.rank != root)
        s.copy(packed, room, MPI_BYTE, buf, count, type);
}

namespace {

// Combines the operands of this rank's subtree and sends the result to its parent. `acc_buf`
// is a buffer of the shape this rank may use as accumulator (nullptr: scratch). Returns
// where this rank's partial result is once the steps ran (`input` for a leaf).
const void* reduce_up(Schedule& s, const TreeNode& node, bool ordered, const void* input,
                      void* acc_buf, const ReduceShape& sh, MPI_Op op)
{
    const void* current = input;
    void* acc = nullptr;
    void* tmp = nullptr;
    for (int i = 0; i < node.children; i++) {
        if (!tmp && !(tmp = operand_scratch(s, sh)))
            return input;
        s.recv(node.child[i], tmp, sh.count, sh.type);
        s.fence();
        if (!acc && !acc_buf) {
            // tmp = input op child: in both orders the own operand comes first (the ordered
            // tree's subtrees follow their parent), so tmp becomes the accumulator.
            s.combine(op, current, tmp, sh.count, sh.type);
            acc = tmp;
            tmp = nullptr;
        } else {
            if (!acc) {
                if (current != acc_buf)
                    s.copy(current, sh.count, sh.type, acc_buf, sh.count, sh.type);
                acc = acc_buf;
            }
            if (ordered) {  // acc = acc op child, computed in tmp (op_apply's inout)
                s.combine(op, acc, tmp, sh.count, sh.type);
                s.copy(tmp, sh.count, sh.type, acc, sh.count, sh.type);
            } else {
                s.combine(op, tmp, acc, sh.count, sh.type);
            }
        }
        current = acc;
    }
    if (node.parent >= 0) {
        s.send(node.parent, current, sh.count, sh.type);
        s.fence();
    }
    return current;
}

// The tree a reduction to `root` combines along, and the rank that ends with the result.
int reduce_tree(const Comm& c, MPI_Op op, int root, TreeNode* node)
{
    if (op_commutative(op)) {
        tree_node(c.layout, root, c.rank, node);
        return root;
    }
    ordered_tree_node(c.size, c.rank, node);
    return 0;
}

}  // namespace

void build_reduce(Schedule& s, const void* input, void* result, const ReduceShape& sh, MPI_Op op,
                  int root)
{
    Comm& c = s.comm();
    TreeNode node;
    int top = reduce_tree(c, op, root, &node);
    const void* current = reduce_up(s, node, !op_commutative(op), input,
                                    c.rank == root ? result : nullptr, sh, op);
    if (c.rank == top && top != root) {
        s.send(root, current, sh.count, sh.type);
        s.fence();
    } else if (c.rank == root && top != root) {
        s.recv(top, result, sh.count, sh.type);
        s.fence();
    } else if (c.rank == root && current != result) {
        s.copy(current, sh.count, sh.type, result, sh.count, sh.type);
    }
}

void build_allreduce(Schedule& s, const void* input, void* result, const ReduceShape& sh, MPI_Op op)
{
    // Every rank has a result buffer: it is the accumulator, so only the operand received
    // from a child needs scratch. Then rank 0 broadcasts.
    Comm& c = s.comm();
    TreeNode node;
    int top = reduce_tree(c, op, 0, &node);
    const void* current = reduce_up(s, node, !op_commutative(op), input, result, sh, op);
    if (c.rank == top && current != result)
        s.copy(current, sh.count, sh.type, result, sh.count, sh.type);
    build_bcast(s, result, sh.count, sh.type, top);
}

void build_scan(Schedule& s, const void* input, void* result, const ReduceShape& sh, MPI_Op op,
                bool exclusive)
{
    // Recursive doubling: after step `mask`, `partial` covers the aligned block of 2*mask
    // ranks around this one and `result` the prefix up to this rank (exclusive: before it).
    Comm& c = s.comm();
    bool have = !exclusive;  // exclusive scans start from nothing
    if (have && input != result)
        s.copy(input, sh.count, sh.type, result, sh.count, sh.type);
    if (c.size == 1)
        return;
    void* partial = operand_scratch(s, sh);
    void* tmp = operand_scratch(s, sh);
    if (!partial || !tmp)
        return;
    s.copy(input, sh.count, sh.type, partial, sh.count, sh.type);
    for (int mask = 1; mask < c.size; mask <<= 1) {
        int peer = c.rank ^ mask;
        if (peer >= c.size)
            continue;
        s.recv(peer, tmp, sh.count, sh.type);
        s.send(peer, partial, sh.count, sh.type);
        s.fence();
        if (peer < c.rank) {
            // tmp covers ranks before ours: it goes first.
            if (have)
                s.combine(op, tmp, result, sh.count, sh.type);
            else
                s.copy(tmp, sh.count, sh.type, result, sh.count, sh.type);
            have = true;
            s.combine(op, tmp, partial, sh.count, sh.type);
        } else {
            // partial op tmp lands in tmp, which becomes the partial operand.
            s.combine(op, partial, tmp, sh.count, sh.type);
            void* swap = partial;
            partial = tmp;
            tmp = swap;
        }
    }
}

void build_reduce_scatter(Schedule& s, const void* input, void* result, const int* counts,
                          const ReduceShape& sh, MPI_Op op)
{
    // Reduce every block to rank 0, which sends block r to rank r.
    Comm& c = s.comm();
    void* all = c.rank == 0 ? operand_scratch(s, sh) : nullptr;
    if (c.rank == 0 && !all)
        return;
    build_reduce(s, input, all, sh, op, 0);
    if (c.rank != 0) {
        s.recv(0, result, counts[c.rank], sh.type);
        s.fence();
        return;
    }
    MPI_Aint extent = type_extent(sh.type), first = 0;
    for (int r = 0; r < c.size; r++) {
        void* block = block_at(all, first, extent);
        if (r == 0)
            s.copy(block, counts[0], sh.type, result, counts[0], sh.type);
        else
            s.send(r, block, counts[r], sh.type);
        first += counts[r];
    }
    s.fence();
}

void build_gather(Schedule& s, const void* one, int count, MPI_Datatype type, const PerRank& many,
                  int root)
{
    Comm& c = s.comm();
    if (c.rank != root) {
        s.send(root, one, count, type);
    } else {
        for (int r = 0; r < c.size; r++) {
            if (r != root)
                s.recv(r, many.block(r), many.count_of(r), many.type_of(r));
            else if (one != MPI_IN_PLACE)
                s.copy(one, count, type, many.block(r), many.count_of(r), many.type_of(r));
        }
    }
    s.fence();
}

void build_scatter(Schedule& s, const PerRank& many, void* one, int count, MPI_Datatype type,
                   int root)
{
    Comm& c = s.comm();
    if (c.rank != root) {
        s.recv(root, one, count, type);
    } else {
        for (int r = 0; r < c.size; r++) {
            if (r != root)
                s.send(r, many.block(r), many.count_of(r), many.type_of(r));
            else if (one != MPI_IN_PLACE)
                s.copy(many.block(r), many.count_of(r), many.type_of(r), one, count, type);
        }
    }
    s.fence();
}

void build_allgather(Schedule& s, const void* one, int count, MPI_Datatype type, const PerRank& all)
{
    // Gather to rank 0, then broadcast the blocks packed back to back (or, when they already
    // are one dense run in the buffer, the buffer itself).
    Comm& c = s.comm();
    if (one == MPI_IN_PLACE && c.rank != 0) {  // my block is already in place: send it from there
        one = all.block(c.rank);
        count = all.count_of(c.rank);
        type = all.type;
    }
    build_gather(s, one, count, type, all, 0);
    size_t size = static_cast<size_t>(type_size(all.type)), total = 0;
    bool dense = type_is_contiguous(all.type);
    MPI_Aint next = 0;
    for (int r = 0; r < c.size; r++) {
        total += size * static_cast<size_t>(all.count_of(r));
        dense = dense && (!all.varying || all.displs[r] == next);
        next += all.count_of(r);
    }
    if (dense) {
        build_bcast_bytes(s, static_cast<char*>(all.block(0)) + type_lb(all.type), total, 0);
        return;
    }
    char* packed = static_cast<char*>(s.scratch(total));
    if (!packed)
        return;
    size_t offset = 0;
    for (int r = 0; r < c.size; r++) {
        int bytes = static_cast<int>(size * static_cast<size_t>(all.count_of(r)));
        if (c.rank == 0)
            s.copy(all.block(r), all.count_of(r), all.type, packed + offset, bytes, MPI_BYTE);
        offset += static_cast<size_t>(bytes);
    }
    build_bcast_bytes(s, packed, total, 0);
    offset = 0;
    for (int r = 0; r < c.size; r++) {
        int bytes = static_cast<int>(size * static_cast<size_t>(all.count_of(r)));
        if (c.rank != 0)
            s.copy(packed + offset, bytes, MPI_BYTE, all.block(r), all.count_of(r), all.type);
        offset += static_cast<size_t>(bytes);
    }
}

namespace {

// The pairwise exchange, expanded window by window when reached (the program's count,
// displacement and type arrays stay valid until the call completes, MPI 3.1 5.12).
struct PairwisePlan {
    PerRank send, recv;
    char* aside;        // in place: the outgoing blocks, packed
    size_t* aside_at;   // [size + 1]: where each destination's block starts in `aside`
    int rank, size;
};

int pack_aside(Schedule&, const void* p, int first, int last)
{
    const PairwisePlan& plan = *static_cast<const PairwisePlan*>(p);
    for (int r = first; r < last; r++)
        if (r != plan.rank)
            pack_bytes(plan.recv.type_of(r), plan.recv.block(r), plan.recv.count_of(r),
                       plan.aside + plan.aside_at[r]);
    return MPI_SUCCESS;
}

// Steps [first, last): step k sends to rank + k and receives from rank - k.
int exchange_window(Schedule& s, const void* p, int first, int last)
{
    const PairwisePlan& plan = *static_cast<const PairwisePlan*>(p);
    for (int step = first; step < last; step++) {
        int dest = (plan.rank + step) % plan.size;
        int source = (plan.rank - step + plan.size) % plan.size;
        s.recv_now(source, plan.recv.block(source), plan.recv.count_of(source),
                   plan.recv.type_of(source));
        if (plan.aside)
            s.send_now(dest, plan.aside + plan.aside_at[dest],
                       static_cast<int>(plan.aside_at[dest + 1] - plan.aside_at[dest]), MPI_BYTE);
        else
            s.send_now(dest, plan.send.block(dest), plan.send.count_of(dest),
                       plan.send.type_of(dest));
    }
    return MPI_SUCCESS;
}

}  // namespace

void build_alltoall(Schedule& s, const PerRank& send, const PerRank& recv, bool leaders)
{
    Comm& c = s.comm();
    size_t bytes;
    if (leaders && leader_alltoall_fits(c, send, recv, &bytes)) {
        build_leader_alltoall(s, send, recv, bytes);
        return;
    }
    size_t bruck_bytes;
    if (bruck_fits(c, send, recv, &bruck_bytes)) {
        build_bruck(s, send, recv, bruck_bytes);
        return;
    }
    PairwisePlan* plan = static_cast<PairwisePlan*>(s.scratch(sizeof(PairwisePlan)));
    if (!plan)
        return;
    *plan = PairwisePlan{send, recv, nullptr, nullptr, c.rank, c.size};
    if (send.buf == MPI_IN_PLACE) {
        // The outgoing blocks are packed aside first, then sent as bytes.
        plan->aside_at = static_cast<size_t*>(s.scratch(sizeof(size_t) * (c.size + 1)));
        if (!plan->aside_at)
            return;
        size_t total = 0;
        for (int r = 0; r < c.size; r++) {
            plan->aside_at[r] = total;
            total += r == c.rank ? 0 : recv.packed_bytes(r);
        }
        plan->aside_at[c.size] = total;
        if (!(plan->aside = static_cast<char*>(s.scratch(total))))
            return;
        s.expand(pack_aside, plan, 0, c.size, 0);
    } else {
        s.copy(send.block(c.rank), send.count_of(c.rank), send.type_of(c.rank), recv.block(c.rank),
               recv.count_of(c.rank), recv.type_of(c.rank));
    }
    // Steps go in windows of kAlltoallWindow, all of a window's transfers in flight at once.
    for (int first = 1; first < c.size; first += kAlltoallWindow) {
        int last = first + kAlltoallWindow < c.size ? first + kAlltoallWindow : c.size;
        s.expand(exchange_window, plan, first, last, 2 * (last - first));
        s.fence();
    }
}

// ---- Building blocks: build and run. -------------------------------------------------------

namespace {

template <typename Build>
int run_built(Comm& c, Build build)
{
    Schedule* s = Schedule::create(c);
    if (!s)
        return MPI_ERR_NO_MEM;
    build(*s);
    return schedule_run(s);
}

}  // namespace

int coll_barrier(Comm& c)
{
    return run_built(c, [](Schedule& s) { build_barrier(s); });
}

int coll_bcast_bytes(Comm& c, void* buf, size_t bytes, int root)
{
    return run_built(c, [&](Schedule& s) { build_bcast_bytes(s, buf, bytes, root); });
}

int coll_allreduce(Comm& c, void* acc, const ReduceShape& shape, MPI_Op op)
{
    return run_built(c, [&](Schedule& s) { build_allreduce(s, acc, acc, shape, op); });
}

int coll_reduce(Comm& c, void* acc, const ReduceShape& shape, MPI_Op op, int root)
{
    return run_built(c, [&](Schedule& s) { build_reduce(s, acc, acc, shape, op, root); });
}

int coll_allgather_bytes(Comm& c, const void* mine, size_t bytes, void* all)
{
    return run_built(c, [&](Schedule& s) {
        build_allgather(s, mine, static_cast<int>(bytes), MPI_BYTE,
                        equal_blocks(all, static_cast<int>(bytes), MPI_BYTE));
    });
}

}  // namespace lwmpi
