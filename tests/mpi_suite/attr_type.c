/* Datatype attributes (MPI 3.1 section 6.7.4): copy callbacks on MPI_Type_dup, delete
 * callbacks on MPI_Type_free, MPI_Type_delete_attr and set over a value, attributes on
 * predefined types, keyval kinds, and a callback's error returned by the call. */
#include "suite.h"

static _Thread_local int copies, deletes, fail_now;

static int copy_fn(MPI_Datatype old, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)old; (void)keyval; (void)extra;
    copies++;
    *(void **)out = (char *)in + 1;
    *flag = 1;
    return fail_now ? MPI_ERR_OTHER : MPI_SUCCESS;
}

static int delete_fn(MPI_Datatype type, int keyval, void *value, void *extra)
{
    (void)type; (void)keyval; (void)value; (void)extra;
    deletes++;
    return fail_now ? MPI_ERR_OTHER : MPI_SUCCESS;
}

static void *get(MPI_Datatype type, int keyval, int *flag)
{
    void *value = NULL;
    int err = MPI_Type_get_attr(type, keyval, &value, flag);
    SUITE_CHECK(err == MPI_SUCCESS, "MPI_Type_get_attr returned %d", err);
    return value;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    char base[8];
    int key, nocopy, flag;
    MPI_Type_create_keyval(copy_fn, delete_fn, &key, NULL);
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &nocopy, NULL);

    MPI_Datatype vec, dup;
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    MPI_Type_set_attr(vec, key, base);
    MPI_Type_set_attr(vec, nocopy, base);
    MPI_Type_set_attr(vec, key, base + 2); /* over a value: one delete */
    SUITE_CHECK(deletes == 1, "set over a value ran %d deletes", deletes);
    SUITE_CHECK(get(vec, key, &flag) == base + 2 && flag, "the new value");

    SUITE_CHECK(MPI_Type_dup(vec, &dup) == MPI_SUCCESS, "MPI_Type_dup");
    SUITE_CHECK(copies == 1, "dup ran %d copies", copies);
    SUITE_CHECK(get(dup, key, &flag) == base + 3 && flag, "the copied value");
    get(dup, nocopy, &flag);
    SUITE_CHECK(!flag, "MPI_TYPE_NULL_COPY_FN copied");
    deletes = 0;
    MPI_Type_free(&dup);
    SUITE_CHECK(deletes == 1, "free of the dup ran %d deletes", deletes);

    /* The keyval freed, the attribute stays and its callbacks still run. */
    int freed = key;
    MPI_Type_free_keyval(&freed);
    SUITE_CHECK(freed == MPI_KEYVAL_INVALID, "MPI_Type_free_keyval");
    copies = deletes = 0;
    MPI_Type_dup(vec, &dup);
    SUITE_CHECK(copies == 1 && get(dup, nocopy, &flag) == NULL && !flag, "dup after keyval free");
    MPI_Type_free(&dup);
    MPI_Type_free(&vec);
    SUITE_CHECK(deletes == 2, "frees ran %d deletes", deletes);
    int err = MPI_Type_set_attr(MPI_INT, key, base);
    SUITE_CHECK(err == MPI_ERR_KEYVAL, "a freed keyval: %d", err);

    /* Predefined types carry attributes too, per rank; MPI_Type_dup copies them. */
    int pkey;
    MPI_Type_create_keyval(MPI_TYPE_DUP_FN, delete_fn, &pkey, NULL);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_set_attr(MPI_DOUBLE, pkey, base + rank % 8);
    MPI_Barrier(MPI_COMM_WORLD); /* every rank has set its own value */
    SUITE_CHECK(get(MPI_DOUBLE, pkey, &flag) == base + rank % 8 && flag, "a rank's own value");
    MPI_Type_dup(MPI_DOUBLE, &dup);
    SUITE_CHECK(get(dup, pkey, &flag) == base + rank % 8 && flag, "MPI_TYPE_DUP_FN");
    deletes = 0;
    MPI_Type_free(&dup);
    MPI_Type_delete_attr(MPI_DOUBLE, pkey);
    SUITE_CHECK(deletes == 2, "%d deletes", deletes);
    get(MPI_DOUBLE, pkey, &flag);
    SUITE_CHECK(!flag, "a deleted attribute of MPI_DOUBLE");

    /* Errors. */
    int ckey;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ckey, NULL);
    err = MPI_Type_set_attr(MPI_INT, ckey, base);
    SUITE_CHECK(err == MPI_ERR_KEYVAL, "a communicator keyval on a type: %d", err);
    err = MPI_Type_get_attr(MPI_DATATYPE_NULL, pkey, base, &flag);
    SUITE_CHECK(err == MPI_ERR_TYPE, "MPI_DATATYPE_NULL: %d", err);
    err = MPI_Type_free_keyval(&ckey);
    SUITE_CHECK(err == MPI_ERR_KEYVAL, "freeing a communicator keyval as a type's: %d", err);
    MPI_Comm_free_keyval(&ckey);

    MPI_Type_contiguous(2, MPI_INT, &vec);
    MPI_Type_set_attr(vec, pkey, base);
    fail_now = 1;
    MPI_Datatype kept = vec;
    err = MPI_Type_free(&vec);
    SUITE_CHECK(err == MPI_ERR_OTHER && vec == kept, "a failing delete on free: %d", err);
    fail_now = 0;
    SUITE_CHECK(MPI_Type_free(&vec) == MPI_SUCCESS, "free once delete works");

    int fkey;
    MPI_Type_create_keyval(copy_fn, MPI_TYPE_NULL_DELETE_FN, &fkey, NULL);
    MPI_Type_contiguous(2, MPI_INT, &vec);
    MPI_Type_set_attr(vec, fkey, base);
    fail_now = 1;
    dup = MPI_INT;
    err = MPI_Type_dup(vec, &dup);
    SUITE_CHECK(err == MPI_ERR_OTHER && dup == MPI_DATATYPE_NULL, "a failing copy: %d", err);
    fail_now = 0;
    MPI_Type_free(&vec);
    MPI_Type_free_keyval(&fkey);
    MPI_Type_free_keyval(&pkey);
    MPI_Type_free_keyval(&nocopy);
    return suite_finalize();
}
