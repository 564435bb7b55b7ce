// MPI_Type_create_subarray and MPI_Type_create_darray (MPI 3.1 sections 4.1.3, 4.1.4): type
// maps checked against hand-computed ones (the packed order of the element indices), bounds,
// and error classes; plus the per-dimension index runs.
#include <gtest/gtest.h>
#include <mpi.h>

#include <vector>

#include "libmpi/datatype.hpp"
#include "libmpi/datatype_arrays.hpp"
#include "tests/host/mpi_objects/mpi_obj_doubles.hpp"

namespace {

using Ints = std::vector<int>;

// The type map of one element of `t` over an int array holding 0, 1, 2, ...: the indices of
// the ints it selects, in type-map order.
Ints typemap(MPI_Datatype t, int array_ints) {
    EXPECT_EQ(MPI_Type_commit(&t), MPI_SUCCESS);
    Ints array(static_cast<size_t>(array_ints));
    for (int i = 0; i < array_ints; i++) array[static_cast<size_t>(i)] = i;
    int bytes = 0;
    EXPECT_EQ(MPI_Pack_size(1, t, MPI_COMM_WORLD, &bytes), MPI_SUCCESS);
    Ints out(static_cast<size_t>(bytes) / sizeof(int) + 1);
    int position = 0;
    EXPECT_EQ(MPI_Pack(array.data(), 1, t, out.data(), bytes, &position, MPI_COMM_WORLD),
              MPI_SUCCESS);
    out.resize(static_cast<size_t>(bytes) / sizeof(int));
    return out;
}

void expect_bounds(MPI_Datatype t, MPI_Aint lb, MPI_Aint extent) {
    MPI_Aint l = -1, e = -1;
    ASSERT_EQ(MPI_Type_get_extent(t, &l, &e), MPI_SUCCESS);
    EXPECT_EQ(l, lb);
    EXPECT_EQ(e, extent);
}

TEST(Subarray, CAndFortranOrderOfA4x6Array) {
    const int sizes[] = {4, 6}, subsizes[] = {2, 3}, starts[] = {1, 2};
    MPI_Datatype t;
    // C order: rows 1-2, columns 2-4 of a row-major 4 x 6 array.
    ASSERT_EQ(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &t),
              MPI_SUCCESS);
    EXPECT_EQ(typemap(t, 24), (Ints{8, 9, 10, 14, 15, 16}));
    expect_bounds(t, 0, 24 * sizeof(int));
    MPI_Type_free(&t);
    // Fortran order: the first index varies fastest (column-major, 4 rows per column).
    ASSERT_EQ(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_INT, &t),
              MPI_SUCCESS);
    EXPECT_EQ(typemap(t, 24), (Ints{9, 10, 13, 14, 17, 18}));
    expect_bounds(t, 0, 24 * sizeof(int));
    MPI_Type_free(&t);
}

TEST(Subarray, ThreeDimensionsAndTheWholeArray) {
    const int sizes[] = {2, 3, 4}, subsizes[] = {2, 1, 2}, starts[] = {0, 2, 1};
    MPI_Datatype t;
    ASSERT_EQ(MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &t),
              MPI_SUCCESS);
    // (i, 2, k) for k = 1, 2: i*12 + 8 + k.
    EXPECT_EQ(typemap(t, 24), (Ints{9, 10, 21, 22}));
    MPI_Type_free(&t);
    const int whole[] = {2, 3, 4}, zero[] = {0, 0, 0};
    ASSERT_EQ(MPI_Type_create_subarray(3, sizes, whole, zero, MPI_ORDER_C, MPI_INT, &t), MPI_SUCCESS);
    Ints all(24);
    for (int i = 0; i < 24; i++) all[static_cast<size_t>(i)] = i;
    EXPECT_EQ(typemap(t, 24), all);
    EXPECT_TRUE(lwmpi::type_is_contiguous(t));
    MPI_Type_free(&t);
}

