/* Communicator attributes (MPI 3.1 section 6.7): copy callbacks on MPI_Comm_dup (flag 0 does
 * not copy), delete callbacks on MPI_Comm_free, MPI_Comm_delete_attr and on MPI_Comm_set_attr
 * over a value, freed keyvals that live on in their attributes, the predefined callbacks,
 * the MPI-1 forms, and the errors: bad keyvals and a callback's error code returned by the
 * call that ran it. */
#include <string.h>

#include "suite.h"

/* Per rank: the ranks of a cluster share globals. */
static _Thread_local int copies, deletes;
static _Thread_local char events[64];
static _Thread_local int nevents;

static void note(char c)
{
    if (nevents < (int)sizeof events - 1)
        events[nevents++] = c;
    events[nevents] = '\0';
}

/* extra_state is a letter naming the keyval in `events`: lower case copy, upper case delete. */
static int copy_fn(MPI_Comm old, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)old; (void)keyval;
    copies++;
    note(*(const char *)extra);
    *(void **)out = (char *)in + 1; /* the copy differs, so the test sees it was made */
    *flag = 1;
    return MPI_SUCCESS;
}

static int no_copy_fn(MPI_Comm old, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)old; (void)keyval; (void)in; (void)out;
    copies++;
    note(*(const char *)extra);
    *flag = 0;
    return MPI_SUCCESS;
}

static int delete_fn(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm; (void)keyval; (void)value;
    deletes++;
    note((char)(*(const char *)extra - 'a' + 'A'));
    return MPI_SUCCESS;
}

#define CALLBACK_ERROR MPI_ERR_OTHER
static _Thread_local int fail_now;

static int failing_copy_fn(MPI_Comm old, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)old; (void)keyval; (void)extra;
    *(void **)out = in;
    *flag = 1;
    return fail_now ? CALLBACK_ERROR : MPI_SUCCESS;
}

static int failing_delete_fn(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm; (void)keyval; (void)value; (void)extra;
    deletes++;
    return fail_now ? CALLBACK_ERROR : MPI_SUCCESS;
}

static void *get(MPI_Comm comm, int keyval, int *flag)
{
    void *value = NULL;
    int err = MPI_Comm_get_attr(comm, keyval, &value, flag);
    SUITE_CHECK(err == MPI_SUCCESS, "MPI_Comm_get_attr returned %d", err);
    return value;
}

