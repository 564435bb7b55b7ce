/* The Fortran-named datatypes from C (MPI 3.1 sections 3.2.2, 17.2.5) with the usual
 * Fortran ABI: sizes, names, point-to-point, reductions with their values (INTEGER, REAL,
 * DOUBLE PRECISION, LOGICAL, COMPLEX, the Fortran pair types), and MPI_Type_match_size. */
#include <stdint.h>
#include <string.h>

#include "suite.h"

static void check_size(MPI_Datatype type, int size, const char *name)
{
    int got = -1, length = 0;
    char text[MPI_MAX_OBJECT_NAME];
    MPI_Type_size(type, &got);
    SUITE_CHECK(got == size, "%s has size %d, expected %d", name, got, size);
    MPI_Type_get_name(type, text, &length);
    SUITE_CHECK(strcmp(text, name) == 0, "name %s, expected %s", text, name);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    check_size(MPI_CHARACTER, 1, "MPI_CHARACTER");
    check_size(MPI_INTEGER, 4, "MPI_INTEGER");
    check_size(MPI_REAL, 4, "MPI_REAL");
    check_size(MPI_DOUBLE_PRECISION, 8, "MPI_DOUBLE_PRECISION");
    check_size(MPI_COMPLEX, 8, "MPI_COMPLEX");
    check_size(MPI_DOUBLE_COMPLEX, 16, "MPI_DOUBLE_COMPLEX");
    check_size(MPI_LOGICAL, 4, "MPI_LOGICAL");
    check_size(MPI_INTEGER1, 1, "MPI_INTEGER1");
    check_size(MPI_INTEGER2, 2, "MPI_INTEGER2");
    check_size(MPI_INTEGER4, 4, "MPI_INTEGER4");
    check_size(MPI_INTEGER8, 8, "MPI_INTEGER8");
    check_size(MPI_REAL4, 4, "MPI_REAL4");
    check_size(MPI_REAL8, 8, "MPI_REAL8");
    check_size(MPI_REAL16, 16, "MPI_REAL16");
    check_size(MPI_COMPLEX8, 8, "MPI_COMPLEX8");
    check_size(MPI_COMPLEX16, 16, "MPI_COMPLEX16");
    check_size(MPI_COMPLEX32, 32, "MPI_COMPLEX32");
    check_size(MPI_2INTEGER, 8, "MPI_2INTEGER");
    check_size(MPI_2REAL, 8, "MPI_2REAL");
    check_size(MPI_2DOUBLE_PRECISION, 16, "MPI_2DOUBLE_PRECISION");

    /* A ring of DOUBLE PRECISION and CHARACTER messages. */
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    double out[3] = {rank + 0.5, -rank, 1e300}, got[3] = {0, 0, 0};
    MPI_Sendrecv(out, 3, MPI_DOUBLE_PRECISION, right, 1, got, 3, MPI_DOUBLE_PRECISION, left, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    SUITE_CHECK(got[0] == left + 0.5 && got[1] == -left && got[2] == 1e300,
                "ring of DOUBLE PRECISION: %g %g %g", got[0], got[1], got[2]);
    char word[4] = {'a', 'b', 'c', (char)('0' + rank % 10)}, back[4];
    MPI_Status status;
    MPI_Sendrecv(word, 4, MPI_CHARACTER, right, 2, back, 4, MPI_CHARACTER, left, 2,
                 MPI_COMM_WORLD, &status);
    int count = -1;
    MPI_Get_count(&status, MPI_CHARACTER, &count);
    SUITE_CHECK(count == 4 && back[3] == '0' + left % 10, "CHARACTER ring: %d chars", count);

    /* Reductions with their values. */
    int32_t integer = rank + 1, integer_sum = 0;
    MPI_Allreduce(&integer, &integer_sum, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD);
    SUITE_CHECK(integer_sum == size * (size + 1) / 2, "INTEGER sum %d", (int)integer_sum);
    int64_t bits = (int64_t)1 << (rank % 60), all_bits = 0;
    MPI_Allreduce(&bits, &all_bits, 1, MPI_INTEGER8, MPI_BOR, MPI_COMM_WORLD);
    SUITE_CHECK(all_bits == (((int64_t)1 << (size < 60 ? size : 60)) - 1), "INTEGER8 bor");
    float real = (float)rank, real_max = -1;
    MPI_Allreduce(&real, &real_max, 1, MPI_REAL, MPI_MAX, MPI_COMM_WORLD);
    SUITE_CHECK(real_max == (float)(size - 1), "REAL max %g", (double)real_max);
    int32_t logical = rank == size - 1, any = 0, all = 1;
    MPI_Allreduce(&logical, &any, 1, MPI_LOGICAL, MPI_LOR, MPI_COMM_WORLD);
    MPI_Allreduce(&logical, &all, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD);
    SUITE_CHECK(any && !all, "LOGICAL lor %d land %d", (int)any, (int)all);
    float z[2] = {1.0f, (float)rank}, z_sum[2] = {0, 0};
    MPI_Allreduce(z, z_sum, 1, MPI_COMPLEX, MPI_SUM, MPI_COMM_WORLD);
    SUITE_CHECK(z_sum[0] == (float)size && z_sum[1] == (float)(size * (size - 1) / 2),
                "COMPLEX sum %g%+gi", (double)z_sum[0], (double)z_sum[1]);
    /* MAXLOC over (value, index) pairs of one type: the largest value, on a tie the smaller
     * index. Every rank offers value rank % 2 at index rank. */
    float pair[2] = {(float)(rank % 2), (float)rank}, best[2] = {-1, -1};
    MPI_Allreduce(pair, best, 1, MPI_2REAL, MPI_MAXLOC, MPI_COMM_WORLD);
    SUITE_CHECK(best[0] == 1 && best[1] == 1, "2REAL maxloc (%g, %g)", (double)best[0], (double)best[1]);
    double dpair[2] = {-(double)rank, (double)rank}, dbest[2] = {0, 0};
    MPI_Allreduce(dpair, dbest, 1, MPI_2DOUBLE_PRECISION, MPI_MINLOC, MPI_COMM_WORLD);
    SUITE_CHECK(dbest[0] == -(size - 1) && dbest[1] == size - 1, "2DOUBLE_PRECISION minloc");
    int32_t ipair[2] = {7, rank}, ibest[2] = {0, 0};
    MPI_Allreduce(ipair, ibest, 1, MPI_2INTEGER, MPI_MINLOC, MPI_COMM_WORLD);
    SUITE_CHECK(ibest[0] == 7 && ibest[1] == 0, "2INTEGER minloc tie (%d, %d)", (int)ibest[0], (int)ibest[1]);
    /* LOGICAL operations are not defined on Fortran INTEGER (5.9.2). */
    int rc = MPI_Allreduce(&integer, &integer_sum, 1, MPI_INTEGER, MPI_LAND, MPI_COMM_WORLD);
    int cls = MPI_SUCCESS;
    MPI_Error_class(rc, &cls);
    SUITE_CHECK(cls == MPI_ERR_OP, "LAND on INTEGER: class %d", cls);

    /* MPI_Type_match_size (17.1.9). */
    MPI_Datatype matched = MPI_DATATYPE_NULL;
    SUITE_CHECK(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 4, &matched) == MPI_SUCCESS &&
                matched == MPI_INTEGER4, "match_size integer 4");
    SUITE_CHECK(MPI_Type_match_size(MPI_TYPECLASS_REAL, 8, &matched) == MPI_SUCCESS &&
                matched == MPI_REAL8, "match_size real 8");
    SUITE_CHECK(MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 8, &matched) == MPI_SUCCESS &&
                matched == MPI_COMPLEX8, "match_size complex 8");
    rc = MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 5, &matched);
    MPI_Error_class(rc, &cls);
    SUITE_CHECK(cls == MPI_ERR_ARG, "match_size integer 5: class %d", cls);
    rc = MPI_Type_match_size(42, 4, &matched);
    MPI_Error_class(rc, &cls);
    SUITE_CHECK(cls == MPI_ERR_ARG, "match_size class 42: class %d", cls);
    return suite_finalize();
}
