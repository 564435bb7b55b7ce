/* MPI_Reduce through the cluster's shared memory (libmpi/coll_shm.hpp) and the schedules
 * beside it, on MPI_COMM_WORLD and on sub-communicators whose ranks share clusters:
 *  - every predefined operation on int from every root (seven of a large communicator's),
 *    counts 0, 1, 7, 256 (the largest operand the area takes) and 300 (the schedules),
 *    MPI_IN_PLACE at the root;
 *  - MAXLOC on MPI_2INT, a commutative and a non-commutative user operation (schedules);
 *  - a double sum whose value depends on the grouping: the same bits in every repetition;
 *  - errors under MPI_ERRORS_RETURN: a bad root, count or operation on every rank, a
 *    root whose buffers are wrong (null, or overlapping), which every rank reports, and a
 *    null operand on every rank. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "suite.h"

enum { BIG = 256, TOO_BIG = 300 };

static int value(MPI_Op op, int r, int i)
{
    if (op == MPI_PROD)
        return (r + i) % 7 == 0 ? 2 : 1;
    if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR)
        return (r + i) % 5 != 0;
    return (r + i) % 5 == 0 ? 0 : ((r * 7 + i) % 13) + 1;
}

static long expected(MPI_Op op, int size, int i)
{
    long want = op == MPI_PROD ? 1 : op == MPI_MAX ? -1 : op == MPI_MIN ? 1 << 30
              : op == MPI_LAND ? 1 : op == MPI_BAND ? -1 : 0;
    for (int r = 0; r < size; r++) {
        int v = value(op, r, i);
        if (op == MPI_SUM) want += v;
        else if (op == MPI_PROD) want *= v;
        else if (op == MPI_MAX) want = v > want ? v : want;
        else if (op == MPI_MIN) want = v < want ? v : want;
        else if (op == MPI_LAND) want = want && v;
        else if (op == MPI_LOR) want = want || v;
        else if (op == MPI_LXOR) want = !want != !v;
        else if (op == MPI_BAND) want &= v;
        else if (op == MPI_BOR) want |= v;
        else want ^= v;
    }
    return want;
}

static void check_int_ops(MPI_Comm comm, int count, int root, int in_place)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int in[TOO_BIG], out[TOO_BIG];
    const MPI_Op ops[] = {MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN, MPI_LAND, MPI_LOR, MPI_LXOR,
                          MPI_BAND, MPI_BOR, MPI_BXOR};
    for (unsigned k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        for (int i = 0; i < count; i++) {
            in[i] = value(ops[k], rank, i);
            out[i] = in_place ? in[i] : -7;
        }
        if (in_place && rank == root)
            MPI_Reduce(MPI_IN_PLACE, out, count, MPI_INT, ops[k], root, comm);
        else
            MPI_Reduce(in, out, count, MPI_INT, ops[k], root, comm);
        for (int i = 0; i < count; i++) {
            long want = rank == root ? expected(ops[k], size, i) : in_place ? in[i] : -7;
            if (out[i] != want) {
                SUITE_FAIL("op %u count %d root %d%s: [%d] = %d, want %ld", k, count, root,
                           in_place ? " in place" : "", i, out[i], want);
                break;
            }
        }
    }
}

static void user_sum(void* in, void* inout, int* len, MPI_Datatype* type)
{
    (void)type;
    for (int i = 0; i < *len; i++)
        ((int*)inout)[i] += ((int*)in)[i];
}

/* Digits written one after the other, modulo a prime: (a, 10^la) op (b, 10^lb) is
 * (a * 10^lb + b, 10^(la + lb)), associative but not commutative: the result spells the
 * ranks' digits in rank order. */
enum { PRIME = 1000003 };
static void user_concat(void* in, void* inout, int* len, MPI_Datatype* type)
{
    (void)type;
    int* a = in;
    int* b = inout;
    for (int i = 0; i < *len; i++) {
        long long v = ((long long)a[2 * i] * b[2 * i + 1] + b[2 * i]) % PRIME;
        long long p = (long long)a[2 * i + 1] * b[2 * i + 1] % PRIME;
        b[2 * i] = (int)v;
        b[2 * i + 1] = (int)p;
    }
}

static void check_other_ops(MPI_Comm comm, int root)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int pair[2] = {(rank * 5) % 7, rank}, best[2] = {-1, -1};
    MPI_Reduce(pair, best, 1, MPI_2INT, MPI_MAXLOC, root, comm);
    if (rank == root) {
        int want = -1, at = -1;
        for (int r = 0; r < size; r++)
            if ((r * 5) % 7 > want)
                want = (r * 5) % 7, at = r;
        SUITE_CHECK(best[0] == want && best[1] == at, "maxloc: (%d, %d), want (%d, %d)", best[0], best[1], want, at);
    }
    MPI_Op sum, concat;
    MPI_Op_create(user_sum, 1, &sum);
    MPI_Op_create(user_concat, 0, &concat);
    int one = rank + 1, total = -1;
    MPI_Reduce(&one, &total, 1, MPI_INT, sum, root, comm);
    SUITE_CHECK(rank != root || total == size * (size + 1) / 2, "user sum: %d", total);
    int digit[2] = {rank % 10, 10}, spelled[2] = {-1, -1};
    long long want = 0;
    for (int r = 0; r < size; r++)
        want = (want * 10 + r % 10) % PRIME;
    MPI_Reduce(digit, spelled, 1, MPI_2INT, concat, root, comm);
    SUITE_CHECK(rank != root || spelled[0] == want, "non-commutative: %d, want %lld", spelled[0], want);
    MPI_Op_free(&sum);
    MPI_Op_free(&concat);
}

