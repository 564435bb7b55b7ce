/* Barrier, Allreduce and Bcast through the cluster's shared memory (libmpi/coll_shm.hpp) and the
 * fallbacks beside it, on MPI_COMM_WORLD and on sub-communicators that share clusters:
 *  - every predefined operation on each type class it takes, counts 0, 1, 7 and 256 ints
 *    (the largest operand the area takes) and 300 (the schedules), MPI_IN_PLACE;
 *  - MAXLOC/MINLOC on MPI_2INT (dense) and MPI_DOUBLE_INT (padded: the schedules);
 *  - user operations, commutative and not (the latter in rank order);
 *  - a double sum whose value depends on the grouping: bit-identical on every rank and
 *    in every repetition;
 *  - splits by rank % 2 and % 3 and a reversed key order, so a cluster holds ranks of
 *    several communicators and the leader is not the lowest world rank;
 *  - barriers interleaved with nonblocking collectives;
 *  - Bcast from every root, beyond the area's size too, strided types against contiguous;
 *  - Alltoall of small blocks (through the area) and large ones, a strided send type. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "suite.h"

enum { BIG = 256, TOO_BIG = 300 };

/* Element i of rank r's operand: zeros among small values (logical ones: 0 or 1); products
 * stay within int. */
static int value(MPI_Op op, int r, int i)
{
    if (op == MPI_PROD)
        return (r + i) % 7 == 0 ? 2 : 1;
    if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR)  /* one rank's result is its operand */
        return (r + i) % 5 != 0;
    return (r + i) % 5 == 0 ? 0 : ((r * 7 + i) % 13) + 1;
}

static void check_int_ops(MPI_Comm comm, int count)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int in[TOO_BIG], out[TOO_BIG];
    const MPI_Op ops[] = {MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN, MPI_LAND, MPI_LOR, MPI_LXOR,
                          MPI_BAND, MPI_BOR, MPI_BXOR};
    for (unsigned k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        for (int i = 0; i < count; i++)
            in[i] = value(ops[k], rank, i);
        MPI_Allreduce(in, out, count, MPI_INT, ops[k], comm);
        for (int i = 0; i < count; i++) {
            long want = ops[k] == MPI_PROD ? 1 : ops[k] == MPI_MAX ? -1 : ops[k] == MPI_MIN ? 1 << 30
                      : ops[k] == MPI_LAND ? 1 : ops[k] == MPI_BAND ? -1 : 0;
            for (int r = 0; r < size; r++) {
                int v = value(ops[k], r, i);
                if (ops[k] == MPI_SUM) want += v;
                else if (ops[k] == MPI_PROD) want *= v;
                else if (ops[k] == MPI_MAX) want = v > want ? v : want;
                else if (ops[k] == MPI_MIN) want = v < want ? v : want;
                else if (ops[k] == MPI_LAND) want = want && v;
                else if (ops[k] == MPI_LOR) want = want || v;
                else if (ops[k] == MPI_LXOR) want = !want != !v;
                else if (ops[k] == MPI_BAND) want &= v;
                else if (ops[k] == MPI_BOR) want |= v;
                else want ^= v;
            }
            if (out[i] != (int)want) {
                SUITE_FAIL("op %u count %d: element %d is %d, expected %ld", k, count, i, out[i], want);
                break;
            }
        }
        /* In place gives the same. */
        int again[TOO_BIG];
        memcpy(again, in, sizeof(int) * (size_t)count);
        MPI_Allreduce(MPI_IN_PLACE, again, count, MPI_INT, ops[k], comm);
        SUITE_CHECK(count == 0 || memcmp(again, out, sizeof(int) * (size_t)count) == 0,
                    "op %u count %d: in place differs", k, count);
    }
}

