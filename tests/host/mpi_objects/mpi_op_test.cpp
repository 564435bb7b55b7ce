// Reduction operations: which (op, type) pairs the standard allows, the result of every
// predefined op, MINLOC/MAXLOC ties, derived types, user functions (MPI 3.1 section 5.9).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "libmpi/op.hpp"
#include "tests/host/mpi_objects/mpi_obj_doubles.hpp"

namespace {

enum Group { CInt, FInt, Float, Logical, Complex, Byte, Multi, Pair, Other };

struct TypedGroup {
    MPI_Datatype type;
    Group group;
};

const TypedGroup kTypes[] = {
    {MPI_SIGNED_CHAR, CInt}, {MPI_UNSIGNED_CHAR, CInt}, {MPI_SHORT, CInt},
    {MPI_UNSIGNED_SHORT, CInt}, {MPI_INT, CInt}, {MPI_UNSIGNED, CInt}, {MPI_LONG, CInt},
    {MPI_UNSIGNED_LONG, CInt}, {MPI_LONG_LONG, CInt}, {MPI_UNSIGNED_LONG_LONG, CInt},
    {MPI_INT8_T, CInt}, {MPI_INT16_T, CInt}, {MPI_INT32_T, CInt}, {MPI_INT64_T, CInt},
    {MPI_UINT8_T, CInt}, {MPI_UINT16_T, CInt}, {MPI_UINT32_T, CInt}, {MPI_UINT64_T, CInt},
    {MPI_FLOAT, Float}, {MPI_DOUBLE, Float}, {MPI_LONG_DOUBLE, Float},
    {MPI_C_BOOL, Logical}, {MPI_CXX_BOOL, Logical},
    {MPI_C_COMPLEX, Complex}, {MPI_C_FLOAT_COMPLEX, Complex}, {MPI_C_DOUBLE_COMPLEX, Complex},
    {MPI_C_LONG_DOUBLE_COMPLEX, Complex}, {MPI_CXX_FLOAT_COMPLEX, Complex},
    {MPI_CXX_DOUBLE_COMPLEX, Complex}, {MPI_CXX_LONG_DOUBLE_COMPLEX, Complex},
    {MPI_BYTE, Byte},
    {MPI_AINT, Multi}, {MPI_OFFSET, Multi}, {MPI_COUNT, Multi},
    {MPI_FLOAT_INT, Pair}, {MPI_DOUBLE_INT, Pair}, {MPI_LONG_INT, Pair}, {MPI_2INT, Pair},
    {MPI_SHORT_INT, Pair}, {MPI_LONG_DOUBLE_INT, Pair},
    {MPI_CHAR, Other}, {MPI_WCHAR, Other}, {MPI_PACKED, Other},
    {MPI_INTEGER, FInt}, {MPI_INTEGER1, FInt}, {MPI_INTEGER2, FInt}, {MPI_INTEGER4, FInt},
    {MPI_INTEGER8, FInt},
    {MPI_REAL, Float}, {MPI_DOUBLE_PRECISION, Float}, {MPI_REAL4, Float}, {MPI_REAL8, Float},
    {MPI_REAL16, Float},
    {MPI_LOGICAL, Logical},
    {MPI_COMPLEX, Complex}, {MPI_DOUBLE_COMPLEX, Complex}, {MPI_COMPLEX8, Complex},
    {MPI_COMPLEX16, Complex}, {MPI_COMPLEX32, Complex},
    {MPI_2INTEGER, Pair}, {MPI_2REAL, Pair}, {MPI_2DOUBLE_PRECISION, Pair},
    {MPI_CHARACTER, Other},
};

// The table of MPI 3.1 section 5.9.2 (REPLACE and NO_OP take every type).
bool allowed(MPI_Op op, Group g) {
    const bool integer = g == CInt || g == FInt;
    if (op == MPI_MAX || op == MPI_MIN) return integer || g == Float || g == Multi;
    if (op == MPI_SUM || op == MPI_PROD) return integer || g == Float || g == Complex || g == Multi;
    if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR) return g == CInt || g == Logical;
    if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR) return integer || g == Byte || g == Multi;
    if (op == MPI_MINLOC || op == MPI_MAXLOC) return g == Pair;
    return op == MPI_REPLACE || op == MPI_NO_OP;
}

const MPI_Op kOps[] = {MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_BAND, MPI_LOR,
                       MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MINLOC, MPI_MAXLOC, MPI_REPLACE, MPI_NO_OP};

