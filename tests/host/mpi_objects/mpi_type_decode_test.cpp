// MPI_Type_get_envelope and MPI_Type_get_contents (MPI 3.1 section 4.1.13): every
// constructor's combiner and arguments, named types, the duplicates of derived inner types,
// error classes.
#include <gtest/gtest.h>
#include <mpi.h>

#include <vector>

#include "libmpi/datatype.hpp"
#include "tests/host/mpi_objects/mpi_obj_doubles.hpp"

namespace {

struct Contents {
    int combiner = -1;
    std::vector<int> ints;
    std::vector<MPI_Aint> aints;
    std::vector<MPI_Datatype> types;
};

// Decodes a type; the derived types among the results are freed unless `keep`.
Contents decode(MPI_Datatype t, bool keep = false) {
    Contents c;
    int ni = -1, na = -1, nd = -1;
    EXPECT_EQ(MPI_Type_get_envelope(t, &ni, &na, &nd, &c.combiner), MPI_SUCCESS);
    if (c.combiner == MPI_COMBINER_NAMED) return c;
    c.ints.resize(static_cast<size_t>(ni));
    c.aints.resize(static_cast<size_t>(na));
    c.types.resize(static_cast<size_t>(nd));
    EXPECT_EQ(MPI_Type_get_contents(t, ni, na, nd, c.ints.data(), c.aints.data(), c.types.data()),
              MPI_SUCCESS);
    if (!keep) {
        for (MPI_Datatype& inner : c.types) {
            int a, b, d, combiner;
            MPI_Type_get_envelope(inner, &a, &b, &d, &combiner);
            if (combiner != MPI_COMBINER_NAMED) {
                EXPECT_EQ(MPI_Type_free(&inner), MPI_SUCCESS);
            }
        }
    }
    return c;
}

using Ints = std::vector<int>;
using Aints = std::vector<MPI_Aint>;
using Types = std::vector<MPI_Datatype>;

TEST(TypeEnvelope, PredefinedTypesAreNamedWithoutContents) {
    for (MPI_Datatype t : {MPI_INT, MPI_DOUBLE_INT, MPI_INTEGER, MPI_BYTE, MPI_2REAL}) {
        int ni = -1, na = -1, nd = -1, combiner = -1;
        ASSERT_EQ(MPI_Type_get_envelope(t, &ni, &na, &nd, &combiner), MPI_SUCCESS);
        EXPECT_EQ(combiner, MPI_COMBINER_NAMED);
        EXPECT_EQ(ni + na + nd, 0);
        int ints[1];
        MPI_Aint aints[1];
        MPI_Datatype types[1];
        EXPECT_EQ(MPI_Type_get_contents(t, 1, 1, 1, ints, aints, types), MPI_ERR_TYPE);
    }
}

TEST(TypeEnvelope, EveryConstructorRecordsItsArguments) {
    MPI_Datatype t;
    ASSERT_EQ(MPI_Type_contiguous(3, MPI_INT, &t), MPI_SUCCESS);
    Contents c = decode(t);
    EXPECT_EQ(c.combiner, MPI_COMBINER_CONTIGUOUS);
    EXPECT_EQ(c.ints, (Ints{3}));
    EXPECT_EQ(c.types, (Types{MPI_INT}));
    MPI_Type_free(&t);

    ASSERT_EQ(MPI_Type_vector(2, 3, -4, MPI_FLOAT, &t), MPI_SUCCESS);
    c = decode(t);
    EXPECT_EQ(c.combiner, MPI_COMBINER_VECTOR);
    EXPECT_EQ(c.ints, (Ints{2, 3, -4}));
    EXPECT_EQ(c.types, (Types{MPI_FLOAT}));
    MPI_Type_free(&t);

    ASSERT_EQ(MPI_Type_create_hvector(2, 1, 24, MPI_DOUBLE, &t), MPI_SUCCESS);
    c = decode(t);
    EXPECT_EQ(c.combiner, MPI_COMBINER_HVECTOR);
    EXPECT_EQ(c.ints, (Ints{2, 1}));
    EXPECT_EQ(c.aints, (Aints{24}));
    MPI_Type_free(&t);

    const int lengths[] = {1, 2};
    const int disps[] = {5, 0};
    ASSERT_EQ(MPI_Type_indexed(2, lengths, disps, MPI_INT, &t), MPI_SUCCESS);
    c = decode(t);
    EXPECT_EQ(c.combiner, MPI_COMBINER_INDEXED);
    EXPECT_EQ(c.ints, (Ints{2, 1, 2, 5, 0}));
    MPI_Type_free(&t);

    const MPI_Aint byte_disps[] = {16, 0};
    ASSERT_EQ(MPI_Type_create_hindexed(2, lengths, byte_disps, MPI_INT, &t), MPI_SUCCESS);
    c = decode(t);
    EXPECT_EQ(c.combiner, MPI_COMBINER_HINDEXED);
    EXPECT_EQ(c.ints, (Ints{2, 1, 2}));
    EXPECT_EQ(c.aints, (Aints{16, 0}));
    MPI_Type_free(&t);

    ASSERT_EQ(MPI_Type_create_indexed_block(2, 4, disps, MPI_SHORT, &t), MPI_SUCCESS);
    c = decode(t);
    EXPECT_EQ(c.combiner, MPI_COMBINER_INDEXED_BLOCK);
    EXPECT_EQ(c.ints, (Ints{2, 4, 5, 0}));
    EXPECT_EQ(c.types, (Types{MPI_SHORT}));
    MPI_Type_free(&t);

    ASSERT_EQ(MPI_Type_create_hindexed_block(2, 4, byte_disps, MPI_SHORT, &t), MPI_SUCCESS);
    c = decode(t);
    EXPECT_EQ(c.combiner, MPI_COMBINER_HINDEXED_BLOCK);
    EXPECT_EQ(c.ints, (Ints{2, 4}));
    EXPECT_EQ(c.aints, (Aints{16, 0}));
    MPI_Type_free(&t);

    const MPI_Datatype members[] = {MPI_CHAR, MPI_DOUBLE};
    ASSERT_EQ(MPI_Type_create_struct(2, lengths, byte_disps, members, &t), MPI_SUCCESS);
    c = decode(t);
    EXPECT_EQ(c.combiner, MPI_COMBINER_STRUCT);
    EXPECT_EQ(c.ints, (Ints{2, 1, 2}));
    EXPECT_EQ(c.aints, (Aints{16, 0}));
    EXPECT_EQ(c.types, (Types{MPI_CHAR, MPI_DOUBLE}));
    MPI_Type_free(&t);

    ASSERT_EQ(MPI_Type_create_resized(MPI_INT, -4, 12, &t), MPI_SUCCESS);
    c = decode(t);
    EXPECT_EQ(c.combiner, MPI_COMBINER_RESIZED);
    EXPECT_EQ(c.ints, (Ints{}));
    EXPECT_EQ(c.aints, (Aints{-4, 12}));
    MPI_Type_free(&t);

    ASSERT_EQ(MPI_Type_dup(MPI_LONG, &t), MPI_SUCCESS);
    c = decode(t);
    EXPECT_EQ(c.combiner, MPI_COMBINER_DUP);
    EXPECT_EQ(c.types, (Types{MPI_LONG}));
    MPI_Type_free(&t);

    const int sizes[] = {4, 6}, subsizes[] = {2, 3}, starts[] = {1, 2};
    ASSERT_EQ(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_INT, &t),
              MPI_SUCCESS);
    c = decode(t);
    EXPECT_EQ(c.combiner, MPI_COMBINER_SUBARRAY);
    EXPECT_EQ(c.ints, (Ints{2, 4, 6, 2, 3, 1, 2, MPI_ORDER_FORTRAN}));
    EXPECT_EQ(c.types, (Types{MPI_INT}));
    MPI_Type_free(&t);