static void check_type_classes(MPI_Comm comm)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    /* Floating point, unsigned, char, byte, bool, long long, complex. */
    double d = rank + 0.5, dsum;
    MPI_Allreduce(&d, &dsum, 1, MPI_DOUBLE, MPI_SUM, comm);
    SUITE_CHECK(dsum == size * (size - 1) / 2.0 + size * 0.5, "double sum %g", dsum);
    float f = (float)rank, fmax;
    MPI_Allreduce(&f, &fmax, 1, MPI_FLOAT, MPI_MAX, comm);
    SUITE_CHECK(fmax == (float)(size - 1), "float max %g", fmax);
    unsigned u = 1u << (rank % 32), ubor;
    MPI_Allreduce(&u, &ubor, 1, MPI_UNSIGNED, MPI_BOR, comm);
    unsigned uwant = 0;
    for (int r = 0; r < size; r++) uwant |= 1u << (r % 32);
    SUITE_CHECK(ubor == uwant, "unsigned bor %x", ubor);
    signed char c = (signed char)(rank % 100), cmin;
    MPI_Allreduce(&c, &cmin, 1, MPI_SIGNED_CHAR, MPI_MIN, comm);
    SUITE_CHECK(cmin == 0, "char min %d", cmin);
    unsigned char b = (unsigned char)(1 << (rank % 8)), bxor;
    MPI_Allreduce(&b, &bxor, 1, MPI_BYTE, MPI_BXOR, comm);
    unsigned char bwant = 0;
    for (int r = 0; r < size; r++) bwant ^= (unsigned char)(1 << (r % 8));
    SUITE_CHECK(bxor == bwant, "byte bxor %x", bxor);
    _Bool t = rank != 1, tall;
    MPI_Allreduce(&t, &tall, 1, MPI_C_BOOL, MPI_LAND, comm);
    SUITE_CHECK(tall == (size < 2), "bool land %d", tall);
    long long ll = (long long)rank << 33, llsum;
    MPI_Allreduce(&ll, &llsum, 1, MPI_LONG_LONG, MPI_SUM, comm);
    SUITE_CHECK(llsum == ((long long)size * (size - 1) / 2) << 33, "long long sum %lld", llsum);
    double _Complex z = rank, zsum;
    __imag__ z = rank;
    MPI_Allreduce(&z, &zsum, 1, MPI_C_DOUBLE_COMPLEX, MPI_SUM, comm);
    SUITE_CHECK(__real__ zsum == size * (size - 1) / 2.0, "complex sum %g", __real__ zsum);
    /* MAXLOC / MINLOC: dense MPI_2INT and padded MPI_DOUBLE_INT. */
    int pair[2] = {rank % 3, rank}, loc[2];
    MPI_Allreduce(pair, loc, 1, MPI_2INT, MPI_MAXLOC, comm);
    int want = size >= 3 ? 2 : size - 1;
    SUITE_CHECK(loc[0] == want && loc[1] == want, "maxloc (%d, %d)", loc[0], loc[1]);
    struct { double v; int i; } di = {(double)(rank % 2), rank}, dmin;
    MPI_Allreduce(&di, &dmin, 1, MPI_DOUBLE_INT, MPI_MINLOC, comm);
    SUITE_CHECK(dmin.v == 0.0 && dmin.i == 0, "minloc (%g, %d)", dmin.v, dmin.i);
}

/* A double sum whose rounding depends on the grouping: every rank must see the same bits,
 * and the same in every repetition. */
static void check_bit_identical(MPI_Comm comm)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    double mine[4] = {rank % 2 ? 1e16 : 1.0, 1.0 / (rank + 3), rank % 3 ? -1e16 : 3.25, rank * 1e-7};
    double first[4];
    for (int rep = 0; rep < 5; rep++) {
        double sum[4];
        MPI_Allreduce(mine, sum, 4, MPI_DOUBLE, MPI_SUM, comm);
        if (rep == 0)
            memcpy(first, sum, sizeof sum);
        SUITE_CHECK(memcmp(first, sum, sizeof sum) == 0, "repetition %d differs", rep);
    }
    /* Every rank holds rank 0's bits. */
    double root[4];
    memcpy(root, first, sizeof root);
    MPI_Bcast(root, 4, MPI_DOUBLE, 0, comm);
    SUITE_CHECK(memcmp(root, first, sizeof root) == 0, "result differs from rank 0's");
}

/* User operations: a commutative one (sum) and a non-commutative one, 2x2 integer matrix
 * products mod 1009 in rank order. */
static void user_sum(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; i++) ((int *)inout)[i] += ((int *)in)[i];
}