TEST(Subarray, ErrorClasses) {
    const int sizes[] = {4, 6}, subsizes[] = {2, 3}, starts[] = {1, 2};
    MPI_Datatype t;
    const int too_big[] = {5, 3}, zero[] = {0, 3}, late[] = {3, 2}, negative[] = {-1, 0};
    EXPECT_EQ(MPI_Type_create_subarray(2, sizes, too_big, starts, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Type_create_subarray(2, sizes, zero, starts, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Type_create_subarray(2, sizes, subsizes, late, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Type_create_subarray(2, sizes, subsizes, negative, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Type_create_subarray(0, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &t), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Type_create_subarray(2, sizes, subsizes, starts, 77, MPI_INT, &t), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_DATATYPE_NULL, &t),
              MPI_ERR_TYPE);
    EXPECT_EQ(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, nullptr),
              MPI_ERR_ARG);
    EXPECT_STREQ(mpi_obj_test::last_error.call, "MPI_Type_create_subarray");
}

TEST(DarrayRuns, BlockCyclicAndNone) {
    lwmpi::DimensionRuns d;
    // 10 indices, blocks of ceil(10/3) = 4: 0-3, 4-7, 8-9.
    ASSERT_EQ(lwmpi::darray_runs(10, MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_DFLT_DARG, 3, 2, &d), MPI_SUCCESS);
    ASSERT_EQ(d.count, 1);
    EXPECT_EQ(d.run[0].start, 8);
    EXPECT_EQ(d.run[0].length, 2);
    // Blocks of 5 over 3 processes: the third owns nothing.
    ASSERT_EQ(lwmpi::darray_runs(10, MPI_DISTRIBUTE_BLOCK, 5, 3, 2, &d), MPI_SUCCESS);
    EXPECT_EQ(d.run[0].length, 0);
    EXPECT_EQ(lwmpi::darray_runs(10, MPI_DISTRIBUTE_BLOCK, 3, 3, 0, &d), MPI_ERR_ARG);  // 9 < 10
    // Cyclic(2) over 3 processes of 11 indices: process 1 owns 2-3 and 8-9; process 2 owns
    // 4-5 and the short last block 10.
    ASSERT_EQ(lwmpi::darray_runs(11, MPI_DISTRIBUTE_CYCLIC, 2, 3, 1, &d), MPI_SUCCESS);
    ASSERT_EQ(d.count, 1);
    EXPECT_EQ(d.run[0].start, 2);
    EXPECT_EQ(d.run[0].length, 2);
    EXPECT_EQ(d.run[0].repeat, 2);
    EXPECT_EQ(d.run[0].stride, 6);
    ASSERT_EQ(lwmpi::darray_runs(11, MPI_DISTRIBUTE_CYCLIC, 2, 3, 2, &d), MPI_SUCCESS);
    ASSERT_EQ(d.count, 2);
    EXPECT_EQ(d.run[0].start, 4);
    EXPECT_EQ(d.run[0].repeat, 1);
    EXPECT_EQ(d.run[1].start, 10);
    EXPECT_EQ(d.run[1].length, 1);
    ASSERT_EQ(lwmpi::darray_runs(7, MPI_DISTRIBUTE_NONE, 0, 1, 0, &d), MPI_SUCCESS);
    EXPECT_EQ(d.run[0].length, 7);
    EXPECT_EQ(lwmpi::darray_runs(7, MPI_DISTRIBUTE_NONE, 0, 2, 0, &d), MPI_ERR_ARG);
    EXPECT_EQ(lwmpi::darray_runs(7, 99, 0, 1, 0, &d), MPI_ERR_ARG);
}

TEST(Darray, BlockByCyclicOnA2x3GridInCOrder) {
    // 4 x 6 array; rows BLOCK over 2 processes, columns CYCLIC(1) over 3. Rank 4 is at grid
    // (1, 1): rows 2-3, columns 1 and 4.
    const int gsizes[] = {4, 6}, distribs[] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
    const int dargs[] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG}, psizes[] = {2, 3};
    MPI_Datatype t;
    ASSERT_EQ(MPI_Type_create_darray(6, 4, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_C,
                                     MPI_INT, &t), MPI_SUCCESS);
    EXPECT_EQ(typemap(t, 24), (Ints{13, 16, 19, 22}));
    expect_bounds(t, 0, 24 * sizeof(int));
    MPI_Type_free(&t);
    // Fortran order: element (i, j) at i + 4 j; the grid stays row-major (rank 4 = (1, 1)).
    ASSERT_EQ(MPI_Type_create_darray(6, 4, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_FORTRAN,
                                     MPI_INT, &t), MPI_SUCCESS);
    EXPECT_EQ(typemap(t, 24), (Ints{6, 7, 18, 19}));
    MPI_Type_free(&t);
}

TEST(Darray, EveryRankTogetherCoversTheArrayOnce) {
    const int gsizes[] = {5, 7}, distribs[] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_CYCLIC};
    const int dargs[] = {2, 3}, psizes[] = {2, 2};
    Ints seen(35, 0);
    for (int rank = 0; rank < 4; rank++) {
        MPI_Datatype t;
        ASSERT_EQ(MPI_Type_create_darray(4, rank, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_C,
                                         MPI_INT, &t), MPI_SUCCESS);
        for (int index : typemap(t, 35)) seen[static_cast<size_t>(index)]++;
        MPI_Type_free(&t);
    }
    EXPECT_EQ(seen, Ints(35, 1));
}

TEST(Darray, ErrorClasses) {
    const int gsizes[] = {4, 6}, distribs[] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
    const int dargs[] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG}, psizes[] = {2, 3};
    MPI_Datatype t;
    EXPECT_EQ(MPI_Type_create_darray(5, 0, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_C,
                                     MPI_INT, &t), MPI_ERR_ARG);  // grid of 6, not 5
    EXPECT_EQ(MPI_Type_create_darray(6, 6, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_C,
                                     MPI_INT, &t), MPI_ERR_ARG);  // rank out of range
    const int small_blocks[] = {1, MPI_DISTRIBUTE_DFLT_DARG};
    EXPECT_EQ(MPI_Type_create_darray(6, 0, 2, gsizes, distribs, small_blocks, psizes, MPI_ORDER_C,
                                     MPI_INT, &t), MPI_ERR_ARG);  // 2 blocks of 1 < 4 rows
    EXPECT_EQ(MPI_Type_create_darray(6, 0, 2, gsizes, distribs, dargs, psizes, 0, MPI_INT, &t),
              MPI_ERR_ARG);
    EXPECT_EQ(MPI_Type_create_darray(6, 0, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_C,
                                     MPI_DATATYPE_NULL, &t), MPI_ERR_TYPE);
    EXPECT_STREQ(mpi_obj_test::last_error.call, "MPI_Type_create_darray");
}

}  // namespace
