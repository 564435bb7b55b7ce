// Datatype engine: predefined types, constructors, extents, type maps, contiguity, lifetime,
// names, element counts and error classes (MPI 3.1 chapter 4).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstddef>
#include <cstring>
#include <vector>

#include "libmpi/datatype.hpp"
#include "tests/host/mpi_objects/mpi_obj_doubles.hpp"

namespace {

struct Named {
    MPI_Datatype type;
    const char* name;
    MPI_Aint size;
    MPI_Aint extent;
};

template <typename V>
struct CPair {
    V value;
    int index;
};

const Named kPredefined[] = {
    {MPI_CHAR, "MPI_CHAR", 1, 1},
    {MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR", 1, 1},
    {MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR", 1, 1},
    {MPI_BYTE, "MPI_BYTE", 1, 1},
    {MPI_WCHAR, "MPI_WCHAR", sizeof(wchar_t), sizeof(wchar_t)},
    {MPI_SHORT, "MPI_SHORT", sizeof(short), sizeof(short)},
    {MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT", sizeof(short), sizeof(short)},
    {MPI_INT, "MPI_INT", sizeof(int), sizeof(int)},
    {MPI_UNSIGNED, "MPI_UNSIGNED", sizeof(int), sizeof(int)},
    {MPI_LONG, "MPI_LONG", sizeof(long), sizeof(long)},
    {MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG", sizeof(long), sizeof(long)},
    {MPI_LONG_LONG_INT, "MPI_LONG_LONG_INT", sizeof(long long), sizeof(long long)},
    {MPI_LONG_LONG, "MPI_LONG_LONG_INT", sizeof(long long), sizeof(long long)},
    {MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG", sizeof(long long), sizeof(long long)},
    {MPI_FLOAT, "MPI_FLOAT", sizeof(float), sizeof(float)},
    {MPI_DOUBLE, "MPI_DOUBLE", sizeof(double), sizeof(double)},
    {MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE", sizeof(long double), sizeof(long double)},
    {MPI_C_BOOL, "MPI_C_BOOL", sizeof(bool), sizeof(bool)},
    {MPI_INT8_T, "MPI_INT8_T", 1, 1},
    {MPI_INT16_T, "MPI_INT16_T", 2, 2},
    {MPI_INT32_T, "MPI_INT32_T", 4, 4},
    {MPI_INT64_T, "MPI_INT64_T", 8, 8},
    {MPI_UINT8_T, "MPI_UINT8_T", 1, 1},
    {MPI_UINT16_T, "MPI_UINT16_T", 2, 2},
    {MPI_UINT32_T, "MPI_UINT32_T", 4, 4},
    {MPI_UINT64_T, "MPI_UINT64_T", 8, 8},
    {MPI_AINT, "MPI_AINT", 8, 8},
    {MPI_OFFSET, "MPI_OFFSET", 8, 8},
    {MPI_COUNT, "MPI_COUNT", 8, 8},
    {MPI_C_COMPLEX, "MPI_C_COMPLEX", 2 * sizeof(float), 2 * sizeof(float)},
    {MPI_C_FLOAT_COMPLEX, "MPI_C_FLOAT_COMPLEX", 2 * sizeof(float), 2 * sizeof(float)},
    {MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX", 2 * sizeof(double), 2 * sizeof(double)},
    {MPI_C_LONG_DOUBLE_COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX", 2 * sizeof(long double),
     2 * sizeof(long double)},
    {MPI_PACKED, "MPI_PACKED", 1, 1},
    {MPI_FLOAT_INT, "MPI_FLOAT_INT", sizeof(float) + sizeof(int), sizeof(CPair<float>)},
    {MPI_DOUBLE_INT, "MPI_DOUBLE_INT", sizeof(double) + sizeof(int), sizeof(CPair<double>)},
    {MPI_LONG_INT, "MPI_LONG_INT", sizeof(long) + sizeof(int), sizeof(CPair<long>)},
    {MPI_2INT, "MPI_2INT", 2 * sizeof(int), sizeof(CPair<int>)},
    {MPI_SHORT_INT, "MPI_SHORT_INT", sizeof(short) + sizeof(int), sizeof(CPair<short>)},
    {MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT", sizeof(long double) + sizeof(int),
     sizeof(CPair<long double>)},
    {MPI_CXX_BOOL, "MPI_CXX_BOOL", sizeof(bool), sizeof(bool)},
    {MPI_CXX_FLOAT_COMPLEX, "MPI_CXX_FLOAT_COMPLEX", 2 * sizeof(float), 2 * sizeof(float)},
    {MPI_CXX_DOUBLE_COMPLEX, "MPI_CXX_DOUBLE_COMPLEX", 2 * sizeof(double), 2 * sizeof(double)},
    {MPI_CXX_LONG_DOUBLE_COMPLEX, "MPI_CXX_LONG_DOUBLE_COMPLEX", 2 * sizeof(long double),
     2 * sizeof(long double)},
    // The Fortran names with the usual Fortran ABI (INTEGER, REAL, LOGICAL 4 bytes).
    {MPI_CHARACTER, "MPI_CHARACTER", 1, 1},
    {MPI_INTEGER, "MPI_INTEGER", 4, 4},
    {MPI_REAL, "MPI_REAL", 4, 4},
    {MPI_DOUBLE_PRECISION, "MPI_DOUBLE_PRECISION", 8, 8},
    {MPI_COMPLEX, "MPI_COMPLEX", 8, 8},
    {MPI_DOUBLE_COMPLEX, "MPI_DOUBLE_COMPLEX", 16, 16},
    {MPI_LOGICAL, "MPI_LOGICAL", 4, 4},
    {MPI_INTEGER1, "MPI_INTEGER1", 1, 1},
    {MPI_INTEGER2, "MPI_INTEGER2", 2, 2},
    {MPI_INTEGER4, "MPI_INTEGER4", 4, 4},
    {MPI_INTEGER8, "MPI_INTEGER8", 8, 8},
    {MPI_REAL4, "MPI_REAL4", 4, 4},
    {MPI_REAL8, "MPI_REAL8", 8, 8},
    {MPI_REAL16, "MPI_REAL16", 16, 16},
    {MPI_COMPLEX8, "MPI_COMPLEX8", 8, 8},
    {MPI_COMPLEX16, "MPI_COMPLEX16", 16, 16},
    {MPI_COMPLEX32, "MPI_COMPLEX32", 32, 32},
    {MPI_2INTEGER, "MPI_2INTEGER", 8, 8},
    {MPI_2REAL, "MPI_2REAL", 8, 8},
    {MPI_2DOUBLE_PRECISION, "MPI_2DOUBLE_PRECISION", 16, 16},
};

MPI_Aint size_of(MPI_Datatype t) {
    MPI_Count size = -1;
    EXPECT_EQ(MPI_Type_size_x(t, &size), MPI_SUCCESS);
    return size;
}

MPI_Aint extent_of(MPI_Datatype t, MPI_Aint* lb = nullptr) {
    MPI_Aint l = -1, e = -1;
    EXPECT_EQ(MPI_Type_get_extent(t, &l, &e), MPI_SUCCESS);
    if (lb != nullptr) *lb = l;
    return e;
}

// Packs `count` elements through MPI_Pack and returns the ints it produced.
std::vector<int> pack_ints(const void* buf, int count, MPI_Datatype t) {
    int bytes = 0;
    EXPECT_EQ(MPI_Pack_size(count, t, MPI_COMM_WORLD, &bytes), MPI_SUCCESS);
    std::vector<int> out(static_cast<size_t>(bytes) / sizeof(int) + 1, -7);
    int position = 0;
    EXPECT_EQ(MPI_Pack(buf, count, t, out.data(), bytes, &position, MPI_COMM_WORLD), MPI_SUCCESS);
    EXPECT_EQ(position, bytes);
    out.resize(static_cast<size_t>(bytes) / sizeof(int));
    return out;
}

std::vector<int> iota(int n, int first = 0) {
    std::vector<int> v(static_cast<size_t>(n));
    for (int i = 0; i < n; i++) v[static_cast<size_t>(i)] = first + i;
    return v;
}

MPI_Datatype committed(MPI_Datatype t) {
    EXPECT_EQ(MPI_Type_commit(&t), MPI_SUCCESS);
    return t;
}

TEST(Predefined, EveryTypeHasItsStandardNameSizeAndExtent) {
    for (const Named& p : kPredefined) {
        char name[MPI_MAX_OBJECT_NAME];
        int length = -1;
        ASSERT_EQ(MPI_Type_get_name(p.type, name, &length), MPI_SUCCESS) << p.name;
        EXPECT_STREQ(name, p.name);
        EXPECT_EQ(length, static_cast<int>(strlen(p.name)));
        EXPECT_EQ(size_of(p.type), p.size) << p.name;
        MPI_Aint lb = -1;
        EXPECT_EQ(extent_of(p.type, &lb), p.extent) << p.name;
        EXPECT_EQ(lb, 0) << p.name;
        EXPECT_EQ(lwmpi::type_check(p.type, true), MPI_SUCCESS) << p.name;
    }
}

TEST(Predefined, HandlesAreDistinctAndOfTheirKind) {
    const size_t n = sizeof(kPredefined) / sizeof(kPredefined[0]);
    for (size_t i = 0; i < n; i++) {
        EXPECT_EQ(LWMPI_HANDLE_KIND(kPredefined[i].type), LWMPI_KIND_DATATYPE);
        for (size_t j = i + 1; j < n; j++) {
            // Only synonyms (MPI_LONG_LONG) share a handle, and so a name.
            const bool same_name = strcmp(kPredefined[i].name, kPredefined[j].name) == 0;
            EXPECT_EQ(kPredefined[i].type == kPredefined[j].type, same_name)
                << kPredefined[i].name << " " << kPredefined[j].name;
        }
    }
    const int nulls[] = {MPI_COMM_NULL, MPI_GROUP_NULL, MPI_DATATYPE_NULL, MPI_OP_NULL,
                         MPI_ERRHANDLER_NULL, MPI_REQUEST_NULL, MPI_INFO_NULL};
    for (size_t i = 0; i < 7; i++) {
        for (size_t j = i + 1; j < 7; j++) EXPECT_NE(nulls[i], nulls[j]);
    }
    EXPECT_NE(MPI_COMM_WORLD, MPI_COMM_SELF);
}

TEST(Predefined, PairTypesPackValueThenIndexWithoutPadding) {
    CPair<short> pairs[2] = {{-3, 7}, {5, 9}};
    char packed[12];
    EXPECT_EQ(lwmpi::pack_bytes(MPI_SHORT_INT, pairs, 2, packed), 12u);
    short s;
    int i;
    memcpy(&s, packed, 2);
    memcpy(&i, packed + 2, 4);
    EXPECT_EQ(s, -3);
    EXPECT_EQ(i, 7);
    memcpy(&s, packed + 6, 2);
    memcpy(&i, packed + 8, 4);
    EXPECT_EQ(s, 5);
    EXPECT_EQ(i, 9);
    CPair<short> back[2] = {};
    EXPECT_EQ(lwmpi::unpack_bytes(MPI_SHORT_INT, packed, 12, back, 2), 12u);
    EXPECT_EQ(back[1].value, 5);
    EXPECT_EQ(back[1].index, 9);
    EXPECT_FALSE(lwmpi::type_is_contiguous(MPI_SHORT_INT));
    EXPECT_FALSE(lwmpi::type_is_contiguous(MPI_DOUBLE_INT));  // 12 bytes of data, extent 16
    EXPECT_TRUE(lwmpi::type_is_contiguous(MPI_2INT));
}

TEST(Constructors, ContiguousIsOneDenseBlock) {
    MPI_Datatype t;
    ASSERT_EQ(MPI_Type_contiguous(5, MPI_INT, &t), MPI_SUCCESS);
    EXPECT_EQ(size_of(t), 20);
    EXPECT_EQ(extent_of(t), 20);
    EXPECT_TRUE(lwmpi::type_is_contiguous(t));
    std::vector<int> data = iota(10);
    t = committed(t);
    EXPECT_EQ(pack_ints(data.data(), 2, t), data);
    MPI_Type_free(&t);
    EXPECT_EQ(t, MPI_DATATYPE_NULL);
}

TEST(Constructors, VectorGathersStridedBlocksAndUnpackLeavesGapsAlone) {
    MPI_Datatype t;
    ASSERT_EQ(MPI_Type_vector(3, 2, 4, MPI_INT, &t), MPI_SUCCESS);
    t = committed(t);
    EXPECT_EQ(size_of(t), 24);
    EXPECT_EQ(extent_of(t), (2 * 4 + 2) * 4);  // ends after the last block
    EXPECT_FALSE(lwmpi::type_is_contiguous(t));
    std::vector<int> data = iota(40);
    EXPECT_EQ(pack_ints(data.data(), 1, t), (std::vector<int>{0, 1, 4, 5, 8, 9}));
    // Two elements: the second starts one extent (10 ints) later.
    EXPECT_EQ(pack_ints(data.data(), 2, t),
              (std::vector<int>{0, 1, 4, 5, 8, 9, 10, 11, 14, 15, 18, 19}));
    std::vector<int> out(20, -1);
    const std::vector<int> packed = iota(6, 100);
    EXPECT_EQ(lwmpi::unpack_bytes(t, packed.data(), 24, out.data(), 1), 24u);
    EXPECT_EQ(out, (std::vector<int>{100, 101, -1, -1, 102, 103, -1, -1, 104, 105, -1, -1, -1, -1,
                                     -1, -1, -1, -1, -1, -1}));
    MPI_Type_free(&t);
}

TEST(Constructors, VectorWithStrideEqualToBlockIsContiguous) {
    MPI_Datatype t;
    ASSERT_EQ(MPI_Type_vector(4, 3, 3, MPI_DOUBLE, &t), MPI_SUCCESS);
    EXPECT_TRUE(lwmpi::type_is_contiguous(t));
    MPI_Type_free(&t);
}

TEST(Constructors, NegativeStrideVectorHasNegativeLowerBound) {
    MPI_Datatype t;
    ASSERT_EQ(MPI_Type_vector(3, 1, -2, MPI_INT, &t), MPI_SUCCESS);
    t = committed(t);
    MPI_Aint lb = 0;
    EXPECT_EQ(extent_of(t, &lb), 5 * 4);
    EXPECT_EQ(lb, -4 * 4);
    std::vector<int> data = iota(10);
    EXPECT_EQ(pack_ints(data.data() + 6, 1, t), (std::vector<int>{6, 4, 2}));
    MPI_Type_free(&t);
}

TEST(Constructors, HvectorStrideIsInBytes) {
    MPI_Datatype t;
    ASSERT_EQ(MPI_Type_create_hvector(3, 1, 12, MPI_INT, &t), MPI_SUCCESS);
    t = committed(t);
    EXPECT_EQ(extent_of(t), 28);
    std::vector<int> data = iota(12);
    EXPECT_EQ(pack_ints(data.data(), 1, t), (std::vector<int>{0, 3, 6}));
    MPI_Type_free(&t);
}

TEST(Constructors, IndexedPacksInTypeMapOrderNotMemoryOrder) {
    const int lengths[] = {2, 1, 3};
    const int disps[] = {6, 0, 2};
    MPI_Datatype t;
    ASSERT_EQ(MPI_Type_indexed(3, lengths, disps, MPI_INT, &t), MPI_SUCCESS);
    t = committed(t);
    EXPECT_EQ(size_of(t), 24);
    MPI_Aint lb = -1;
    EXPECT_EQ(extent_of(t, &lb), 32);
    EXPECT_EQ(lb, 0);
    std::vector<int> data = iota(16);
    EXPECT_EQ(pack_ints(data.data(), 1, t), (std::vector<int>{6, 7, 0, 2, 3, 4}));
    EXPECT_FALSE(lwmpi::type_is_contiguous(t));
    MPI_Type_free(&t);
}

TEST(Constructors, AdjacentIndexedBlocksMergeIntoAContiguousType) {
    const int lengths[] = {2, 3, 0, 1};
    const int disps[] = {0, 2, 9, 5};
    MPI_Datatype t;
    ASSERT_EQ(MPI_Type_indexed(4, lengths, disps, MPI_INT, &t), MPI_SUCCESS);
    EXPECT_TRUE(lwmpi::type_is_contiguous(t));
    EXPECT_EQ(extent_of(t), 24);  // the empty block at 9 adds nothing to the bounds
    MPI_Type_free(&t);
}

TEST(Constructors, IndexedBlockAndHindexedVariants) {
    const int disps[] = {5, 1};
    const MPI_Aint byte_disps[] = {20, 4};
    const int lengths[] = {1, 2};
    MPI_Datatype block, hblock, hindexed;
    ASSERT_EQ(MPI_Type_create_indexed_block(2, 2, disps, MPI_INT, &block), MPI_SUCCESS);
    ASSERT_EQ(MPI_Type_create_hindexed_block(2, 2, byte_disps, MPI_INT, &hblock), MPI_SUCCESS);
    ASSERT_EQ(MPI_Type_create_hindexed(2, lengths, byte_disps, MPI_INT, &hindexed), MPI_SUCCESS);
    block = committed(block);
    hblock = committed(hblock);
    hindexed = committed(hindexed);
    std::vector<int> data = iota(10);
    EXPECT_EQ(pack_ints(data.data(), 1, block), (std::vector<int>{5, 6, 1, 2}));
    EXPECT_EQ(pack_ints(data.data(), 1, hblock), (std::vector<int>{5, 6, 1, 2}));
    EXPECT_EQ(pack_ints(data.data(), 1, hindexed), (std::vector<int>{5, 1, 2}));
    MPI_Aint lb = -1;
    EXPECT_EQ(extent_of(block, &lb), 24);
    EXPECT_EQ(lb, 4);
    MPI_Type_free(&block);
    MPI_Type_free(&hblock);
    MPI_Type_free(&hindexed);
}

struct Record {
    char tag;
    double value;
    int count;
};

MPI_Datatype record_type() {
    const int lengths[] = {1, 1, 1};
    const MPI_Aint disps[] = {offsetof(Record, tag), offsetof(Record, value), offsetof(Record, count)};
    const MPI_Datatype types[] = {MPI_CHAR, MPI_DOUBLE, MPI_INT};
    MPI_Datatype t;
    EXPECT_EQ(MPI_Type_create_struct(3, lengths, disps, types, &t), MPI_SUCCESS);
    return committed(t);
}

TEST(Constructors, StructExtentIsPaddedLikeTheCStruct) {
    MPI_Datatype t = record_type();
    EXPECT_EQ(size_of(t), 1 + 8 + 4);
    EXPECT_EQ(extent_of(t), static_cast<MPI_Aint>(sizeof(Record)));
    MPI_Aint true_lb = -1, true_extent = -1;
    ASSERT_EQ(MPI_Type_get_true_extent(t, &true_lb, &true_extent), MPI_SUCCESS);
    EXPECT_EQ(true_lb, 0);
    EXPECT_EQ(true_extent, static_cast<MPI_Aint>(offsetof(Record, count) + sizeof(int)));
    Record in[3] = {{'a', 1.5, 10}, {'b', -2.25, 20}, {'c', 1e300, 30}};
    char packed[39];
    EXPECT_EQ(lwmpi::pack_bytes(t, in, 3, packed), 39u);
    Record out[3];
    memset(out, 0x5a, sizeof(out));
    EXPECT_EQ(lwmpi::unpack_bytes(t, packed, 39, out, 3), 39u);
    for (int i = 0; i < 3; i++) {
        EXPECT_EQ(out[i].tag, in[i].tag);
        EXPECT_EQ(out[i].value, in[i].value);
        EXPECT_EQ(out[i].count, in[i].count);
    }
    // Padding bytes of the struct are not part of the type map: they stay untouched.
    EXPECT_EQ(reinterpret_cast<unsigned char*>(&out[0])[1], 0x5a);
    MPI_Type_free(&t);
}

TEST(Constructors, StructInReverseMemoryOrderIsNotContiguous) {
    const int lengths[] = {1, 1};
    const MPI_Aint forward[] = {0, 4};
    const MPI_Aint backward[] = {4, 0};
    const MPI_Datatype types[] = {MPI_INT, MPI_INT};
    MPI_Datatype a, b;
    ASSERT_EQ(MPI_Type_create_struct(2, lengths, forward, types, &a), MPI_SUCCESS);
    ASSERT_EQ(MPI_Type_create_struct(2, lengths, backward, types, &b), MPI_SUCCESS);
    EXPECT_TRUE(lwmpi::type_is_contiguous(a));
    EXPECT_FALSE(lwmpi::type_is_contiguous(b));
    b = committed(b);
    const int data[2] = {1, 2};
    EXPECT_EQ(pack_ints(data, 1, b), (std::vector<int>{2, 1}));
    MPI_Type_free(&a);
    MPI_Type_free(&b);
}

TEST(Constructors, ResizedSetsLowerBoundAndExtent) {
    MPI_Datatype t;
    ASSERT_EQ(MPI_Type_create_resized(MPI_INT, -4, 12, &t), MPI_SUCCESS);
    t = committed(t);
    MPI_Aint lb = 0;
    EXPECT_EQ(extent_of(t, &lb), 12);
    EXPECT_EQ(lb, -4);
    MPI_Aint true_lb = -1, true_extent = -1;
    MPI_Type_get_true_extent(t, &true_lb, &true_extent);
    EXPECT_EQ(true_lb, 0);
    EXPECT_EQ(true_extent, 4);
    EXPECT_FALSE(lwmpi::type_is_contiguous(t));
    std::vector<int> data = iota(9);
    EXPECT_EQ(pack_ints(data.data(), 3, t), (std::vector<int>{0, 3, 6}));
    // A struct built from a resized type keeps its bounds: no alignment padding.
    const int lengths[] = {1};
    const MPI_Aint disps[] = {0};
    MPI_Datatype s;
    ASSERT_EQ(MPI_Type_create_struct(1, lengths, disps, &t, &s), MPI_SUCCESS);
    EXPECT_EQ(extent_of(s, &lb), 12);
    EXPECT_EQ(lb, -4);
    MPI_Type_free(&s);
    MPI_Type_free(&t);
}

TEST(Constructors, ResizedToItsSizeMakesAStridedColumnTileRows) {
    // The classic matrix column: one double per row of 4, resized to one double.
    MPI_Datatype column, tile;
    ASSERT_EQ(MPI_Type_vector(3, 1, 4, MPI_DOUBLE, &column), MPI_SUCCESS);
    ASSERT_EQ(MPI_Type_create_resized(column, 0, sizeof(double), &tile), MPI_SUCCESS);
    MPI_Type_free(&column);  // the resized type keeps it alive
    tile = committed(tile);
    double m[12];
    for (int i = 0; i < 12; i++) m[i] = i;
    double packed[6];
    EXPECT_EQ(lwmpi::pack_bytes(tile, m, 2, packed), 48u);
    const double expected[6] = {0, 4, 8, 1, 5, 9};
    for (int i = 0; i < 6; i++) EXPECT_EQ(packed[i], expected[i]);
    MPI_Type_free(&tile);
}

TEST(Constructors, NestedTypesRoundTrip) {
    // contiguous(2) of vector(2 blocks of 1, stride 3) of struct {int, int at +8}.
    const int lengths[] = {1, 1};
    const MPI_Aint disps[] = {0, 8};
    const MPI_Datatype types[] = {MPI_INT, MPI_INT};
    MPI_Datatype s, v, c;
    ASSERT_EQ(MPI_Type_create_struct(2, lengths, disps, types, &s), MPI_SUCCESS);
    EXPECT_EQ(extent_of(s), 12);
    ASSERT_EQ(MPI_Type_vector(2, 1, 3, s, &v), MPI_SUCCESS);
    EXPECT_EQ(extent_of(v), 4 * 12);
    ASSERT_EQ(MPI_Type_contiguous(2, v, &c), MPI_SUCCESS);
    c = committed(c);
    EXPECT_EQ(size_of(c), 2 * 2 * 8);
    std::vector<int> data = iota(24);
    // Struct at int offset o covers ints o and o+2; vector elements at 0 and 9; the second
    // vector at 12.
    EXPECT_EQ(pack_ints(data.data(), 1, c),
              (std::vector<int>{0, 2, 9, 11, 12, 14, 21, 23}));
    std::vector<int> out(24, -1);
    const std::vector<int> packed = pack_ints(data.data(), 1, c);
    int position = 0;
    ASSERT_EQ(MPI_Unpack(packed.data(), 32, &position, out.data(), 1, c, MPI_COMM_WORLD),
              MPI_SUCCESS);
    EXPECT_EQ(position, 32);
    for (int i = 0; i < 24; i++) {
        const bool in_map = i == 0 || i == 2 || i == 9 || i == 11 || i == 12 || i == 14 ||
                            i == 21 || i == 23;
        EXPECT_EQ(out[static_cast<size_t>(i)], in_map ? i : -1) << i;
    }
    MPI_Type_free(&s);
    MPI_Type_free(&v);
    MPI_Type_free(&c);
}

TEST(Constructors, BigVectorIsCompactAndPacksEveryOtherValue) {
    const int n = 200000;
    MPI_Datatype t;
    ASSERT_EQ(MPI_Type_vector(n, 1, 2, MPI_INT, &t), MPI_SUCCESS);
    t = committed(t);
    std::vector<int> data = iota(2 * n);
    std::vector<int> packed(static_cast<size_t>(n));
    EXPECT_EQ(lwmpi::pack_bytes(t, data.data(), 1, packed.data()), static_cast<size_t>(4 * n));
    for (int i = 0; i < n; i++) ASSERT_EQ(packed[static_cast<size_t>(i)], 2 * i);
    MPI_Type_free(&t);
}

TEST(Constructors, ZeroCountTypesAreEmpty) {
    MPI_Datatype t;
    ASSERT_EQ(MPI_Type_contiguous(0, MPI_INT, &t), MPI_SUCCESS);
    EXPECT_EQ(size_of(t), 0);
    EXPECT_EQ(extent_of(t), 0);
    MPI_Count elements = -1;
    EXPECT_EQ(lwmpi::type_elements(t, 0, &elements), MPI_SUCCESS);
    EXPECT_EQ(elements, 0);
    MPI_Type_free(&t);
}

TEST(Constructors, StructWithAbsoluteAddressesPacksFromMpiBottom) {
    int a = 11;
    double b = 2.5;
    MPI_Aint addresses[2];
    ASSERT_EQ(MPI_Get_address(&a, &addresses[0]), MPI_SUCCESS);
    ASSERT_EQ(MPI_Get_address(&b, &addresses[1]), MPI_SUCCESS);
    EXPECT_EQ(MPI_Aint_diff(addresses[1], addresses[0]),
              reinterpret_cast<char*>(&b) - reinterpret_cast<char*>(&a));
    EXPECT_EQ(MPI_Aint_add(addresses[0], 8), addresses[0] + 8);
    const int lengths[] = {1, 1};
    const MPI_Datatype types[] = {MPI_INT, MPI_DOUBLE};
    MPI_Datatype t;
    ASSERT_EQ(MPI_Type_create_struct(2, lengths, addresses, types, &t), MPI_SUCCESS);
    t = committed(t);
    char packed[12];
    EXPECT_EQ(lwmpi::pack_bytes(t, MPI_BOTTOM, 1, packed), 12u);
    int a2;
    double b2;
    memcpy(&a2, packed, 4);
    memcpy(&b2, packed + 4, 8);
    EXPECT_EQ(a2, 11);
    EXPECT_EQ(b2, 2.5);
    MPI_Type_free(&t);
}

TEST(Constructors, BadArgumentsGetTheirErrorClasses) {
    MPI_Datatype t = MPI_DATATYPE_NULL;
    const int lengths[] = {1, -1};
    const int disps[] = {0, 1};
    EXPECT_EQ(MPI_Type_contiguous(-1, MPI_INT, &t), MPI_ERR_COUNT);
    EXPECT_EQ(mpi_obj_test::last_error.code, MPI_ERR_COUNT);
    EXPECT_STREQ(mpi_obj_test::last_error.call, "MPI_Type_contiguous");
    EXPECT_EQ(mpi_obj_test::last_error.comm, MPI_COMM_WORLD);
    EXPECT_EQ(MPI_Type_contiguous(2, MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE);
    EXPECT_EQ(MPI_Type_contiguous(2, MPI_COMM_WORLD, &t), MPI_ERR_TYPE);
    EXPECT_EQ(MPI_Type_contiguous(2, MPI_INT, nullptr), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Type_vector(2, -1, 1, MPI_INT, &t), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Type_indexed(2, lengths, disps, MPI_INT, &t), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Type_indexed(2, nullptr, disps, MPI_INT, &t), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Type_create_indexed_block(-2, 1, disps, MPI_INT, &t), MPI_ERR_COUNT);
    const MPI_Aint sdisps[] = {0, 8};
    const MPI_Datatype types[] = {MPI_INT, MPI_DATATYPE_NULL};
    const int slengths[] = {1, 1};
    EXPECT_EQ(MPI_Type_create_struct(2, slengths, sdisps, types, &t), MPI_ERR_TYPE);
    EXPECT_EQ(MPI_Type_create_resized(MPI_DATATYPE_NULL, 0, 4, &t), MPI_ERR_TYPE);
    EXPECT_EQ(t, MPI_DATATYPE_NULL);  // nothing was created
}

TEST(Lifetime, FreeingAnInnerTypeKeepsTheOuterTypeWorking) {
    MPI_Datatype inner, outer;
    ASSERT_EQ(MPI_Type_vector(2, 1, 2, MPI_INT, &inner), MPI_SUCCESS);
    ASSERT_EQ(MPI_Type_contiguous(2, inner, &outer), MPI_SUCCESS);
    ASSERT_EQ(MPI_Type_free(&inner), MPI_SUCCESS);
    EXPECT_EQ(inner, MPI_DATATYPE_NULL);
    outer = committed(outer);
    std::vector<int> data = iota(8);
    EXPECT_EQ(pack_ints(data.data(), 1, outer), (std::vector<int>{0, 2, 3, 5}));
    EXPECT_EQ(MPI_Type_free(&outer), MPI_SUCCESS);
}

TEST(Lifetime, FreedHandlesAndPredefinedTypesCannotBeFreed) {
    MPI_Datatype t;
    ASSERT_EQ(MPI_Type_contiguous(2, MPI_INT, &t), MPI_SUCCESS);
    MPI_Datatype copy = t;
    ASSERT_EQ(MPI_Type_free(&t), MPI_SUCCESS);
    EXPECT_EQ(MPI_Type_free(&copy), MPI_ERR_TYPE);
    int size = 0;
    EXPECT_EQ(MPI_Type_size(copy, &size), MPI_ERR_TYPE);
    MPI_Datatype predefined = MPI_INT;
    EXPECT_EQ(MPI_Type_free(&predefined), MPI_ERR_TYPE);
    EXPECT_EQ(predefined, MPI_INT);
    EXPECT_EQ(MPI_Type_free(nullptr), MPI_ERR_ARG);
}

TEST(Lifetime, ARetainedTypeOutlivesTheProgramsFree) {
    MPI_Datatype t;
    ASSERT_EQ(MPI_Type_vector(2, 1, 3, MPI_INT, &t), MPI_SUCCESS);
    t = committed(t);
    const MPI_Datatype held = t;
    lwmpi::type_retain(held);  // as a pending receive would
    ASSERT_EQ(MPI_Type_free(&t), MPI_SUCCESS);
    EXPECT_EQ(lwmpi::type_check(held, false), MPI_ERR_TYPE);  // the program may not use it
    const int packed[2] = {7, 8};
    int out[4] = {0, 0, 0, 0};
    EXPECT_EQ(lwmpi::unpack_bytes(held, packed, 8, out, 1), 8u);  // the operation still may
    EXPECT_EQ(out[0], 7);
    EXPECT_EQ(out[3], 8);
    lwmpi::type_release(held);
}

TEST(Commit, DerivedTypesNeedCommitForCommunication) {
    MPI_Datatype t, dup;
    ASSERT_EQ(MPI_Type_contiguous(2, MPI_INT, &t), MPI_SUCCESS);
    EXPECT_EQ(lwmpi::type_check(t, false), MPI_SUCCESS);
    EXPECT_EQ(lwmpi::type_check(t, true), MPI_ERR_TYPE);
    int position = 0;
    int buffer[4] = {};
    EXPECT_EQ(MPI_Pack(buffer, 1, t, buffer + 2, 8, &position, MPI_COMM_WORLD), MPI_ERR_TYPE);
    ASSERT_EQ(MPI_Type_dup(t, &dup), MPI_SUCCESS);
    EXPECT_EQ(lwmpi::type_check(dup, true), MPI_ERR_TYPE);  // dup of an uncommitted type
    MPI_Type_free(&dup);
    ASSERT_EQ(MPI_Type_commit(&t), MPI_SUCCESS);
    EXPECT_EQ(lwmpi::type_check(t, true), MPI_SUCCESS);
    ASSERT_EQ(MPI_Type_dup(t, &dup), MPI_SUCCESS);
    EXPECT_EQ(lwmpi::type_check(dup, true), MPI_SUCCESS);
    EXPECT_EQ(size_of(dup), 8);
    EXPECT_EQ(extent_of(dup), 8);
    EXPECT_TRUE(lwmpi::type_is_contiguous(dup));
    MPI_Datatype predefined = MPI_DOUBLE;
    EXPECT_EQ(MPI_Type_commit(&predefined), MPI_SUCCESS);
    MPI_Datatype null_type = MPI_DATATYPE_NULL;
    EXPECT_EQ(MPI_Type_commit(&null_type), MPI_ERR_TYPE);
    MPI_Type_free(&t);
    MPI_Type_free(&dup);
}

TEST(Names, DerivedTypesStartUnnamedAndNamesCanChange) {
    MPI_Datatype t;
    ASSERT_EQ(MPI_Type_contiguous(2, MPI_INT, &t), MPI_SUCCESS);
    char name[MPI_MAX_OBJECT_NAME];
    int length = -1;
    ASSERT_EQ(MPI_Type_get_name(t, name, &length), MPI_SUCCESS);
    EXPECT_EQ(length, 0);
    EXPECT_STREQ(name, "");
    ASSERT_EQ(MPI_Type_set_name(t, "pair of ints"), MPI_SUCCESS);
    ASSERT_EQ(MPI_Type_get_name(t, name, &length), MPI_SUCCESS);
    EXPECT_STREQ(name, "pair of ints");
    std::string long_name(300, 'x');
    ASSERT_EQ(MPI_Type_set_name(t, long_name.c_str()), MPI_SUCCESS);
    ASSERT_EQ(MPI_Type_get_name(t, name, &length), MPI_SUCCESS);
    EXPECT_EQ(length, MPI_MAX_OBJECT_NAME - 1);
    EXPECT_EQ(MPI_Type_set_name(t, nullptr), MPI_ERR_ARG);
    MPI_Type_free(&t);
    // Predefined types may be renamed too (per rank).
    ASSERT_EQ(MPI_Type_set_name(MPI_FLOAT, "real"), MPI_SUCCESS);
    ASSERT_EQ(MPI_Type_get_name(MPI_FLOAT, name, &length), MPI_SUCCESS);
    EXPECT_STREQ(name, "real");
    ASSERT_EQ(MPI_Type_set_name(MPI_FLOAT, "MPI_FLOAT"), MPI_SUCCESS);
    EXPECT_EQ(MPI_Type_get_name(MPI_DATATYPE_NULL, name, &length), MPI_ERR_TYPE);
}

TEST(Elements, CountsBasicElementsOfWholeAndPartialTypes) {
    const int lengths[] = {1, 1};
    const MPI_Aint disps[] = {0, 8};
    const MPI_Datatype types[] = {MPI_INT, MPI_DOUBLE};
    MPI_Datatype t;
    ASSERT_EQ(MPI_Type_create_struct(2, lengths, disps, types, &t), MPI_SUCCESS);
    t = committed(t);
    MPI_Status status{};
    int elements = -1;
    const struct {
        MPI_Count bytes;
        int elements;
    } cases[] = {{0, 0}, {4, 1}, {12, 2}, {16, 3}, {24, 4}, {6, MPI_UNDEFINED}, {14, MPI_UNDEFINED}};
    for (const auto& c : cases) {
        status.lwmpi_count = c.bytes;
        ASSERT_EQ(MPI_Get_elements(&status, t, &elements), MPI_SUCCESS);
        EXPECT_EQ(elements, c.elements) << c.bytes << " bytes";
    }
    MPI_Count big = -1;
    status.lwmpi_count = 12 * 1000;
    ASSERT_EQ(MPI_Get_elements_x(&status, t, &big), MPI_SUCCESS);
    EXPECT_EQ(big, 2000);
    // Pair types hold two basic elements each.
    status.lwmpi_count = 3 * 12;
    ASSERT_EQ(MPI_Get_elements(&status, MPI_DOUBLE_INT, &elements), MPI_SUCCESS);
    EXPECT_EQ(elements, 6);
    status.lwmpi_count = 8;
    ASSERT_EQ(MPI_Get_elements(&status, MPI_DOUBLE_INT, &elements), MPI_SUCCESS);
    EXPECT_EQ(elements, 1);
    status.lwmpi_count = 10;
    ASSERT_EQ(MPI_Get_elements(&status, MPI_INT, &elements), MPI_SUCCESS);
    EXPECT_EQ(elements, MPI_UNDEFINED);
    EXPECT_EQ(MPI_Get_elements(MPI_STATUS_IGNORE, MPI_INT, &elements), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Get_elements(&status, MPI_DATATYPE_NULL, &elements), MPI_ERR_TYPE);
    MPI_Type_free(&t);
}

TEST(Basic, ReportsTheSingleUnpaddedBasicTypeOfATypeMap) {
    MPI_Datatype v;
    ASSERT_EQ(MPI_Type_vector(3, 2, 5, MPI_DOUBLE, &v), MPI_SUCCESS);
    MPI_Datatype basic = MPI_DATATYPE_NULL;
    int per = 0;
    ASSERT_TRUE(lwmpi::type_basic(v, &basic, &per));
    EXPECT_EQ(basic, MPI_DOUBLE);
    EXPECT_EQ(per, 6);
    ASSERT_TRUE(lwmpi::type_basic(MPI_2INT, &basic, &per));
    EXPECT_EQ(basic, MPI_2INT);
    EXPECT_EQ(per, 1);
    EXPECT_FALSE(lwmpi::type_basic(MPI_DOUBLE_INT, &basic, &per));  // padded pair
    MPI_Datatype r = record_type();
    EXPECT_FALSE(lwmpi::type_basic(r, &basic, &per));
    MPI_Type_free(&v);
    MPI_Type_free(&r);
}

TEST(Queries, SizeExtentAndTrueExtentReportErrors) {
    int size = 0;
    MPI_Aint lb, extent;
    MPI_Count xlb, xextent;
    EXPECT_EQ(MPI_Type_size(MPI_DATATYPE_NULL, &size), MPI_ERR_TYPE);
    EXPECT_EQ(MPI_Type_size(MPI_INT, nullptr), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Type_get_extent(MPI_INT, nullptr, &extent), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Type_get_true_extent(12345, &lb, &extent), MPI_ERR_TYPE);
    ASSERT_EQ(MPI_Type_get_extent_x(MPI_DOUBLE_INT, &xlb, &xextent), MPI_SUCCESS);
    EXPECT_EQ(xextent, 16);
    ASSERT_EQ(MPI_Type_get_true_extent_x(MPI_DOUBLE_INT, &xlb, &xextent), MPI_SUCCESS);
    EXPECT_EQ(xextent, 12);
    EXPECT_EQ(MPI_Get_address(&size, nullptr), MPI_ERR_ARG);
}

}  // namespace

namespace {

TEST(Finalize, DestroysEveryDerivedTypeAndPredefinedName) {
    MPI_Datatype inner, outer;
    ASSERT_EQ(MPI_Type_vector(2, 1, 2, MPI_INT, &inner), MPI_SUCCESS);
    ASSERT_EQ(MPI_Type_contiguous(3, inner, &outer), MPI_SUCCESS);
    lwmpi::type_retain(outer);  // held by an operation that never finished
    ASSERT_EQ(MPI_Type_set_name(MPI_SHORT, "half"), MPI_SUCCESS);
    lwmpi::datatype_finalize();  // leak-checked by the sanitizer
    EXPECT_EQ(lwmpi::type_check(inner, false), MPI_ERR_TYPE);
    EXPECT_EQ(lwmpi::type_check(outer, false), MPI_ERR_TYPE);
    lwmpi::type_release(outer);  // a no-op now
    char name[MPI_MAX_OBJECT_NAME];
    int length = 0;
    ASSERT_EQ(MPI_Type_get_name(MPI_SHORT, name, &length), MPI_SUCCESS);
    EXPECT_STREQ(name, "MPI_SHORT");
    MPI_Datatype again;
    ASSERT_EQ(MPI_Type_contiguous(2, MPI_INT, &again), MPI_SUCCESS);
    EXPECT_EQ(MPI_Type_free(&again), MPI_SUCCESS);
}

}  // namespace

namespace {

// oldtype = {(double, 0), (char, 8)}, extent 16: the running example of MPI 3.1 4.1.2.
MPI_Datatype double_char() {
    const int lengths[] = {1, 1};
    const MPI_Aint disps[] = {0, 8};
    const MPI_Datatype types[] = {MPI_DOUBLE, MPI_CHAR};
    MPI_Datatype t;
    EXPECT_EQ(MPI_Type_create_struct(2, lengths, disps, types, &t), MPI_SUCCESS);
    return t;
}

// The byte offsets of the type map's runs, as packing walks them.
std::vector<MPI_Aint> doubles_at(MPI_Datatype t, int count, MPI_Aint extent_in_doubles) {
    std::vector<double> data(static_cast<size_t>(extent_in_doubles * count * 2 + 16));
    for (size_t i = 0; i < data.size(); i++) data[i] = static_cast<double>(i);
    std::vector<char> packed(static_cast<size_t>(9 * 64));
    const size_t bytes = lwmpi::pack_bytes(t, data.data(), count, packed.data());
    std::vector<MPI_Aint> offsets;
    for (size_t at = 0; at < bytes; at += 9) {  // each element: a double then a char
        double d;
        memcpy(&d, packed.data() + at, 8);
        offsets.push_back(static_cast<MPI_Aint>(d) * 8);
    }
    return offsets;
}

TEST(StandardExamples, VectorOfDoubleChar) {
    MPI_Datatype old = double_char();
    EXPECT_EQ(extent_of(old), 16);
    MPI_Datatype v;
    ASSERT_EQ(MPI_Type_vector(2, 3, 4, old, &v), MPI_SUCCESS);
    EXPECT_EQ(size_of(v), 6 * 9);
    EXPECT_EQ(extent_of(v), 112);
    EXPECT_EQ(doubles_at(v, 1, 14), (std::vector<MPI_Aint>{0, 16, 32, 64, 80, 96}));
    MPI_Type_free(&v);
    MPI_Type_free(&old);
}

TEST(StandardExamples, HvectorAndIndexedOfDoubleChar) {
    MPI_Datatype old = double_char();
    MPI_Datatype h, x;
    ASSERT_EQ(MPI_Type_create_hvector(2, 3, 4, old, &h), MPI_SUCCESS);  // stride 4 bytes
    EXPECT_EQ(extent_of(h), 52);
    const int lengths[] = {3, 1};
    const int disps[] = {4, 0};
    ASSERT_EQ(MPI_Type_indexed(2, lengths, disps, old, &x), MPI_SUCCESS);
    EXPECT_EQ(size_of(x), 4 * 9);
    EXPECT_EQ(extent_of(x), 112);
    EXPECT_EQ(doubles_at(x, 1, 14), (std::vector<MPI_Aint>{64, 80, 96, 0}));
    MPI_Type_free(&h);
    MPI_Type_free(&x);
    MPI_Type_free(&old);
}

TEST(StandardExamples, NegativeDisplacementsGiveANegativeLowerBound) {
    const int lengths[] = {1, 1};
    const int disps[] = {2, -3};
    MPI_Datatype t;
    ASSERT_EQ(MPI_Type_indexed(2, lengths, disps, MPI_INT, &t), MPI_SUCCESS);
    MPI_Aint lb = 0;
    EXPECT_EQ(extent_of(t, &lb), 6 * 4);
    EXPECT_EQ(lb, -3 * 4);
    t = committed(t);
    std::vector<int> data = iota(8);
    EXPECT_EQ(pack_ints(data.data() + 4, 1, t), (std::vector<int>{6, 1}));
    MPI_Type_free(&t);
}

TEST(StandardExamples, DupKeepsResizedBounds) {
    MPI_Datatype r, d;
    ASSERT_EQ(MPI_Type_create_resized(MPI_DOUBLE, -8, 32, &r), MPI_SUCCESS);
    ASSERT_EQ(MPI_Type_dup(r, &d), MPI_SUCCESS);
    MPI_Aint lb = 0;
    EXPECT_EQ(extent_of(d, &lb), 32);
    EXPECT_EQ(lb, -8);
    // A struct of it stays unpadded: the bounds were set explicitly.
    const int lengths[] = {1};
    const MPI_Aint disps[] = {4};
    MPI_Datatype s;
    ASSERT_EQ(MPI_Type_create_struct(1, lengths, disps, &d, &s), MPI_SUCCESS);
    EXPECT_EQ(extent_of(s, &lb), 32);
    EXPECT_EQ(lb, -4);
    MPI_Type_free(&s);
    MPI_Type_free(&d);
    MPI_Type_free(&r);
}

TEST(StandardExamples, SizesBeyondIntAreUndefinedForTypeSize) {
    MPI_Datatype row, big;
    ASSERT_EQ(MPI_Type_contiguous(1 << 20, MPI_DOUBLE, &row), MPI_SUCCESS);
    ASSERT_EQ(MPI_Type_contiguous(1 << 12, row, &big), MPI_SUCCESS);
    int size = 0;
    ASSERT_EQ(MPI_Type_size(big, &size), MPI_SUCCESS);
    EXPECT_EQ(size, MPI_UNDEFINED);
    EXPECT_EQ(size_of(big), MPI_Aint{8} << 32);
    EXPECT_TRUE(lwmpi::type_is_contiguous(big));
    MPI_Type_free(&big);
    MPI_Type_free(&row);
}

TEST(StandardExamples, ContiguousOfPairsCountsTwoElementsPerPair) {
    MPI_Datatype pairs;
    ASSERT_EQ(MPI_Type_contiguous(3, MPI_2INT, &pairs), MPI_SUCCESS);
    pairs = committed(pairs);
    MPI_Count elements = 0;
    ASSERT_EQ(lwmpi::type_elements(pairs, 3 * 8 + 2 * 8 + 4, &elements), MPI_SUCCESS);
    EXPECT_EQ(elements, 6 + 4 + 1);
    MPI_Datatype basic;
    int per = 0;
    ASSERT_TRUE(lwmpi::type_basic(pairs, &basic, &per));
    EXPECT_EQ(basic, MPI_2INT);
    EXPECT_EQ(per, 3);
    MPI_Type_free(&pairs);
}

}  // namespace