TEST(OpCheck, EveryPredefinedOpOnEveryPredefinedTypeFollowsTheStandardTable) {
    for (MPI_Op op : kOps) {
        for (const TypedGroup& t : kTypes) {
            const int expected = allowed(op, t.group) ? MPI_SUCCESS : MPI_ERR_OP;
            EXPECT_EQ(lwmpi::op_check(op, t.type), expected)
                << "op " << LWMPI_HANDLE_INDEX(op) << " type " << LWMPI_HANDLE_INDEX(t.type);
        }
    }
}

TEST(OpCheck, InvalidOpsAndTypes) {
    EXPECT_EQ(lwmpi::op_check(MPI_OP_NULL, MPI_INT), MPI_ERR_OP);
    EXPECT_EQ(lwmpi::op_check(MPI_INT, MPI_INT), MPI_ERR_OP);
    EXPECT_EQ(lwmpi::op_check(LWMPI_PREDEFINED(LWMPI_KIND_OP, 99), MPI_INT), MPI_ERR_OP);
    EXPECT_EQ(lwmpi::op_check(MPI_SUM, MPI_DATATYPE_NULL), MPI_ERR_TYPE);
    MPI_Datatype uncommitted;
    ASSERT_EQ(MPI_Type_contiguous(2, MPI_INT, &uncommitted), MPI_SUCCESS);
    EXPECT_EQ(lwmpi::op_check(MPI_SUM, uncommitted), MPI_ERR_TYPE);
    MPI_Type_free(&uncommitted);
}

template <typename T>
std::vector<T> apply(MPI_Op op, MPI_Datatype type, std::vector<T> in, std::vector<T> inout) {
    EXPECT_EQ(lwmpi::op_check(op, type), MPI_SUCCESS);
    EXPECT_EQ(lwmpi::op_apply(op, in.data(), inout.data(), static_cast<int>(in.size()), type),
              MPI_SUCCESS);
    return inout;
}

TEST(OpApply, ArithmeticOnIntegersAndFloats) {
    using V = std::vector<int>;
    EXPECT_EQ(apply<int>(MPI_MAX, MPI_INT, {1, -5, 7}, {3, -6, 7}), (V{3, -5, 7}));
    EXPECT_EQ(apply<int>(MPI_MIN, MPI_INT, {1, -5, 7}, {3, -6, 7}), (V{1, -6, 7}));
    EXPECT_EQ(apply<int>(MPI_SUM, MPI_INT, {1, -5, 7}, {3, -6, 7}), (V{4, -11, 14}));
    EXPECT_EQ(apply<int>(MPI_PROD, MPI_INT, {2, -5, 0}, {3, -6, 7}), (V{6, 30, 0}));
    using D = std::vector<double>;
    EXPECT_EQ(apply<double>(MPI_SUM, MPI_DOUBLE, {0.5, 1e10}, {0.25, -1e10}), (D{0.75, 0}));
    EXPECT_EQ(apply<double>(MPI_MAX, MPI_DOUBLE, {-0.5, 2}, {-0.25, 1}), (D{-0.25, 2}));
    using L = std::vector<long double>;
    EXPECT_EQ(apply<long double>(MPI_PROD, MPI_LONG_DOUBLE, {1.5L}, {4.0L}), (L{6.0L}));
    using U8 = std::vector<uint8_t>;
    EXPECT_EQ(apply<uint8_t>(MPI_SUM, MPI_UINT8_T, {200, 1}, {100, 2}), (U8{44, 3}));  // wraps
    EXPECT_EQ(apply<uint8_t>(MPI_MAX, MPI_UNSIGNED_CHAR, {200, 1}, {100, 2}), (U8{200, 2}));
    using I64 = std::vector<int64_t>;
    EXPECT_EQ(apply<int64_t>(MPI_SUM, MPI_INT64_T, {int64_t{1} << 40}, {1}),
              (I64{(int64_t{1} << 40) + 1}));
    EXPECT_EQ(apply<int64_t>(MPI_MIN, MPI_AINT, {-3}, {2}), (I64{-3}));
    using F = std::vector<float>;
    EXPECT_EQ(apply<float>(MPI_MIN, MPI_FLOAT, {1.5f, -2}, {1.25f, 3}), (F{1.25f, -2}));
}

