/* Guest checks of libmpi's object layer on the board: derived datatypes over the transport,
 * MINLOC on padded pair types, long double and complex reductions (soft-float quad on
 * RISC-V), per-rank handle tables (thread_local), groups and names. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include "mpi_check.h"

struct record { char tag; double value; int count; };

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* Each rank creates a different number of types first: handles are per rank. */
    MPI_Datatype filler[4];
    for (int i = 0; i < rank % 4; i++) MPI_Type_contiguous(i + 1, MPI_INT, &filler[i]);

    /* Struct type, sent around the ring. */
    int lengths[3] = {1, 1, 1};
    MPI_Aint disps[3] = {offsetof(struct record, tag), offsetof(struct record, value),
                         offsetof(struct record, count)};
    MPI_Datatype types[3] = {MPI_CHAR, MPI_DOUBLE, MPI_INT};
    MPI_Datatype rec;
    CHECK_EQ(MPI_Type_create_struct(3, lengths, disps, types, &rec), MPI_SUCCESS);
    CHECK_EQ(MPI_Type_commit(&rec), MPI_SUCCESS);
    MPI_Aint lb, extent;
    MPI_Type_get_extent(rec, &lb, &extent);
    CHECK_EQ(extent, sizeof(struct record));
    struct record out[3], in[3];
    for (int i = 0; i < 3; i++) { out[i].tag = 'a' + rank; out[i].value = rank + i / 4.0; out[i].count = 10 * rank + i; }
    memset(in, 0, sizeof(in));
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    MPI_Status status;
    MPI_Sendrecv(out, 3, rec, next, 7, in, 3, rec, prev, 7, MPI_COMM_WORLD, &status);
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(in[i].tag, 'a' + prev);
        CHECK(in[i].value == prev + i / 4.0);
        CHECK_EQ(in[i].count, 10 * prev + i);
    }
    int elements = -1;
    MPI_Get_elements(&status, rec, &elements);
    CHECK_EQ(elements, 9);

    /* Column of a matrix: a vector resized to one element. */
    double m[4][4], col[4];
    for (int i = 0; i < 16; i++) m[i / 4][i % 4] = rank * 100 + i;
    MPI_Datatype column, column1;
    MPI_Type_vector(4, 1, 4, MPI_DOUBLE, &column);
    MPI_Type_create_resized(column, 0, sizeof(double), &column1);
    MPI_Type_free(&column);
    MPI_Type_commit(&column1);
    MPI_Sendrecv(&m[0][2], 1, column1, next, 8, col, 4, MPI_DOUBLE, prev, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < 4; i++) CHECK(col[i] == prev * 100 + 4 * i + 2);

    /* MINLOC / MAXLOC on padded pairs; ties prefer the smaller rank. */
    struct { double v; int i; } mine = {(double)(rank % 3), rank}, lo, hi;
    MPI_Allreduce(&mine, &lo, 1, MPI_DOUBLE_INT, MPI_MINLOC, MPI_COMM_WORLD);
    MPI_Allreduce(&mine, &hi, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
    CHECK(lo.v == 0.0);
    CHECK_EQ(lo.i, 0);
    CHECK(hi.v == (size >= 3 ? 2.0 : (double)(size - 1)));
    CHECK_EQ(hi.i, size >= 3 ? 2 : size - 1);

    /* Long double (quad, soft-float) and complex sums. */
    long double ld = 0.5L + rank, ldsum = 0;
    MPI_Allreduce(&ld, &ldsum, 1, MPI_LONG_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    CHECK(ldsum == 0.5L * size + (long double)size * (size - 1) / 2);
    double z[2] = {1.0, (double)rank}, zsum[2];
    MPI_Allreduce(z, zsum, 1, MPI_C_DOUBLE_COMPLEX, MPI_SUM, MPI_COMM_WORLD);
    CHECK(zsum[0] == size);
    CHECK(zsum[1] == size * (size - 1) / 2.0);

    /* Pack / unpack; the overflow must come back as an error. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    char buffer[64];
    int position = 0, a = rank, b[2];
    double d = 1.5;
    MPI_Pack(&a, 1, MPI_INT, buffer, sizeof(buffer), &position, MPI_COMM_WORLD);
    MPI_Pack(&d, 1, MPI_DOUBLE, buffer, sizeof(buffer), &position, MPI_COMM_WORLD);
    CHECK_EQ(position, 12);
    CHECK_EQ(MPI_Pack(b, 16, MPI_INT, buffer, sizeof(buffer), &position, MPI_COMM_WORLD) != MPI_SUCCESS, 1);

    /* Groups: the odd ranks, and my rank in them. */
    MPI_Group world, odd;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int range[1][3] = {{1, size - 1, 2}};
    if (size > 1) {
        MPI_Group_range_incl(world, 1, range, &odd);
        int godd = -5;
        MPI_Group_rank(odd, &godd);
        CHECK_EQ(godd, rank % 2 ? rank / 2 : MPI_UNDEFINED);
        MPI_Group_free(&odd);
    }
    MPI_Group_free(&world);

    char name[MPI_MAX_OBJECT_NAME];
    int len;
    MPI_Type_get_name(MPI_DOUBLE_INT, name, &len);
    CHECK(strcmp(name, "MPI_DOUBLE_INT") == 0);

    for (int i = 0; i < rank % 4; i++) MPI_Type_free(&filler[i]);
    MPI_Type_free(&rec);
    MPI_Type_free(&column1);
    int rc = check_finish("mpi_objects");
    MPI_Finalize();
    return rc;
}
