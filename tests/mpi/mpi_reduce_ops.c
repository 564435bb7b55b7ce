/* Every predefined reduction operation on every type it is defined for (MPI 3.1, 5.9.2),
 * with MPI_Allreduce, MPI_Reduce and MPI_Scan, on MPI_COMM_WORLD and on an odd-sized split;
 * MINLOC/MAXLOC on the pair types; a non-commutative program operation (rank order). */
#include <complex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_check.h"

static _Thread_local int wrank;

#define INTEGER_TYPES(X)                                                                    \
    X(MPI_SIGNED_CHAR, signed char) X(MPI_UNSIGNED_CHAR, unsigned char) X(MPI_SHORT, short)   \
    X(MPI_UNSIGNED_SHORT, unsigned short) X(MPI_INT, int) X(MPI_UNSIGNED, unsigned)           \
    X(MPI_LONG, long) X(MPI_UNSIGNED_LONG, unsigned long) X(MPI_LONG_LONG, long long)         \
    X(MPI_UNSIGNED_LONG_LONG, unsigned long long) X(MPI_INT8_T, int8_t)                      \
    X(MPI_INT16_T, int16_t) X(MPI_INT32_T, int32_t) X(MPI_INT64_T, int64_t)                  \
    X(MPI_UINT8_T, uint8_t) X(MPI_UINT16_T, uint16_t) X(MPI_UINT32_T, uint32_t)              \
    X(MPI_UINT64_T, uint64_t) X(MPI_AINT, MPI_Aint) X(MPI_OFFSET, MPI_Offset)                \
    X(MPI_COUNT, MPI_Count)
#define FLOAT_TYPES(X) X(MPI_FLOAT, float) X(MPI_DOUBLE, double) X(MPI_LONG_DOUBLE, long double)
#define COMPLEX_TYPES(X)                                                                    \
    X(MPI_C_FLOAT_COMPLEX, float _Complex) X(MPI_C_DOUBLE_COMPLEX, double _Complex)          \
    X(MPI_C_LONG_DOUBLE_COMPLEX, long double _Complex)
#define ALL_TYPES(X) INTEGER_TYPES(X) FLOAT_TYPES(X) COMPLEX_TYPES(X) X(MPI_C_BOOL, bool) X(MPI_BYTE, unsigned char)

static void put(MPI_Datatype t, void *buf, int i, long long v)
{
#define PUT(T, C)                           \
    if (t == T) {                           \
        ((C *)buf)[i] = (C)v;               \
        return;                             \
    }
    ALL_TYPES(PUT)
#undef PUT
}

static long long get(MPI_Datatype t, const void *buf, int i)
{
#define GET(T, C)                                       \
    if (t == T)                                         \
        return (long long)creall((long double _Complex)((const C *)buf)[i]);
    ALL_TYPES(GET)
#undef GET
    return -999;
}

enum { ARITH = 1, LOGICAL = 2, BITWISE = 4 };

struct op_info {
    MPI_Op op;
    int family;
};
static const struct op_info ops[] = {
    {MPI_MAX, ARITH}, {MPI_MIN, ARITH}, {MPI_SUM, ARITH}, {MPI_PROD, ARITH},
    {MPI_LAND, LOGICAL}, {MPI_LOR, LOGICAL}, {MPI_LXOR, LOGICAL},
    {MPI_BAND, BITWISE}, {MPI_BOR, BITWISE}, {MPI_BXOR, BITWISE},
};

static long long combine(MPI_Op op, long long a, long long b)
{
    if (op == MPI_MAX) return a > b ? a : b;
    if (op == MPI_MIN) return a < b ? a : b;
    if (op == MPI_SUM) return a + b;
    if (op == MPI_PROD) return a * b;
    if (op == MPI_LAND) return a && b;
    if (op == MPI_LOR) return a || b;
    if (op == MPI_LXOR) return !a != !b;
    if (op == MPI_BAND) return a & b;
    if (op == MPI_BOR) return a | b;
    return a ^ b;
}

/* Small values (products stay small): 1 or 2 for arithmetic, 0 or 1 for logical, a few bits
 * for bitwise operations. */
static long long value(int family, int rank, int i)
{
    if (family == ARITH) return 1 + ((rank + i) % 5 == 0);
    if (family == LOGICAL) return (rank + i) % 3 != 0;
    return ((rank * 7 + i) % 16) | 32;
}

static int families_of(MPI_Datatype t)
{
#define IS(T, C) || t == T
    if (0 INTEGER_TYPES(IS)) return ARITH | LOGICAL | BITWISE;
    if (0 FLOAT_TYPES(IS)) return ARITH;
#undef IS
    if (t == MPI_C_FLOAT_COMPLEX || t == MPI_C_DOUBLE_COMPLEX || t == MPI_C_LONG_DOUBLE_COMPLEX) return ARITH;
    if (t == MPI_C_BOOL) return LOGICAL;
    return BITWISE; /* MPI_BYTE */
}

static int is_complex(MPI_Datatype t)
{
    return t == MPI_C_FLOAT_COMPLEX || t == MPI_C_DOUBLE_COMPLEX || t == MPI_C_LONG_DOUBLE_COMPLEX;
}