TEST(OpApply, LogicalAndBitwise) {
    using V = std::vector<int>;
    EXPECT_EQ(apply<int>(MPI_LAND, MPI_INT, {0, 5, 0, -1}, {0, 0, 3, 2}), (V{0, 0, 0, 1}));
    EXPECT_EQ(apply<int>(MPI_LOR, MPI_INT, {0, 5, 0, -1}, {0, 0, 3, 2}), (V{0, 1, 1, 1}));
    EXPECT_EQ(apply<int>(MPI_LXOR, MPI_INT, {0, 5, 0, -1}, {0, 0, 3, 2}), (V{0, 1, 1, 0}));
    EXPECT_EQ(apply<int>(MPI_BAND, MPI_INT, {0xf0, 0x3c}, {0xff, 0x0f}), (V{0xf0, 0x0c}));
    EXPECT_EQ(apply<int>(MPI_BOR, MPI_INT, {0xf0, 0x3c}, {0x0f, 0x0f}), (V{0xff, 0x3f}));
    EXPECT_EQ(apply<int>(MPI_BXOR, MPI_INT, {0xf0, 0x3c}, {0xff, 0x0f}), (V{0x0f, 0x33}));
    using B = std::vector<unsigned char>;
    EXPECT_EQ(apply<unsigned char>(MPI_BXOR, MPI_BYTE, {0xaa}, {0xff}), (B{0x55}));
    using U16 = std::vector<uint16_t>;
    EXPECT_EQ(apply<uint16_t>(MPI_BOR, MPI_UINT16_T, {0x8000}, {0x0001}), (U16{0x8001}));
    bool in[4] = {false, true, false, true};
    bool inout[4] = {false, false, true, true};
    ASSERT_EQ(lwmpi::op_apply(MPI_LXOR, in, inout, 4, MPI_C_BOOL), MPI_SUCCESS);
    EXPECT_EQ(inout[0], false);
    EXPECT_EQ(inout[1], true);
    EXPECT_EQ(inout[2], true);
    EXPECT_EQ(inout[3], false);
}

TEST(OpApply, ComplexSumAndProduct) {
    double in[4] = {1, 2, 0, 1};     // 1+2i, i
    double inout[4] = {3, -1, 0, 1}; // 3-i, i
    ASSERT_EQ(lwmpi::op_apply(MPI_PROD, in, inout, 2, MPI_C_DOUBLE_COMPLEX), MPI_SUCCESS);
    EXPECT_EQ(inout[0], 5);  // (1+2i)(3-i) = 5+5i
    EXPECT_EQ(inout[1], 5);
    EXPECT_EQ(inout[2], -1);  // i*i = -1
    EXPECT_EQ(inout[3], 0);
    float fin[2] = {1.5f, -1};
    float finout[2] = {0.5f, 3};
    ASSERT_EQ(lwmpi::op_apply(MPI_SUM, fin, finout, 1, MPI_C_FLOAT_COMPLEX), MPI_SUCCESS);
    EXPECT_EQ(finout[0], 2.0f);
    EXPECT_EQ(finout[1], 2.0f);
}

template <typename V>
struct P {
    V value;
    int index;
};

TEST(OpApply, MinlocAndMaxlocPreferTheSmallerIndexOnTies) {
    P<int> in[4] = {{5, 3}, {5, 1}, {2, 9}, {7, 0}};
    P<int> inout[4] = {{5, 2}, {5, 4}, {3, 0}, {6, 5}};
    P<int> min_result[4], max_result[4];
    std::copy(inout, inout + 4, min_result);
    std::copy(inout, inout + 4, max_result);
    ASSERT_EQ(lwmpi::op_apply(MPI_MINLOC, in, min_result, 4, MPI_2INT), MPI_SUCCESS);
    ASSERT_EQ(lwmpi::op_apply(MPI_MAXLOC, in, max_result, 4, MPI_2INT), MPI_SUCCESS);
    const int min_values[4] = {5, 5, 2, 6}, min_index[4] = {2, 1, 9, 5};
    const int max_values[4] = {5, 5, 3, 7}, max_index[4] = {2, 1, 0, 0};
    for (int i = 0; i < 4; i++) {
        EXPECT_EQ(min_result[i].value, min_values[i]) << i;
        EXPECT_EQ(min_result[i].index, min_index[i]) << i;
        EXPECT_EQ(max_result[i].value, max_values[i]) << i;
        EXPECT_EQ(max_result[i].index, max_index[i]) << i;
    }
}