static void copies_and_deletes(void)
{
    static const char a = 'a', b = 'b', c = 'c';
    int ka, kb, kc, flag;
    MPI_Comm_create_keyval(copy_fn, delete_fn, &ka, (void *)&a);
    MPI_Comm_create_keyval(no_copy_fn, delete_fn, &kb, (void *)&b);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_fn, &kc, (void *)&c);
    SUITE_CHECK(ka != kb && kb != kc && ka != MPI_KEYVAL_INVALID, "keyvals %d %d %d", ka, kb, kc);

    char base[8];
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    get(comm, ka, &flag);
    SUITE_CHECK(!flag, "an attribute never set was found");
    MPI_Comm_set_attr(comm, ka, base);
    MPI_Comm_set_attr(comm, kb, base + 2);
    MPI_Comm_set_attr(comm, kc, base + 4);
    SUITE_CHECK(get(comm, kb, &flag) == base + 2 && flag, "kb's value");

    /* Setting over a value deletes the old one first. */
    nevents = 0;
    MPI_Comm_set_attr(comm, kb, base + 3);
    SUITE_CHECK(strcmp(events, "B") == 0, "set over a value ran '%s', expected 'B'", events);
    SUITE_CHECK(get(comm, kb, &flag) == base + 3 && flag, "kb's new value");

    /* Dup: every copy callback runs once; flag 0 and MPI_COMM_NULL_COPY_FN copy nothing. */
    nevents = 0;
    copies = deletes = 0;
    MPI_Comm dup;
    SUITE_CHECK(MPI_Comm_dup(comm, &dup) == MPI_SUCCESS, "MPI_Comm_dup");
    SUITE_CHECK(copies == 2 && deletes == 0, "dup: %d copies, %d deletes", copies, deletes);
    SUITE_CHECK(get(dup, ka, &flag) == base + 1 && flag, "the copy callback's value");
    get(dup, kb, &flag);
    SUITE_CHECK(!flag, "an attribute whose copy callback said flag = 0 was copied");
    get(dup, kc, &flag);
    SUITE_CHECK(!flag, "MPI_COMM_NULL_COPY_FN copied an attribute");
    SUITE_CHECK(get(comm, ka, &flag) == base && flag, "dup changed the original");

    /* Delete_attr runs the delete callback once; deleting again finds nothing. */
    nevents = 0;
    SUITE_CHECK(MPI_Comm_delete_attr(comm, kc) == MPI_SUCCESS, "MPI_Comm_delete_attr");
    SUITE_CHECK(strcmp(events, "C") == 0, "delete_attr ran '%s'", events);
    get(comm, kc, &flag);
    SUITE_CHECK(!flag, "a deleted attribute was found");

    /* A freed keyval is invalid for new calls but its attributes stay until deleted. */
    int freed = kb;
    SUITE_CHECK(MPI_Comm_free_keyval(&freed) == MPI_SUCCESS && freed == MPI_KEYVAL_INVALID,
                "MPI_Comm_free_keyval");

    /* Free: a delete callback for each attribute still set (a and b), newest first. */
    nevents = 0;
    deletes = 0;
    MPI_Comm_free(&comm);
    SUITE_CHECK(deletes == 2 && strcmp(events, "BA") == 0, "free ran %d deletes '%s'", deletes,
                events);
    nevents = 0;
    MPI_Comm_free(&dup);
    SUITE_CHECK(strcmp(events, "A") == 0, "free of the dup ran '%s'", events);

    MPI_Comm_free_keyval(&ka);
    MPI_Comm_free_keyval(&kc);
}

static void predefined_callbacks_and_mpi1(void)
{
    int key, flag, value = 7;
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL);
    MPI_Comm comm, dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_attr(comm, key, &value);
    MPI_Comm_dup(comm, &dup);
    SUITE_CHECK(get(dup, key, &flag) == &value && flag, "MPI_COMM_DUP_FN copies the pointer");
    MPI_Comm_free(&dup);
    MPI_Comm_free(&comm);
    MPI_Comm_free_keyval(&key);

    /* The MPI-1 forms. */
    static const char d = 'd';
    int k1;
    SUITE_CHECK(MPI_Keyval_create(copy_fn, delete_fn, &k1, (void *)&d) == MPI_SUCCESS,
                "MPI_Keyval_create");
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Attr_put(comm, k1, &value);
    void *got = NULL;
    SUITE_CHECK(MPI_Attr_get(comm, k1, &got, &flag) == MPI_SUCCESS && flag && got == &value,
                "MPI_Attr_get");
    MPI_Comm_dup(comm, &dup);
    MPI_Attr_get(dup, k1, &got, &flag);
    SUITE_CHECK(flag && got == (char *)&value + 1, "MPI_Attr_get after dup");
    nevents = 0;
    SUITE_CHECK(MPI_Attr_delete(comm, k1) == MPI_SUCCESS && strcmp(events, "D") == 0,
                "MPI_Attr_delete ran '%s'", events);
    MPI_Keyval_free(&k1);
    SUITE_CHECK(k1 == MPI_KEYVAL_INVALID, "MPI_Keyval_free");
    nevents = 0;
    MPI_Comm_free(&dup);
    SUITE_CHECK(strcmp(events, "D") == 0, "a freed MPI-1 keyval's delete ran '%s'", events);
    MPI_Comm_free(&comm);

    /* The predefined keys still answer on MPI_COMM_WORLD. */
    int *tag_ub = NULL;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag);
    SUITE_CHECK(flag && tag_ub && *tag_ub >= 32767, "MPI_TAG_UB");
    int *last = NULL;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag);
    SUITE_CHECK(flag && last && *last >= MPI_ERR_LASTCODE, "MPI_LASTUSEDCODE");
}

