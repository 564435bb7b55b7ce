/* Every predefined reduction operation on every predefined datatype through MPI_Allreduce
 * and MPI_Reduce (MPI 3.1 section 5.9.2): the pairs the table allows succeed, the others
 * return MPI_ERR_OP (MPI_ERRORS_RETURN); MINLOC/MAXLOC take the pair types only (5.9.4).
 * MPI_REPLACE and MPI_NO_OP are for one-sided accumulates only, so MPI_ERR_OP here. */
#include <string.h>

#include "suite.h"

enum group { C_INTEGER, F_INTEGER, FLOATING, LOGICAL, COMPLEX, BYTE, MULTI, PAIR, NONE };

static const struct {
    MPI_Datatype type;
    enum group group;
    const char *name;
} types[] = {
    {MPI_INT, C_INTEGER, "MPI_INT"}, {MPI_LONG, C_INTEGER, "MPI_LONG"},
    {MPI_SHORT, C_INTEGER, "MPI_SHORT"}, {MPI_UNSIGNED_SHORT, C_INTEGER, "MPI_UNSIGNED_SHORT"},
    {MPI_UNSIGNED, C_INTEGER, "MPI_UNSIGNED"}, {MPI_UNSIGNED_LONG, C_INTEGER, "MPI_UNSIGNED_LONG"},
    {MPI_LONG_LONG_INT, C_INTEGER, "MPI_LONG_LONG_INT"},
    {MPI_UNSIGNED_LONG_LONG, C_INTEGER, "MPI_UNSIGNED_LONG_LONG"},
    {MPI_SIGNED_CHAR, C_INTEGER, "MPI_SIGNED_CHAR"}, {MPI_UNSIGNED_CHAR, C_INTEGER, "MPI_UNSIGNED_CHAR"},
    {MPI_INT8_T, C_INTEGER, "MPI_INT8_T"}, {MPI_INT16_T, C_INTEGER, "MPI_INT16_T"},
    {MPI_INT32_T, C_INTEGER, "MPI_INT32_T"}, {MPI_INT64_T, C_INTEGER, "MPI_INT64_T"},
    {MPI_UINT8_T, C_INTEGER, "MPI_UINT8_T"}, {MPI_UINT16_T, C_INTEGER, "MPI_UINT16_T"},
    {MPI_UINT32_T, C_INTEGER, "MPI_UINT32_T"}, {MPI_UINT64_T, C_INTEGER, "MPI_UINT64_T"},
    {MPI_INTEGER, F_INTEGER, "MPI_INTEGER"}, {MPI_INTEGER1, F_INTEGER, "MPI_INTEGER1"},
    {MPI_INTEGER2, F_INTEGER, "MPI_INTEGER2"}, {MPI_INTEGER4, F_INTEGER, "MPI_INTEGER4"},
    {MPI_INTEGER8, F_INTEGER, "MPI_INTEGER8"},
    {MPI_FLOAT, FLOATING, "MPI_FLOAT"}, {MPI_DOUBLE, FLOATING, "MPI_DOUBLE"},
    {MPI_LONG_DOUBLE, FLOATING, "MPI_LONG_DOUBLE"}, {MPI_REAL, FLOATING, "MPI_REAL"},
    {MPI_DOUBLE_PRECISION, FLOATING, "MPI_DOUBLE_PRECISION"}, {MPI_REAL4, FLOATING, "MPI_REAL4"},
    {MPI_REAL8, FLOATING, "MPI_REAL8"}, {MPI_REAL16, FLOATING, "MPI_REAL16"},
    {MPI_LOGICAL, LOGICAL, "MPI_LOGICAL"}, {MPI_C_BOOL, LOGICAL, "MPI_C_BOOL"},
    {MPI_CXX_BOOL, LOGICAL, "MPI_CXX_BOOL"},
    {MPI_COMPLEX, COMPLEX, "MPI_COMPLEX"}, {MPI_C_COMPLEX, COMPLEX, "MPI_C_COMPLEX"},
    {MPI_C_FLOAT_COMPLEX, COMPLEX, "MPI_C_FLOAT_COMPLEX"},
    {MPI_C_DOUBLE_COMPLEX, COMPLEX, "MPI_C_DOUBLE_COMPLEX"},
    {MPI_C_LONG_DOUBLE_COMPLEX, COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX"},
    {MPI_CXX_FLOAT_COMPLEX, COMPLEX, "MPI_CXX_FLOAT_COMPLEX"},
    {MPI_CXX_DOUBLE_COMPLEX, COMPLEX, "MPI_CXX_DOUBLE_COMPLEX"},
    {MPI_CXX_LONG_DOUBLE_COMPLEX, COMPLEX, "MPI_CXX_LONG_DOUBLE_COMPLEX"},
    {MPI_DOUBLE_COMPLEX, COMPLEX, "MPI_DOUBLE_COMPLEX"}, {MPI_COMPLEX8, COMPLEX, "MPI_COMPLEX8"},
    {MPI_COMPLEX16, COMPLEX, "MPI_COMPLEX16"}, {MPI_COMPLEX32, COMPLEX, "MPI_COMPLEX32"},
    {MPI_BYTE, BYTE, "MPI_BYTE"},
    {MPI_AINT, MULTI, "MPI_AINT"}, {MPI_OFFSET, MULTI, "MPI_OFFSET"}, {MPI_COUNT, MULTI, "MPI_COUNT"},
    {MPI_FLOAT_INT, PAIR, "MPI_FLOAT_INT"}, {MPI_DOUBLE_INT, PAIR, "MPI_DOUBLE_INT"},
    {MPI_LONG_INT, PAIR, "MPI_LONG_INT"}, {MPI_2INT, PAIR, "MPI_2INT"},
    {MPI_SHORT_INT, PAIR, "MPI_SHORT_INT"}, {MPI_LONG_DOUBLE_INT, PAIR, "MPI_LONG_DOUBLE_INT"},
    {MPI_2REAL, PAIR, "MPI_2REAL"}, {MPI_2DOUBLE_PRECISION, PAIR, "MPI_2DOUBLE_PRECISION"},
    {MPI_2INTEGER, PAIR, "MPI_2INTEGER"},
    {MPI_CHAR, NONE, "MPI_CHAR"}, {MPI_WCHAR, NONE, "MPI_WCHAR"},
    {MPI_CHARACTER, NONE, "MPI_CHARACTER"}, {MPI_PACKED, NONE, "MPI_PACKED"},
};

static const struct {
    MPI_Op op;
    const char *name;
} ops[] = {
    {MPI_MAX, "MPI_MAX"}, {MPI_MIN, "MPI_MIN"}, {MPI_SUM, "MPI_SUM"}, {MPI_PROD, "MPI_PROD"},
    {MPI_LAND, "MPI_LAND"}, {MPI_LOR, "MPI_LOR"}, {MPI_LXOR, "MPI_LXOR"},
    {MPI_BAND, "MPI_BAND"}, {MPI_BOR, "MPI_BOR"}, {MPI_BXOR, "MPI_BXOR"},
    {MPI_MINLOC, "MPI_MINLOC"}, {MPI_MAXLOC, "MPI_MAXLOC"},
    {MPI_REPLACE, "MPI_REPLACE"}, {MPI_NO_OP, "MPI_NO_OP"},
};

/* The table of MPI 3.1 section 5.9.2 (and 5.9.4 for MINLOC/MAXLOC). */
static int allowed(MPI_Op op, enum group g)
{
    const int integer = g == C_INTEGER || g == F_INTEGER;
    if (op == MPI_MAX || op == MPI_MIN)
        return integer || g == FLOATING || g == MULTI;
    if (op == MPI_SUM || op == MPI_PROD)
        return integer || g == FLOATING || g == COMPLEX || g == MULTI;
    if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR)
        return g == C_INTEGER || g == LOGICAL;
    if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR)
        return integer || g == BYTE || g == MULTI;
    if (op == MPI_MINLOC || op == MPI_MAXLOC)
        return g == PAIR;
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    /* Room for two elements of the largest type (long double complex: 32 bytes); zeroed data
     * is a valid value of every type. */
    _Alignas(16) unsigned char in[64], out[64];
    int refused_allowed = 0;
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
        for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
            const int expected = allowed(ops[o].op, types[t].group) ? MPI_SUCCESS : MPI_ERR_OP;
            memset(in, 0, sizeof in);
            int rc = MPI_Allreduce(in, out, 2, types[t].type, ops[o].op, MPI_COMM_WORLD);
            int got = MPI_SUCCESS;
            if (rc != MPI_SUCCESS)
                MPI_Error_class(rc, &got);
            SUITE_CHECK(got == expected, "MPI_Allreduce %s on %s: class %d, expected %d",
                        ops[o].name, types[t].name, got, expected);
            if (expected == MPI_SUCCESS && got == MPI_ERR_OP)
                refused_allowed++;
            rc = MPI_Reduce(in, out, 2, types[t].type, ops[o].op, 0, MPI_COMM_WORLD);
            got = MPI_SUCCESS;
            if (rc != MPI_SUCCESS)
                MPI_Error_class(rc, &got);
            SUITE_CHECK(got == expected, "MPI_Reduce %s on %s: class %d, expected %d",
                        ops[o].name, types[t].name, got, expected);
        }
    }
    SUITE_CHECK(refused_allowed == 0, "%d allowed pairs refused", refused_allowed);
    return suite_finalize();
}