TEST(OpApply, MinlocOnPaddedPairTypesUsesTheirCLayout) {
    P<double> din[2] = {{1.5, 4}, {-1, 2}};
    P<double> dio[2] = {{1.5, 3}, {0, 1}};
    ASSERT_EQ(lwmpi::op_apply(MPI_MINLOC, din, dio, 2, MPI_DOUBLE_INT), MPI_SUCCESS);
    EXPECT_EQ(dio[0].value, 1.5);
    EXPECT_EQ(dio[0].index, 3);
    EXPECT_EQ(dio[1].value, -1);
    EXPECT_EQ(dio[1].index, 2);
    P<short> sin[1] = {{-4, 8}};
    P<short> sio[1] = {{-4, 6}};
    ASSERT_EQ(lwmpi::op_apply(MPI_MAXLOC, sin, sio, 1, MPI_SHORT_INT), MPI_SUCCESS);
    EXPECT_EQ(sio[0].index, 6);
    P<long double> lin[1] = {{2.0L, 1}};
    P<long double> lio[1] = {{1.0L, 0}};
    ASSERT_EQ(lwmpi::op_apply(MPI_MAXLOC, lin, lio, 1, MPI_LONG_DOUBLE_INT), MPI_SUCCESS);
    EXPECT_EQ(lio[0].value, 2.0L);
    EXPECT_EQ(lio[0].index, 1);
    P<long> lgin[1] = {{-9, 4}};
    P<long> lgio[1] = {{-8, 3}};
    ASSERT_EQ(lwmpi::op_apply(MPI_MINLOC, lgin, lgio, 1, MPI_LONG_INT), MPI_SUCCESS);
    EXPECT_EQ(lgio[0].index, 4);
    P<float> fin[1] = {{0.5f, 1}};
    P<float> fio[1] = {{0.5f, 0}};
    ASSERT_EQ(lwmpi::op_apply(MPI_MINLOC, fin, fio, 1, MPI_FLOAT_INT), MPI_SUCCESS);
    EXPECT_EQ(fio[0].index, 0);
}

TEST(OpApply, ReplaceAndNoOp) {
    using V = std::vector<int>;
    EXPECT_EQ(apply<int>(MPI_REPLACE, MPI_INT, {1, 2}, {3, 4}), (V{1, 2}));
    EXPECT_EQ(apply<int>(MPI_NO_OP, MPI_INT, {1, 2}, {3, 4}), (V{3, 4}));
    EXPECT_FALSE(lwmpi::op_commutative(MPI_REPLACE));
    EXPECT_TRUE(lwmpi::op_commutative(MPI_SUM));
}

TEST(OpApply, DerivedTypesCombineOnlyTheirTypeMap) {
    MPI_Datatype every_other;
    ASSERT_EQ(MPI_Type_vector(2, 1, 2, MPI_INT, &every_other), MPI_SUCCESS);
    ASSERT_EQ(MPI_Type_commit(&every_other), MPI_SUCCESS);
    int in[6] = {1, 100, 2, 100, 3, 100};
    int inout[6] = {10, -1, 20, -1, 30, -1};
    // Extent is 3 ints: two elements cover ints 0, 2 and 3, 5.
    ASSERT_EQ(lwmpi::op_check(MPI_SUM, every_other), MPI_SUCCESS);
    ASSERT_EQ(lwmpi::op_apply(MPI_SUM, in, inout, 2, every_other), MPI_SUCCESS);
    const int expected[6] = {11, -1, 22, 99, 30, 99};
    for (int i = 0; i < 6; i++) EXPECT_EQ(inout[i], expected[i]) << i;
    MPI_Type_free(&every_other);
}

TEST(OpApply, DerivedTypesOfMixedAllowedTypesAndRefusedOnes) {
    struct IntDouble {
        int i;
        double d;
    };
    const int lengths[] = {1, 1};
    const MPI_Aint disps[] = {offsetof(IntDouble, i), offsetof(IntDouble, d)};
    const MPI_Datatype ok_types[] = {MPI_INT, MPI_DOUBLE};
    const MPI_Datatype bad_types[] = {MPI_INT, MPI_CHAR};
    MPI_Datatype ok, bad;
    ASSERT_EQ(MPI_Type_create_struct(2, lengths, disps, ok_types, &ok), MPI_SUCCESS);
    ASSERT_EQ(MPI_Type_create_struct(2, lengths, disps, bad_types, &bad), MPI_SUCCESS);
    ASSERT_EQ(MPI_Type_commit(&ok), MPI_SUCCESS);
    ASSERT_EQ(MPI_Type_commit(&bad), MPI_SUCCESS);
    EXPECT_EQ(lwmpi::op_check(MPI_BAND, ok), MPI_ERR_OP);  // not on double
    EXPECT_EQ(lwmpi::op_check(MPI_SUM, bad), MPI_ERR_OP);  // not on char
    EXPECT_EQ(lwmpi::op_check(MPI_MAX, ok), MPI_SUCCESS);
    IntDouble in[2] = {{1, 0.5}, {-4, 9}};
    IntDouble inout[2] = {{3, 0.25}, {-5, 10}};
    ASSERT_EQ(lwmpi::op_apply(MPI_MAX, in, inout, 2, ok), MPI_SUCCESS);
    EXPECT_EQ(inout[0].i, 3);
    EXPECT_EQ(inout[0].d, 0.5);
    EXPECT_EQ(inout[1].i, -4);
    EXPECT_EQ(inout[1].d, 10);
    MPI_Type_free(&ok);
    MPI_Type_free(&bad);
}

