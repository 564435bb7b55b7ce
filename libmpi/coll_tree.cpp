// Tree collectives: barrier, broadcast (packed bytes), reduce, allreduce (typed operands;
// two-level trees of coll_schedule.hpp), prefix reductions (recursive doubling), allgather.
#include <stdlib.h>
#include <string.h>

#include "coll.hpp"
#include "coll_check.hpp"
#include "coll_schedule.hpp"
#include "op.hpp"

namespace lwmpi {

namespace {

// acc = in op acc, or acc = acc op in (`acc_first`, which uses `in` as scratch): op_apply
// takes (in, inout) and computes inout = in op inout.
void combine(MPI_Op op, const ReduceShape& s, void* in, void* acc, bool acc_first)
{
    if (acc_first) {
        op_apply(op, acc, in, s.count, s.type);
        memcpy(static_cast<char*>(acc) - s.offset, static_cast<char*>(in) - s.offset, s.span);
    } else {
        op_apply(op, in, acc, s.count, s.type);
    }
}

}  // namespace

int coll_barrier(Comm& c)
{
    // Everyone reports up the tree to rank 0, then rank 0 releases everyone down the tree.
    TreeNode node;
    tree_node(c.layout, 0, c.rank, &node);
    {
        Exchange up(c, node.children + 2);
        for (int i = 0; i < node.children; i++)
            up.recv_bytes(node.child[i], nullptr, 0);
        int err = up.wait();
        if (err != MPI_SUCCESS)
            return err;
        if (node.parent >= 0) {
            up.send_bytes(node.parent, nullptr, 0);
            up.recv_bytes(node.parent, nullptr, 0);
            if ((err = up.wait()) != MPI_SUCCESS)
                return err;
        }
    }
    Exchange down(c, node.children);
    for (int i = 0; i < node.children; i++)
        down.send_bytes(node.child[i], nullptr, 0);
    return down.wait();
}

int coll_bcast_bytes(Comm& c, void* buf, size_t bytes, int root)
{
    TreeNode node;
    tree_node(c.layout, root, c.rank, &node);
    Exchange ex(c, node.children + 1);
    if (node.parent >= 0) {
        ex.recv_bytes(node.parent, buf, bytes);
        int err = ex.wait();
        if (err != MPI_SUCCESS)
            return err;
    }
    for (int i = 0; i < node.children; i++)  // remote leaders first: they have further to go
        ex.send_bytes(node.child[i], buf, bytes);
    return ex.wait();
}

int coll_reduce(Comm& c, void* acc, const ReduceShape& s, MPI_Op op, int root)
{
    // Commutative: the two-level tree rooted at the root (clusters combine locally first).
    // Otherwise the binomial tree in rank order rooted at 0, whose subtrees are contiguous
    // rank ranges after their parent, so "acc op child" keeps the rank order.
    bool ordered = !op_commutative(op);
    TreeNode node;
    if (ordered)
        ordered_tree_node(c.size, c.rank, &node);
    else
        tree_node(c.layout, root, c.rank, &node);
    Operand tmp;
    int err = operand_alloc(s, &tmp);
    Exchange ex(c, 1);
    for (int i = 0; i < node.children && err == MPI_SUCCESS; i++) {
        ex.recv(node.child[i], tmp.base, s.count, s.type);
        err = ex.wait();
        if (err == MPI_SUCCESS)
            combine(op, s, tmp.base, acc, ordered);
    }
    if (err == MPI_SUCCESS && node.parent >= 0) {
        ex.send(node.parent, acc, s.count, s.type);
        err = ex.wait();
    }
    if (err == MPI_SUCCESS && ordered && root != 0) {
        if (c.rank == 0)
            ex.send(root, acc, s.count, s.type);
        else if (c.rank == root)
            ex.recv(0, acc, s.count, s.type);
        err = ex.wait();
    }
    operand_free(&tmp);
    return err;
}

int coll_allreduce(Comm& c, void* acc, const ReduceShape& s, MPI_Op op)
{
    int err = coll_reduce(c, acc, s, op, 0);
    if (err != MPI_SUCCESS)
        return err;
    Packed p;
    if ((err = packed_view(acc, s.count, s.type, true, &p)) != MPI_SUCCESS)
        return err;
    err = coll_bcast_bytes(c, p.bytes, p.size, 0);
    packed_done(&p, acc, s.count, s.type, err == MPI_SUCCESS && c.rank != 0);
    return err;
}

int coll_scan(Comm& c, void* acc, const ReduceShape& s, MPI_Op op, bool exclusive)
{
    // Recursive doubling: after step `mask`, `partial` covers the aligned block of 2*mask
    // ranks around this one and `acc` the prefix up to this rank (exclusive: before it).
    Operand partial = {}, tmp = {};
    int err = operand_copy(s, acc, &partial);
    if (err == MPI_SUCCESS)
        err = operand_alloc(s, &tmp);
    bool have = !exclusive;  // exclusive scans start from nothing
    Exchange ex(c, 2);
    for (int mask = 1; mask < c.size && err == MPI_SUCCESS; mask <<= 1) {
        int peer = c.rank ^ mask;
        if (peer >= c.size)
            continue;
        ex.recv(peer, tmp.base, s.count, s.type);
        ex.send(peer, partial.base, s.count, s.type);
        if ((err = ex.wait()) != MPI_SUCCESS)
            break;
        if (peer < c.rank) {
            // tmp covers ranks before ours: it goes first.
            if (have) {
                op_apply(op, tmp.base, acc, s.count, s.type);
            } else {
                memcpy(static_cast<char*>(acc) - s.offset, tmp.memory, s.span);
                have = true;
            }
            op_apply(op, tmp.base, partial.base, s.count, s.type);
        } else {
            combine(op, s, tmp.base, partial.base, true);  // partial = partial op tmp
        }
    }
    operand_free(&partial);
    operand_free(&tmp);
    return err;
}

int coll_allgather_bytes(Comm& c, const void* mine, size_t bytes, void* all)
{
    // Gather to rank 0, then broadcast the concatenation.
    char* out = static_cast<char*>(all);
    memcpy(out + static_cast<size_t>(c.rank) * bytes, mine, bytes);
    {
        Exchange ex(c, c.rank == 0 ? c.size : 1);
        if (c.rank == 0) {
            for (int r = 1; r < c.size; r++)
                ex.recv_bytes(r, out + static_cast<size_t>(r) * bytes, bytes);
        } else {
            ex.send_bytes(0, mine, bytes);
        }
        int err = ex.wait();
        if (err != MPI_SUCCESS)
            return err;
    }
    return coll_bcast_bytes(c, all, bytes * static_cast<size_t>(c.size), 0);
}

}  // namespace lwmpi
