// MPI_Pack_external, MPI_Unpack_external, MPI_Pack_external_size with "external32" (MPI 3.1
// section 13.5.2): big-endian bytes of each number, the standard's sizes, round trips through
// derived types, error classes. Also MPI_Type_match_size (17.1.9).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "tests/host/mpi_objects/mpi_obj_doubles.hpp"

namespace {

using Bytes = std::vector<unsigned char>;

Bytes pack(const void* data, int count, MPI_Datatype t) {
    MPI_Aint size = -1;
    EXPECT_EQ(MPI_Pack_external_size("external32", count, t, &size), MPI_SUCCESS);
    Bytes out(static_cast<size_t>(size));
    MPI_Aint position = 0;
    EXPECT_EQ(MPI_Pack_external("external32", data, count, t, out.data(), size, &position),
              MPI_SUCCESS);
    EXPECT_EQ(position, size);
    return out;
}

TEST(External32, IntegersAreBigEndian) {
    const int32_t i = 0x01020304;
    EXPECT_EQ(pack(&i, 1, MPI_INT), (Bytes{1, 2, 3, 4}));
    const int16_t s = -2;
    EXPECT_EQ(pack(&s, 1, MPI_SHORT), (Bytes{0xff, 0xfe}));
    const int64_t l = 0x0102030405060708;
    EXPECT_EQ(pack(&l, 1, MPI_LONG), (Bytes{1, 2, 3, 4, 5, 6, 7, 8}));
    const unsigned char b[3] = {9, 8, 7};
    EXPECT_EQ(pack(b, 3, MPI_BYTE), (Bytes{9, 8, 7}));
    const int32_t logical = 1;
    EXPECT_EQ(pack(&logical, 1, MPI_LOGICAL), (Bytes{0, 0, 0, 1}));
}

TEST(External32, FloatingPointIsIeeeBigEndian) {
    const float f = 1.0f;  // 0x3f800000
    EXPECT_EQ(pack(&f, 1, MPI_FLOAT), (Bytes{0x3f, 0x80, 0, 0}));
    const double d = -2.0;  // 0xc000000000000000
    EXPECT_EQ(pack(&d, 1, MPI_DOUBLE), (Bytes{0xc0, 0, 0, 0, 0, 0, 0, 0}));
    // long double is IEEE binary128: 1.5 = 0x3fff8000 0... (sign, 15-bit exponent, fraction).
    const long double q = 1.5L;
    Bytes expected(16, 0);
    expected[0] = 0x3f;
    expected[1] = 0xff;
    expected[2] = 0x80;
    EXPECT_EQ(pack(&q, 1, MPI_LONG_DOUBLE), expected);
    long double back = 0;
    MPI_Aint position = 0;
    ASSERT_EQ(MPI_Unpack_external("external32", expected.data(), 16, &position, &back, 1,
                                  MPI_LONG_DOUBLE), MPI_SUCCESS);
    EXPECT_EQ(back, 1.5L);
    // A complex is two numbers, each big-endian.
    const float z[2] = {1.0f, -2.0f};
    EXPECT_EQ(pack(z, 1, MPI_C_FLOAT_COMPLEX), (Bytes{0x3f, 0x80, 0, 0, 0xc0, 0, 0, 0}));
}

TEST(External32, PairTypesPackTheirPartsWithoutPadding) {
    struct {
        double value;
        int index;
    } pair = {1.0, 0x0a0b0c0d};
    EXPECT_EQ(pack(&pair, 1, MPI_DOUBLE_INT),
              (Bytes{0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 0x0a, 0x0b, 0x0c, 0x0d}));
}

TEST(External32, SizesOfTheStandard) {
    const struct {
        MPI_Datatype type;
        MPI_Aint size;
    } sizes[] = {{MPI_CHAR, 1}, {MPI_WCHAR, 4}, {MPI_SHORT, 2}, {MPI_INT, 4}, {MPI_LONG, 8},
                 {MPI_LONG_LONG, 8}, {MPI_FLOAT, 4}, {MPI_DOUBLE, 8}, {MPI_LONG_DOUBLE, 16},
                 {MPI_C_BOOL, 1}, {MPI_AINT, 8}, {MPI_OFFSET, 8}, {MPI_COUNT, 8},
                 {MPI_C_DOUBLE_COMPLEX, 16}, {MPI_C_LONG_DOUBLE_COMPLEX, 32},
                 {MPI_CHARACTER, 1}, {MPI_INTEGER, 4}, {MPI_REAL, 4}, {MPI_LOGICAL, 4},
                 {MPI_DOUBLE_PRECISION, 8}, {MPI_COMPLEX, 8}, {MPI_DOUBLE_COMPLEX, 16},
                 {MPI_2INT, 8}, {MPI_SHORT_INT, 6}, {MPI_LONG_DOUBLE_INT, 20}};
    for (const auto& s : sizes) {
        MPI_Aint size = -1;
        ASSERT_EQ(MPI_Pack_external_size("external32", 3, s.type, &size), MPI_SUCCESS);
        EXPECT_EQ(size, 3 * s.size) << LWMPI_HANDLE_INDEX(s.type);
    }
}

TEST(External32, DerivedTypesRoundTripAndPositionsAdvance) {
    MPI_Datatype column;
    ASSERT_EQ(MPI_Type_vector(3, 1, 2, MPI_INT, &column), MPI_SUCCESS);
    ASSERT_EQ(MPI_Type_commit(&column), MPI_SUCCESS);
    const int data[6] = {0x100, -1, 0x200, -1, 0x300, -1};
    unsigned char buffer[20];
    MPI_Aint position = 2;
    ASSERT_EQ(MPI_Pack_external("external32", data, 1, column, buffer, sizeof(buffer), &position),
              MPI_SUCCESS);
    EXPECT_EQ(position, 14);
    EXPECT_EQ(Bytes(buffer + 2, buffer + 14), (Bytes{0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0}));
    int back[6] = {7, 7, 7, 7, 7, 7};
    MPI_Aint in = 2;
    ASSERT_EQ(MPI_Unpack_external("external32", buffer, 14, &in, back, 1, column), MPI_SUCCESS);
    EXPECT_EQ(in, 14);
    EXPECT_EQ(back[0], 0x100);
    EXPECT_EQ(back[1], 7);
    EXPECT_EQ(back[4], 0x300);
    MPI_Type_free(&column);
}

TEST(External32, ErrorClasses) {
    const int i = 5;
    unsigned char buffer[8];
    MPI_Aint position = 0, size = 0;
    EXPECT_EQ(MPI_Pack_external("native", &i, 1, MPI_INT, buffer, 8, &position), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Pack_external(nullptr, &i, 1, MPI_INT, buffer, 8, &position), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Pack_external_size("internal", 1, MPI_INT, &size), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Pack_external("external32", &i, -1, MPI_INT, buffer, 8, &position), MPI_ERR_COUNT);
    EXPECT_EQ(MPI_Pack_external("external32", &i, 1, MPI_DATATYPE_NULL, buffer, 8, &position),
              MPI_ERR_TYPE);
    position = 6;
    EXPECT_EQ(MPI_Pack_external("external32", &i, 1, MPI_INT, buffer, 8, &position), MPI_ERR_TRUNCATE);
    EXPECT_EQ(position, 6);
    position = 0;
    EXPECT_EQ(MPI_Pack_external("external32", &i, 1, MPI_INT, buffer, 8, nullptr), MPI_ERR_ARG);
    int out = 0;
    EXPECT_EQ(MPI_Unpack_external("external32", buffer, 2, &position, &out, 1, MPI_INT),
              MPI_ERR_TRUNCATE);
    EXPECT_STREQ(mpi_obj_test::last_error.call, "MPI_Unpack_external");
    MPI_Datatype uncommitted;
    ASSERT_EQ(MPI_Type_contiguous(2, MPI_INT, &uncommitted), MPI_SUCCESS);
    EXPECT_EQ(MPI_Pack_external_size("external32", 1, uncommitted, &size), MPI_ERR_TYPE);
    MPI_Type_free(&uncommitted);
}

TEST(TypeMatchSize, SizedFortranTypesOfEachClass) {
    MPI_Datatype t = MPI_DATATYPE_NULL;
    ASSERT_EQ(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 4, &t), MPI_SUCCESS);
    EXPECT_EQ(t, MPI_INTEGER4);
    ASSERT_EQ(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 8, &t), MPI_SUCCESS);
    EXPECT_EQ(t, MPI_INTEGER8);
    ASSERT_EQ(MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &t), MPI_SUCCESS);
    EXPECT_EQ(t, MPI_REAL8);
    ASSERT_EQ(MPI_Type_match_size(MPI_TYPECLASS_REAL, 16, &t), MPI_SUCCESS);
    EXPECT_EQ(t, MPI_REAL16);
    ASSERT_EQ(MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 16, &t), MPI_SUCCESS);
    EXPECT_EQ(t, MPI_COMPLEX16);
    EXPECT_EQ(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 3, &t), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Type_match_size(MPI_TYPECLASS_REAL, 2, &t), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Type_match_size(0, 4, &t), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Type_match_size(MPI_TYPECLASS_REAL, 4, nullptr), MPI_ERR_ARG);
}

}  // namespace