struct UserCall {
    void* in;
    void* inout;
    int len;
    MPI_Datatype type;
    int calls;
} user_call;

// Non-commutative: inout = 10 * in + inout, so the argument order shows.
void shift_add(void* in, void* inout, int* len, MPI_Datatype* type) {
    user_call = {in, inout, *len, *type, user_call.calls + 1};
    for (int i = 0; i < *len; i++) {
        static_cast<int*>(inout)[i] = 10 * static_cast<int*>(in)[i] + static_cast<int*>(inout)[i];
    }
}

TEST(UserOps, CalledWithInThenInoutCountAndType) {
    MPI_Op op;
    ASSERT_EQ(MPI_Op_create(shift_add, 0, &op), MPI_SUCCESS);
    int commute = -1;
    ASSERT_EQ(MPI_Op_commutative(op, &commute), MPI_SUCCESS);
    EXPECT_EQ(commute, 0);
    int in[2] = {1, 2};
    int inout[2] = {3, 4};
    user_call = {};
    ASSERT_EQ(lwmpi::op_check(op, MPI_INT), MPI_SUCCESS);
    ASSERT_EQ(lwmpi::op_apply(op, in, inout, 2, MPI_INT), MPI_SUCCESS);
    EXPECT_EQ(user_call.calls, 1);
    EXPECT_EQ(user_call.in, static_cast<void*>(in));
    EXPECT_EQ(user_call.inout, static_cast<void*>(inout));
    EXPECT_EQ(user_call.len, 2);
    EXPECT_EQ(user_call.type, MPI_INT);
    EXPECT_EQ(inout[0], 13);
    EXPECT_EQ(inout[1], 24);
    ASSERT_EQ(MPI_Op_free(&op), MPI_SUCCESS);
    EXPECT_EQ(op, MPI_OP_NULL);
}

TEST(UserOps, CommutativeFlagAndErrors) {
    MPI_Op op;
    ASSERT_EQ(MPI_Op_create(shift_add, 1, &op), MPI_SUCCESS);
    int commute = 0;
    ASSERT_EQ(MPI_Op_commutative(op, &commute), MPI_SUCCESS);
    EXPECT_EQ(commute, 1);
    ASSERT_EQ(MPI_Op_commutative(MPI_MAX, &commute), MPI_SUCCESS);
    EXPECT_EQ(commute, 1);
    const MPI_Op stale = op;
    ASSERT_EQ(MPI_Op_free(&op), MPI_SUCCESS);
    EXPECT_EQ(MPI_Op_free(&op), MPI_ERR_OP);
    EXPECT_EQ(lwmpi::op_check(stale, MPI_INT), MPI_ERR_OP);
    int a = 0, b = 0;
    EXPECT_EQ(lwmpi::op_apply(stale, &a, &b, 1, MPI_INT), MPI_ERR_OP);
    MPI_Op predefined = MPI_SUM;
    EXPECT_EQ(MPI_Op_free(&predefined), MPI_ERR_OP);
    EXPECT_STREQ(mpi_obj_test::last_error.call, "MPI_Op_free");
    EXPECT_EQ(MPI_Op_create(nullptr, 1, &op), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Op_create(shift_add, 1, nullptr), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Op_commutative(MPI_OP_NULL, &commute), MPI_ERR_OP);
    EXPECT_EQ(MPI_Op_commutative(MPI_SUM, nullptr), MPI_ERR_ARG);
}

}  // namespace