static void mat_mul(const int *a, const int *b, int *out)
{
    int r[4] = {(a[0] * b[0] + a[1] * b[2]) % 1009, (a[0] * b[1] + a[1] * b[3]) % 1009,
                (a[2] * b[0] + a[3] * b[2]) % 1009, (a[2] * b[1] + a[3] * b[3]) % 1009};
    memcpy(out, r, sizeof r);
}

static void user_matmul(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len / 4; i++) /* inout = in x inout, 4 ints a matrix */
        mat_mul((int *)in + 4 * i, (int *)inout + 4 * i, (int *)inout + 4 * i);
}

static void mat_of(int r, int *m)
{
    m[0] = r + 1, m[1] = 2, m[2] = r % 3, m[3] = 1;
}

static void check_user_ops(MPI_Comm comm)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    MPI_Op sum, matmul;
    MPI_Op_create(user_sum, 1, &sum);
    MPI_Op_create(user_matmul, 0, &matmul);
    int v = rank + 1, total = 0;
    MPI_Allreduce(&v, &total, 1, MPI_INT, sum, comm);
    SUITE_CHECK(total == size * (size + 1) / 2, "user sum %d", total);
    int m[4], got[4], want[4] = {1, 0, 0, 1};
    mat_of(rank, m);
    MPI_Allreduce(m, got, 4, MPI_INT, matmul, comm);
    for (int r = 0; r < size; r++) {
        int mr[4];
        mat_of(r, mr);
        mat_mul(want, mr, want);
    }
    SUITE_CHECK(memcmp(got, want, sizeof got) == 0, "matrix product in rank order: (%d %d %d %d), expected (%d %d %d %d)",
                got[0], got[1], got[2], got[3], want[0], want[1], want[2], want[3]);
    MPI_Op_free(&sum);
    MPI_Op_free(&matmul);
}