static void errors(void)
{
    int key, tkey, flag, value = 1;
    void *got;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &key, NULL);
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &tkey, NULL);
    int err = MPI_Comm_set_attr(MPI_COMM_WORLD, tkey, &value);
    SUITE_CHECK(err == MPI_ERR_KEYVAL, "a datatype keyval on a communicator: %d", err);
    err = MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value);
    SUITE_CHECK(err == MPI_ERR_KEYVAL, "setting a predefined key: %d", err);
    err = MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_KEYVAL_INVALID, &got, &flag);
    SUITE_CHECK(err == MPI_ERR_KEYVAL, "MPI_KEYVAL_INVALID: %d", err);
    err = MPI_Comm_delete_attr(MPI_COMM_WORLD, 12345);
    SUITE_CHECK(err == MPI_ERR_KEYVAL, "an unknown keyval: %d", err);
    err = MPI_Comm_set_attr(MPI_COMM_NULL, key, &value);
    SUITE_CHECK(err == MPI_ERR_COMM, "MPI_COMM_NULL: %d", err);
    err = MPI_Comm_get_attr(MPI_COMM_WORLD, key, NULL, &flag);
    SUITE_CHECK(err == MPI_ERR_ARG, "no attribute_val: %d", err);
    err = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, NULL, NULL);
    SUITE_CHECK(err == MPI_ERR_ARG, "no keyval argument: %d", err);
    int predefined = MPI_TAG_UB;
    err = MPI_Comm_free_keyval(&predefined);
    SUITE_CHECK(err == MPI_ERR_KEYVAL, "freeing a predefined key: %d", err);
    int copy = key;
    MPI_Comm_free_keyval(&copy);
    err = MPI_Comm_set_attr(MPI_COMM_WORLD, key, &value);
    SUITE_CHECK(err == MPI_ERR_KEYVAL, "a freed keyval: %d", err);
    err = MPI_Comm_free_keyval(&key);
    SUITE_CHECK(err == MPI_ERR_KEYVAL, "freeing a keyval twice: %d", err);
    MPI_Type_free_keyval(&tkey);

    /* A callback's error is the call's error; the operation does not happen. */
    int fkey;
    MPI_Comm_create_keyval(failing_copy_fn, failing_delete_fn, &fkey, NULL);
    MPI_Comm comm, dup = MPI_COMM_WORLD;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_attr(comm, fkey, &value);
    fail_now = 1;
    err = MPI_Comm_dup(comm, &dup);
    SUITE_CHECK(err == CALLBACK_ERROR && dup == MPI_COMM_NULL, "a failing copy: %d", err);
    err = MPI_Comm_set_attr(comm, fkey, &flag);
    SUITE_CHECK(err == CALLBACK_ERROR, "set over a value whose delete fails: %d", err);
    SUITE_CHECK(get(comm, fkey, &flag) == &value && flag, "the old value stays");
    err = MPI_Comm_delete_attr(comm, fkey);
    SUITE_CHECK(err == CALLBACK_ERROR, "a failing delete_attr: %d", err);
    MPI_Comm kept = comm;
    err = MPI_Comm_free(&comm);
    SUITE_CHECK(err == CALLBACK_ERROR && comm == kept, "a failing free: %d", err);
    fail_now = 0;
    deletes = 0;
    SUITE_CHECK(MPI_Comm_free(&comm) == MPI_SUCCESS && deletes == 1, "free once delete works");
    MPI_Comm_free_keyval(&fkey);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    copies_and_deletes();
    predefined_callbacks_and_mpi1();
    errors();
    return suite_finalize();
}