namespace {

TEST(UserOps, FinalizeFreesEveryUserOp) {
    MPI_Op a, b;
    ASSERT_EQ(MPI_Op_create(shift_add, 1, &a), MPI_SUCCESS);
    ASSERT_EQ(MPI_Op_create(shift_add, 0, &b), MPI_SUCCESS);
    lwmpi::op_finalize();  // leak-checked by the sanitizer
    EXPECT_EQ(lwmpi::op_check(a, MPI_INT), MPI_ERR_OP);
    EXPECT_EQ(lwmpi::op_check(b, MPI_INT), MPI_ERR_OP);
    EXPECT_EQ(lwmpi::op_check(MPI_SUM, MPI_INT), MPI_SUCCESS);
}

}  // namespace

namespace {

TEST(OpApply, MinlocOnAVectorOfPairsSkipsTheGaps) {
    MPI_Datatype every_other;
    ASSERT_EQ(MPI_Type_vector(2, 1, 2, MPI_DOUBLE_INT, &every_other), MPI_SUCCESS);
    ASSERT_EQ(MPI_Type_commit(&every_other), MPI_SUCCESS);
    EXPECT_EQ(lwmpi::op_check(MPI_MINLOC, every_other), MPI_SUCCESS);
    EXPECT_EQ(lwmpi::op_check(MPI_SUM, every_other), MPI_ERR_OP);
    P<double> in[3] = {{1, 5}, {-100, 0}, {2, 1}};
    P<double> inout[3] = {{1, 7}, {-200, 9}, {3, 2}};
    ASSERT_EQ(lwmpi::op_apply(MPI_MINLOC, in, inout, 1, every_other), MPI_SUCCESS);
    EXPECT_EQ(inout[0].index, 5);  // tie on 1: the smaller index
    EXPECT_EQ(inout[1].value, -200);  // in the gap: untouched
    EXPECT_EQ(inout[1].index, 9);
    EXPECT_EQ(inout[2].value, 2);
    EXPECT_EQ(inout[2].index, 1);
    MPI_Type_free(&every_other);
}

TEST(OpApply, LargeContiguousSumsInOneRun) {
    std::vector<double> in(100000, 0.5), inout(100000, 1.0);
    ASSERT_EQ(lwmpi::op_apply(MPI_SUM, in.data(), inout.data(), 100000, MPI_DOUBLE), MPI_SUCCESS);
    for (double v : inout) ASSERT_EQ(v, 1.5);
}

}  // namespace

namespace {

// Like apply, for the Fortran pair types: two values per element.
template <typename T>
std::vector<T> pairs(MPI_Op op, MPI_Datatype type, std::vector<T> in, std::vector<T> inout) {
    EXPECT_EQ(lwmpi::op_check(op, type), MPI_SUCCESS);
    EXPECT_EQ(lwmpi::op_apply(op, in.data(), inout.data(), static_cast<int>(in.size() / 2), type),
              MPI_SUCCESS);
    return inout;
}

TEST(OpApply, FortranNamedTypes) {
    using V = std::vector<int32_t>;
    EXPECT_EQ(apply<int32_t>(MPI_SUM, MPI_INTEGER, {1, -5}, {3, -6}), (V{4, -11}));
    EXPECT_EQ(apply<int32_t>(MPI_BAND, MPI_INTEGER4, {0xf0}, {0x3c}), (V{0x30}));
    EXPECT_EQ(apply<int32_t>(MPI_LOR, MPI_LOGICAL, {0, 1, 0}, {0, 0, 1}), (V{0, 1, 1}));
    using F = std::vector<float>;
    EXPECT_EQ(apply<float>(MPI_MAX, MPI_REAL, {1.5f}, {2.5f}), (F{2.5f}));
    using D = std::vector<double>;
    EXPECT_EQ(apply<double>(MPI_PROD, MPI_DOUBLE_PRECISION, {1.5}, {4}), (D{6}));
    // MPI_2REAL: (value, index) both REAL; ties take the smaller index.
    EXPECT_EQ(pairs<float>(MPI_MINLOC, MPI_2REAL, {1, 7, 2, 3}, {1, 4, 1, 9}), (F{1, 4, 1, 9}));
    EXPECT_EQ(pairs<float>(MPI_MAXLOC, MPI_2REAL, {1, 7, 2, 3}, {1, 4, 1, 9}), (F{1, 4, 2, 3}));
    EXPECT_EQ(pairs<int32_t>(MPI_MAXLOC, MPI_2INTEGER, {5, 2}, {5, 1}), (V{5, 1}));
    EXPECT_EQ(pairs<double>(MPI_MINLOC, MPI_2DOUBLE_PRECISION, {-1, 3}, {0, 1}), (D{-1, 3}));
}

}  // namespace