/* Barriers between nonblocking collectives (which keep their schedules). */
static void check_barrier_mix(MPI_Comm comm)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    for (int i = 0; i < 4; i++) {
        MPI_Request req;
        int v = rank, s = 0;
        MPI_Iallreduce(&v, &s, 1, MPI_INT, MPI_SUM, comm, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Barrier(comm);
        SUITE_CHECK(s == size * (size - 1) / 2, "iallreduce %d", s);
        MPI_Ibarrier(comm, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Barrier(comm);
    }
}

/* Bcast from every root: sizes up to the area's 1 KiB and beyond it, and a strided type at
 * the root against a contiguous one elsewhere (same signature). */
static void check_bcast(MPI_Comm comm)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    const int counts[] = {0, 1, 256, 500};
    int buf[500];
    for (int root = 0; root < size; root++) {
        for (unsigned k = 0; k < sizeof counts / sizeof counts[0]; k++) {
            int n = counts[k];
            if (rank == root)
                suite_fill(buf, n, root + 1);
            else
                memset(buf, 0, sizeof buf);
            MPI_Bcast(buf, n, MPI_INT, root, comm);
            SUITE_CHECK(suite_filled(buf, n, root + 1), "bcast of %d ints from %d", n, root);
        }
    }
    MPI_Datatype every_other;
    MPI_Type_vector(8, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    int root = size - 1, strided[16], got[8];
    for (int i = 0; i < 16; i++)
        strided[i] = i % 2 ? -1 : 1000 + i / 2;
    if (rank == root)
        MPI_Bcast(strided, 1, every_other, root, comm);
    else {
        memset(got, 0, sizeof got);
        MPI_Bcast(got, 8, MPI_INT, root, comm);
        for (int i = 0; i < 8; i++)
            SUITE_CHECK(got[i] == 1000 + i, "strided bcast: element %d is %d", i, got[i]);
    }
    /* The other way: contiguous at the root, strided elsewhere (the holes kept). */
    for (int i = 0; i < 16; i++)
        strided[i] = rank == root ? 2000 + i : -1;
    if (rank == root)
        MPI_Bcast(strided, 8, MPI_INT, root, comm);
    else {
        MPI_Bcast(strided, 1, every_other, root, comm);
        for (int i = 0; i < 16; i++)
            SUITE_CHECK(strided[i] == (i % 2 ? -1 : 2000 + i / 2), "strided receive: element %d is %d", i, strided[i]);
    }
    MPI_Type_free(&every_other);
}

/* Alltoall: block sizes through the area and (the largest) beyond its staging, a strided
 * send type against contiguous receives. Block from r to d, element e:
 * r * 100000 + d * 100 + e % 100. */
static void check_alltoall(MPI_Comm comm)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    /* 3100 ints: beyond the staging at 4 ranks on a cluster (kept to small communicators,
     * whose clusters have the memory). */
    const int counts[] = {1, 16, size <= 4 ? 3100 : 0};
    for (unsigned k = 0; k < sizeof counts / sizeof counts[0]; k++) {
        int n = counts[k];
        if (n == 0)
            continue;
        int *send = malloc(sizeof(int) * (size_t)(n * size)), *recv = malloc(sizeof(int) * (size_t)(n * size));
        if (!send || !recv) {
            SUITE_FAIL("no memory for %d ints", n * size);
            free(send), free(recv);
            return;
        }
        for (int d = 0; d < size; d++)
            for (int e = 0; e < n; e++)
                send[d * n + e] = rank * 100000 + d * 100 + e % 100;
        memset(recv, 0, sizeof(int) * (size_t)(n * size));
        MPI_Alltoall(send, n, MPI_INT, recv, n, MPI_INT, comm);
        for (int r = 0; r < size; r++)
            for (int e = 0; e < n; e++)
                if (recv[r * n + e] != r * 100000 + rank * 100 + e % 100) {
                    SUITE_FAIL("alltoall of %d: block from %d element %d is %d", n, r, e, recv[r * n + e]);
                    r = size;
                    break;
                }
        free(send), free(recv);
    }
    /* Two ints per block sent as one strided element (every other int of 4). */
    MPI_Datatype pair;
    MPI_Type_vector(2, 1, 2, MPI_INT, &pair);
    MPI_Type_create_resized(pair, 0, 4 * sizeof(int), &pair);
    MPI_Type_commit(&pair);
    int *send = malloc(sizeof(int) * 4 * (size_t)size), *recv = malloc(sizeof(int) * 2 * (size_t)size);
    for (int d = 0; d < size; d++) {
        send[4 * d] = rank * 1000 + d;
        send[4 * d + 1] = -1;
        send[4 * d + 2] = -(rank * 1000 + d);
        send[4 * d + 3] = -1;
    }
    MPI_Alltoall(send, 1, pair, recv, 2, MPI_INT, comm);
    for (int r = 0; r < size; r++)
        SUITE_CHECK(recv[2 * r] == r * 1000 + rank && recv[2 * r + 1] == -(r * 1000 + rank),
                    "strided alltoall: from %d got (%d, %d)", r, recv[2 * r], recv[2 * r + 1]);
    MPI_Type_free(&pair);
    free(send), free(recv);
}

static void check_all(MPI_Comm comm)
{
    check_bcast(comm);
    check_alltoall(comm);
    const int counts[] = {0, 1, 7, BIG, TOO_BIG};
    for (unsigned i = 0; i < sizeof counts / sizeof counts[0]; i++)
        check_int_ops(comm, counts[i]);
    check_type_classes(comm);
    check_bit_identical(comm);
    check_user_ops(comm);
    check_barrier_mix(comm);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_all(MPI_COMM_WORLD);
    /* Sub-communicators whose ranks share clusters with other communicators' ranks. */
    for (int modulus = 2; modulus <= 3; modulus++) {
        MPI_Comm sub;
        MPI_Comm_split(MPI_COMM_WORLD, rank % modulus, rank, &sub);
        check_all(sub);
        MPI_Comm_free(&sub);
    }
    MPI_Comm reversed;
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &reversed);
    check_all(reversed);
    MPI_Comm_free(&reversed);
    /* A communicator freed and another made on the same id: a fresh area. */
    for (int i = 0; i < 3; i++) {
        MPI_Comm dup;
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        int v = 1, n = 0;
        MPI_Allreduce(&v, &n, 1, MPI_INT, MPI_SUM, dup);
        SUITE_CHECK(n == size, "dup %d: sum %d", i, n);
        MPI_Barrier(dup);
        MPI_Comm_free(&dup);
    }
    return suite_finalize();
}