static void every_op_and_type(MPI_Comm comm)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    const MPI_Datatype types[] = {
#define LIST(T, C) T,
        ALL_TYPES(LIST)
#undef LIST
    };
    enum { N = 3 };
    unsigned char in[N * 32], out[N * 32];
    int failures = 0, checks = 0;
    for (unsigned k = 0; k < sizeof types / sizeof types[0]; k++) {
        MPI_Datatype t = types[k];
        for (unsigned o = 0; o < sizeof ops / sizeof ops[0]; o++) {
            int family = ops[o].family;
            if (!(families_of(t) & family))
                continue;
            if (is_complex(t) && ops[o].op != MPI_SUM && ops[o].op != MPI_PROD)
                continue;  /* complex numbers have no order */
            for (int i = 0; i < N; i++)
                put(t, in, i, value(family, rank, i));
            memset(out, 0, sizeof out);
            int err = MPI_Allreduce(in, out, N, t, ops[o].op, comm);
            checks++;
            for (int i = 0; i < N; i++) {
                long long want = value(family, 0, i);
                for (int r = 1; r < size; r++)
                    want = combine(ops[o].op, want, value(family, r, i));
                if (err != MPI_SUCCESS || get(t, out, i) != want) {
                    failures++;
                    printf("FAIL rank %d: allreduce type %u op %u element %d: %lld, expected %lld\n",
                           wrank, k, o, i, get(t, out, i), want);
                    break;
                }
            }
            /* Scan of the same: rank r gets the prefix up to r. */
            memset(out, 0, sizeof out);
            MPI_Scan(in, out, N, t, ops[o].op, comm);
            long long want = value(family, 0, 1);
            for (int r = 1; r <= rank; r++)
                want = combine(ops[o].op, want, value(family, r, 1));
            checks++;
            if (get(t, out, 1) != want) {
                failures++;
                printf("FAIL rank %d: scan type %u op %u: %lld, expected %lld\n", wrank, k, o,
                       get(t, out, 1), want);
            }
        }
    }
    CHECK_EQ(failures, 0);
    CHECK(checks > 100);
}

#define PAIR_TYPES(X)                                                                      \
    X(MPI_FLOAT_INT, float) X(MPI_DOUBLE_INT, double) X(MPI_LONG_INT, long)                  \
    X(MPI_2INT, int) X(MPI_SHORT_INT, short) X(MPI_LONG_DOUBLE_INT, long double)

static void minloc_maxloc(MPI_Comm comm)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int v = (rank * 5 + 3) % 7, best_max = -1, at_max = -1, best_min = 99, at_min = -1;
    for (int r = 0; r < size; r++) {
        int x = (r * 5 + 3) % 7;
        if (x > best_max) best_max = x, at_max = r;
        if (x < best_min) best_min = x, at_min = r;
    }
#define PAIR(T, C)                                                                 \
    {                                                                              \
        struct { C value; int index; } mine = {(C)v, rank}, hi, lo;                \
        MPI_Allreduce(&mine, &hi, 1, T, MPI_MAXLOC, comm);                          \
        MPI_Reduce(&mine, &lo, 1, T, MPI_MINLOC, 0, comm);                          \
        CHECK_EQ((long long)hi.value, best_max);                                   \
        CHECK_EQ(hi.index, at_max);                                                \
        if (rank == 0) {                                                           \
            CHECK_EQ((long long)lo.value, best_min);                               \
            CHECK_EQ(lo.index, at_min);                                            \
        }                                                                          \
    }
    PAIR_TYPES(PAIR)
#undef PAIR
}

/* 2x2 integer matrices: the product depends on the order of the operands. */
static void matmul(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    int *a = in, *b = inout;
    for (int k = 0; k < *len / 4; k++, a += 4, b += 4) {
        int c[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
                    a[2] * b[1] + a[3] * b[3]};
        memcpy(b, c, sizeof c);
    }
}

static void matrix_of(int r, int *m)
{
    m[0] = 1, m[1] = r + 1, m[2] = 0, m[3] = 1 + (r % 2);
}

static void non_commutative(MPI_Comm comm)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    MPI_Op op;
    CHECK_EQ(MPI_Op_create(matmul, 0, &op), MPI_SUCCESS);
    int mine[4], got[4], want[4] = {1, 0, 0, 1}, len = 4;
    matrix_of(rank, mine);
    MPI_Reduce(mine, got, 4, MPI_INT, op, size - 1, comm);
    for (int r = 0; r < size; r++) {
        int x[4];
        matrix_of(r, x);
        matmul(want, x, &len, NULL);
        memcpy(want, x, sizeof want);
    }
    if (rank == size - 1)
        CHECK(memcmp(got, want, sizeof want) == 0);
    int commute = 1;
    MPI_Op_commutative(op, &commute);
    CHECK_EQ(commute, 0);
    MPI_Op_free(&op);
    CHECK_EQ(op, MPI_OP_NULL);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm odd;
    /* Ranks 1, 4, 7, ... form one communicator, the others a second one (odd sizes). */
    MPI_Comm_split(MPI_COMM_WORLD, wrank % 3 == 1, -wrank, &odd);
    every_op_and_type(MPI_COMM_WORLD);
    every_op_and_type(odd);
    minloc_maxloc(MPI_COMM_WORLD);
    minloc_maxloc(odd);
    non_commutative(MPI_COMM_WORLD);
    non_commutative(odd);
    MPI_Comm_free(&odd);
    int status = mpi_check_finish("mpi_reduce_ops");
    MPI_Finalize();
    return status;
}