    const int gsizes[] = {8, 9}, distribs[] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
    const int dargs[] = {MPI_DISTRIBUTE_DFLT_DARG, 2}, psizes[] = {2, 3};
    ASSERT_EQ(MPI_Type_create_darray(6, 4, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_C,
                                     MPI_DOUBLE, &t), MPI_SUCCESS);
    c = decode(t);
    EXPECT_EQ(c.combiner, MPI_COMBINER_DARRAY);
    EXPECT_EQ(c.ints, (Ints{6, 4, 2, 8, 9, MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC,
                            MPI_DISTRIBUTE_DFLT_DARG, 2, 2, 3, MPI_ORDER_C}));
    EXPECT_EQ(c.types, (Types{MPI_DOUBLE}));
    MPI_Type_free(&t);
}

TEST(TypeEnvelope, DerivedInnerTypesComeBackAsNewTypesThatDecodeTheSame) {
    MPI_Datatype column, outer;
    ASSERT_EQ(MPI_Type_vector(3, 1, 5, MPI_INT, &column), MPI_SUCCESS);
    ASSERT_EQ(MPI_Type_contiguous(2, column, &outer), MPI_SUCCESS);
    ASSERT_EQ(MPI_Type_free(&column), MPI_SUCCESS);  // outer keeps it alive
    Contents c = decode(outer, true);
    ASSERT_EQ(c.types.size(), 1u);
    MPI_Datatype inner = c.types[0];
    EXPECT_NE(inner, column);
    Contents again = decode(inner);
    EXPECT_EQ(again.combiner, MPI_COMBINER_VECTOR);
    EXPECT_EQ(again.ints, (Ints{3, 1, 5}));
    EXPECT_EQ(again.types, (Types{MPI_INT}));
    MPI_Aint lb = 0, extent = 0;
    ASSERT_EQ(MPI_Type_get_extent(inner, &lb, &extent), MPI_SUCCESS);
    EXPECT_EQ(extent, static_cast<MPI_Aint>(11 * sizeof(int)));
    // The copy is the program's to free, and freeing it leaves the original working.
    EXPECT_EQ(MPI_Type_free(&inner), MPI_SUCCESS);
    ASSERT_EQ(MPI_Type_commit(&outer), MPI_SUCCESS);
    int size = 0;
    ASSERT_EQ(MPI_Type_size(outer, &size), MPI_SUCCESS);
    EXPECT_EQ(size, static_cast<int>(6 * sizeof(int)));
    EXPECT_EQ(MPI_Type_free(&outer), MPI_SUCCESS);
}