/* A sum of doubles whose rounding depends on the grouping gives the same bits every time. */
static void check_repeatable(MPI_Comm comm, int root)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    double mine[8], first[8], again[8];
    for (int i = 0; i < 8; i++)
        mine[i] = (rank % 2 ? 1e16 : 1.0) * (1.0 + rank * 0.3 + i * 1e-3);
    MPI_Reduce(mine, first, 8, MPI_DOUBLE, MPI_SUM, root, comm);
    for (int k = 0; k < 4; k++) {
        MPI_Reduce(mine, again, 8, MPI_DOUBLE, MPI_SUM, root, comm);
        SUITE_CHECK(rank != root || memcmp(first, again, sizeof first) == 0, "repetition %d: other bits", k);
    }
}

static void check_errors(MPI_Comm comm)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int in[4] = {1, 2, 3, 4}, out[4];
    int err = MPI_Reduce(in, out, 4, MPI_INT, MPI_SUM, size, comm);
    int cls = -1;
    MPI_Error_class(err, &cls);
    SUITE_CHECK(cls == MPI_ERR_ROOT, "root = size: class %d", cls);
    err = MPI_Reduce(in, out, -1, MPI_INT, MPI_SUM, 0, comm);
    MPI_Error_class(err, &cls);
    SUITE_CHECK(cls == MPI_ERR_COUNT, "count -1: class %d", cls);
    err = MPI_Reduce(in, out, 4, MPI_INT, MPI_REPLACE, 0, comm);
    MPI_Error_class(err, &cls);
    SUITE_CHECK(cls == MPI_ERR_OP, "MPI_REPLACE: class %d", cls);
    /* The root's own buffers: every rank gets the root's verdict. */
    int root = size - 1;
    err = MPI_Reduce(in, rank == root ? NULL : out, 4, MPI_INT, MPI_SUM, root, comm);
    MPI_Error_class(err, &cls);
    SUITE_CHECK(cls == MPI_ERR_BUFFER, "null result at the root: class %d", cls);
    err = MPI_Reduce(in, rank == root ? in + 1 : out, 2, MPI_INT, MPI_SUM, root, comm);
    MPI_Error_class(err, &cls);
    SUITE_CHECK(cls == MPI_ERR_BUFFER, "overlapping buffers at the root: class %d", cls);
    /* Bad buffers on every rank: each reports its own error. */
    err = MPI_Reduce(NULL, out, 4, MPI_INT, MPI_SUM, root, comm);
    MPI_Error_class(err, &cls);
    SUITE_CHECK(cls == MPI_ERR_BUFFER, "null operand everywhere: class %d", cls);
    /* The communicator works on afterwards. */
    int one = 1, total = 0;
    err = MPI_Reduce(&one, &total, 1, MPI_INT, MPI_SUM, root, comm);
    SUITE_CHECK(err == MPI_SUCCESS && (rank != root || total == size), "after the errors: %d", total);
}

static void check_comm(MPI_Comm comm)
{
    int size;
    MPI_Comm_size(comm, &size);
    const int counts[] = {0, 1, 7, BIG, TOO_BIG};
    /* Every root of a small communicator; else leaders and members of the first, a middle
     * and the last cluster under a compact mapping of 12 ranks a cluster. */
    int roots[] = {0, 1, size / 3, size / 3 + 1, size / 2, size - 2, size - 1};
    int n_roots = size <= 8 ? size : (int)(sizeof roots / sizeof roots[0]);
    for (int k_root = 0; k_root < n_roots; k_root++) {
        int root = size <= 8 ? k_root : roots[k_root];
        for (unsigned k = 0; k < sizeof counts / sizeof counts[0]; k++)
            check_int_ops(comm, counts[k], root, 0);
        check_int_ops(comm, 7, root, 1);
        check_int_ops(comm, TOO_BIG, root, 1);
        check_other_ops(comm, root);
        check_repeatable(comm, root);
    }
}

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_comm(MPI_COMM_WORLD);
    MPI_Comm half, reversed;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &reversed);
    check_comm(half);
    check_comm(reversed);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(half, MPI_ERRORS_RETURN);
    check_errors(MPI_COMM_WORLD);
    check_errors(half);
    MPI_Comm_free(&half);
    MPI_Comm_free(&reversed);
    return suite_finalize();
}
