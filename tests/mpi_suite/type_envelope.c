/* Decoding datatypes (MPI 3.1 section 4.1.13): MPI_Type_get_envelope and
 * MPI_Type_get_contents give back each constructor's combiner and arguments; predefined
 * types are MPI_COMBINER_NAMED; derived inner types come back as new types that the program
 * frees (a recursive decoder that frees them leaks nothing: every decoded type still
 * works); bad arguments get their error classes. */
#include <stdlib.h>

#include "suite.h"

/* Decodes `type` down to its predefined leaves, freeing every derived type it gets back;
 * returns the number of constructors seen. */
static int decode_depth(MPI_Datatype type)
{
    int ni, na, nd, combiner;
    MPI_Type_get_envelope(type, &ni, &na, &nd, &combiner);
    if (combiner == MPI_COMBINER_NAMED)
        return 0;
    int *ints = malloc(sizeof(int) * (ni + 1));
    MPI_Aint *aints = malloc(sizeof(MPI_Aint) * (na + 1));
    MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * (nd + 1));
    int rc = MPI_Type_get_contents(type, ni, na, nd, ints, aints, types);
    SUITE_CHECK(rc == MPI_SUCCESS, "get_contents failed: %d", rc);
    int deepest = 0;
    for (int i = 0; rc == MPI_SUCCESS && i < nd; i++) {
        int depth = decode_depth(types[i]);
        if (depth > deepest)
            deepest = depth;
        int a, b, c, inner;
        MPI_Type_get_envelope(types[i], &a, &b, &c, &inner);
        if (inner != MPI_COMBINER_NAMED)
            MPI_Type_free(&types[i]);
    }
    free(ints);
    free(aints);
    free(types);
    return deepest + 1;
}