TEST(TypeEnvelope, ErrorClasses) {
    int ni, na, nd, combiner;
    EXPECT_EQ(MPI_Type_get_envelope(MPI_DATATYPE_NULL, &ni, &na, &nd, &combiner), MPI_ERR_TYPE);
    EXPECT_EQ(MPI_Type_get_envelope(MPI_INT, nullptr, &na, &nd, &combiner), MPI_ERR_ARG);
    MPI_Datatype t;
    ASSERT_EQ(MPI_Type_vector(2, 1, 3, MPI_INT, &t), MPI_SUCCESS);
    int ints[3];
    MPI_Aint aints[1];
    MPI_Datatype types[1];
    EXPECT_EQ(MPI_Type_get_contents(t, 2, 0, 1, ints, aints, types), MPI_ERR_ARG);  // 3 ints
    EXPECT_EQ(MPI_Type_get_contents(t, 3, 0, 0, ints, aints, types), MPI_ERR_ARG);  // 1 type
    EXPECT_EQ(MPI_Type_get_contents(t, 3, 0, 1, nullptr, aints, types), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Type_get_contents(t, 3, 0, 1, ints, nullptr, types), MPI_SUCCESS);
    MPI_Type_free(&t);
    EXPECT_EQ(MPI_Type_get_envelope(t, &ni, &na, &nd, &combiner), MPI_ERR_TYPE);  // null now
}

}  // namespace