static int error_class(int rc)
{
    int cls = MPI_SUCCESS;
    MPI_Error_class(rc, &cls);
    return cls;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    int ni, na, nd, combiner;
    MPI_Type_get_envelope(MPI_DOUBLE, &ni, &na, &nd, &combiner);
    SUITE_CHECK(combiner == MPI_COMBINER_NAMED && ni == 0 && na == 0 && nd == 0,
                "MPI_DOUBLE: combiner %d", combiner);
    MPI_Type_get_envelope(MPI_2INTEGER, &ni, &na, &nd, &combiner);
    SUITE_CHECK(combiner == MPI_COMBINER_NAMED, "MPI_2INTEGER: combiner %d", combiner);

    /* A struct of a vector of a resized type and a subarray: four levels. */
    MPI_Datatype resized, vector, sub, parts[2], record;
    MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &resized);
    MPI_Type_vector(3, 2, 4, resized, &vector);
    const int sizes[] = {4, 4}, subsizes[] = {2, 2}, starts[] = {1, rank % 3};
    MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_SHORT, &sub);
    parts[0] = vector;
    parts[1] = sub;
    const int lengths[] = {1, 2};
    const MPI_Aint disps[] = {0, 256};
    MPI_Type_create_struct(2, lengths, disps, parts, &record);
    MPI_Type_free(&resized);  /* the vector keeps it */

    MPI_Type_get_envelope(record, &ni, &na, &nd, &combiner);
    SUITE_CHECK(combiner == MPI_COMBINER_STRUCT && ni == 3 && na == 2 && nd == 2,
                "struct envelope: %d %d %d %d", combiner, ni, na, nd);
    int ints[3];
    MPI_Aint aints[2];
    MPI_Datatype inner[2];
    MPI_Type_get_contents(record, 3, 2, 2, ints, aints, inner);
    SUITE_CHECK(ints[0] == 2 && ints[1] == 1 && ints[2] == 2 && aints[0] == 0 && aints[1] == 256,
                "struct contents");
    MPI_Type_get_envelope(inner[0], &ni, &na, &nd, &combiner);
    SUITE_CHECK(combiner == MPI_COMBINER_VECTOR && ni == 3 && nd == 1, "inner vector");
    int vints[3];
    MPI_Datatype vtype;
    MPI_Type_get_contents(inner[0], 3, 0, 1, vints, NULL, &vtype);
    SUITE_CHECK(vints[0] == 3 && vints[1] == 2 && vints[2] == 4, "vector contents");
    MPI_Aint lb, extent;
    MPI_Type_get_extent(vtype, &lb, &extent);
    SUITE_CHECK(lb == 0 && extent == 2 * sizeof(int), "the resized type comes back resized");
    MPI_Type_get_envelope(vtype, &ni, &na, &nd, &combiner);
    SUITE_CHECK(combiner == MPI_COMBINER_RESIZED && na == 2, "resized envelope %d", combiner);
    MPI_Type_free(&vtype);
    MPI_Type_get_envelope(inner[1], &ni, &na, &nd, &combiner);
    SUITE_CHECK(combiner == MPI_COMBINER_SUBARRAY && ni == 8, "inner subarray %d", combiner);
    int sints[8];
    MPI_Datatype stype;
    MPI_Type_get_contents(inner[1], 8, 0, 1, sints, NULL, &stype);
    SUITE_CHECK(sints[0] == 2 && sints[5] == 1 && sints[6] == rank % 3 && sints[7] == MPI_ORDER_C &&
                stype == MPI_SHORT, "subarray contents");
    MPI_Type_free(&inner[0]);
    MPI_Type_free(&inner[1]);

    /* Decoding many times frees what it gets: the types stay usable afterwards. */
    for (int i = 0; i < 50; i++)
        SUITE_CHECK(decode_depth(record) == 3, "depth of the record");
    MPI_Type_commit(&record);
    int bytes = 0;
    MPI_Type_size(record, &bytes);
    SUITE_CHECK(bytes == (int)(6 * sizeof(int) + 8 * sizeof(short)), "record size %d", bytes);

    /* The record goes around the ring: a decoded type still sends. */
    char *out = calloc(512, 1), *in = calloc(512, 1);
    for (int i = 0; i < 512; i++)
        out[i] = (char)(i + rank);
    MPI_Sendrecv(out, 1, record, (rank + 1) % size, 0, in, 1, record, (rank + size - 1) % size, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int left = (rank + size - 1) % size;
    /* The vector's ints sit at bytes 0, 8, 32, 40, 64 and 72; byte 16 is a gap. */
    SUITE_CHECK(in[0] == (char)left && in[32] == (char)(32 + left) && in[16] == 0,
                "the vector part arrived, its gaps untouched");
    free(out);
    free(in);
    MPI_Type_free(&vector);
    MPI_Type_free(&sub);

    /* Error classes. */
    SUITE_CHECK(error_class(MPI_Type_get_envelope(MPI_DATATYPE_NULL, &ni, &na, &nd, &combiner)) ==
                MPI_ERR_TYPE, "envelope of MPI_DATATYPE_NULL");
    SUITE_CHECK(error_class(MPI_Type_get_envelope(MPI_INT, &ni, &na, NULL, &combiner)) == MPI_ERR_ARG,
                "envelope with a null count");
    SUITE_CHECK(error_class(MPI_Type_get_contents(MPI_INT, 1, 1, 1, ints, aints, inner)) ==
                MPI_ERR_TYPE, "contents of a named type");
    SUITE_CHECK(error_class(MPI_Type_get_contents(record, 2, 2, 2, ints, aints, inner)) == MPI_ERR_ARG,
                "contents with too few integers");
    SUITE_CHECK(error_class(MPI_Type_get_contents(record, 3, 2, 1, ints, aints, inner)) == MPI_ERR_ARG,
                "contents with too few datatypes");
    MPI_Type_free(&record);
    SUITE_CHECK(error_class(MPI_Type_get_envelope(record, &ni, &na, &nd, &combiner)) == MPI_ERR_TYPE,
                "envelope of a freed type");
    return suite_finalize();
}
