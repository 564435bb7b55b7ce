/* Info objects (MPI 3.1 chapter 9): set, get (truncating), lengths, key order, dup,
 * delete, free, MPI_INFO_ENV, the key and value limits and the error classes, and info
 * arguments of other calls (MPI_Alloc_mem, MPI_Comm_split_type, MPI_Comm_dup_with_info,
 * MPI_Comm_set_info, MPI_Comm_get_info). */
#include <stdlib.h>
#include <string.h>

#include "suite.h"

static void basics(void)
{
    MPI_Info info;
    char value[MPI_MAX_INFO_VAL + 1], key[MPI_MAX_INFO_KEY + 1];
    int flag, n, len;
    SUITE_CHECK(MPI_Info_create(&info) == MPI_SUCCESS, "MPI_Info_create");
    MPI_Info_get_nkeys(info, &n);
    SUITE_CHECK(n == 0, "a new info has %d keys", n);
    MPI_Info_set(info, "zeta", "1");
    MPI_Info_set(info, "alpha", "two");
    MPI_Info_set(info, "mid", "three");
    MPI_Info_set(info, "zeta", "one"); /* replaces, keeps its place */
    MPI_Info_get_nkeys(info, &n);
    SUITE_CHECK(n == 3, "%d keys, expected 3", n);
    const char *order[] = {"zeta", "alpha", "mid"};
    for (int i = 0; i < 3; i++) {
        MPI_Info_get_nthkey(info, i, key);
        SUITE_CHECK(strcmp(key, order[i]) == 0, "key %d is '%s', expected '%s'", i, key, order[i]);
    }
    MPI_Info_get(info, "zeta", MPI_MAX_INFO_VAL, value, &flag);
    SUITE_CHECK(flag && strcmp(value, "one") == 0, "zeta = '%s'", value);
    MPI_Info_get(info, "mid", 2, value, &flag); /* truncated to 2 characters */
    SUITE_CHECK(flag && strcmp(value, "th") == 0, "truncated value '%s'", value);
    MPI_Info_get_valuelen(info, "mid", &len, &flag);
    SUITE_CHECK(flag && len == 5, "valuelen %d", len);
    MPI_Info_get(info, "absent", MPI_MAX_INFO_VAL, value, &flag);
    SUITE_CHECK(!flag, "an absent key was found");
    MPI_Info_get_valuelen(info, "absent", &len, &flag);
    SUITE_CHECK(!flag, "an absent key has a length");

    MPI_Info dup;
    MPI_Info_dup(info, &dup);
    MPI_Info_delete(info, "alpha");
    MPI_Info_get_nkeys(info, &n);
    SUITE_CHECK(n == 2, "%d keys after delete", n);
    MPI_Info_get_nthkey(info, 1, key);
    SUITE_CHECK(strcmp(key, "mid") == 0, "key 1 after delete '%s'", key);
    MPI_Info_get_nkeys(dup, &n);
    MPI_Info_get(dup, "alpha", MPI_MAX_INFO_VAL, value, &flag);
    SUITE_CHECK(n == 3 && flag && strcmp(value, "two") == 0, "the dup is independent");
    MPI_Info_free(&dup);
    SUITE_CHECK(dup == MPI_INFO_NULL, "MPI_Info_free sets MPI_INFO_NULL");
    MPI_Info_free(&info);
}

static void limits_and_errors(void)
{
    MPI_Info info;
    MPI_Info_create(&info);
    /* The longest key and value fill buffers of MPI_MAX_INFO_KEY and MPI_MAX_INFO_VAL. */
    char *key = malloc(MPI_MAX_INFO_KEY + 1);
    char *value = malloc(MPI_MAX_INFO_VAL + 1);
    memset(key, 'k', MPI_MAX_INFO_KEY);
    key[MPI_MAX_INFO_KEY - 1] = '\0';
    memset(value, 'v', MPI_MAX_INFO_VAL);
    value[MPI_MAX_INFO_VAL - 1] = '\0';
    int flag, len, err;
    err = MPI_Info_set(info, key, value);
    SUITE_CHECK(err == MPI_SUCCESS, "the longest key and value: %d", err);
    MPI_Info_get_valuelen(info, key, &len, &flag);
    SUITE_CHECK(flag && len == MPI_MAX_INFO_VAL - 1, "valuelen %d", len);
    char *got = malloc(MPI_MAX_INFO_VAL);
    MPI_Info_get(info, key, MPI_MAX_INFO_VAL - 1, got, &flag);
    SUITE_CHECK(flag && strcmp(got, value) == 0, "the longest value back");
    char nth[MPI_MAX_INFO_KEY];
    MPI_Info_get_nthkey(info, 0, nth);
    SUITE_CHECK(strcmp(nth, key) == 0, "the longest key back");

    key[MPI_MAX_INFO_KEY - 1] = 'k';
    key[MPI_MAX_INFO_KEY] = '\0';
    err = MPI_Info_set(info, key, "x");
    SUITE_CHECK(err == MPI_ERR_INFO_KEY, "a key too long: %d", err);
    err = MPI_Info_get(info, key, 10, got, &flag);
    SUITE_CHECK(err == MPI_ERR_INFO_KEY, "get with a key too long: %d", err);
    err = MPI_Info_set(info, "", "x");
    SUITE_CHECK(err == MPI_ERR_INFO_KEY, "an empty key: %d", err);
    value[MPI_MAX_INFO_VAL - 1] = 'v';
    value[MPI_MAX_INFO_VAL] = '\0';
    err = MPI_Info_set(info, "k", value);
    SUITE_CHECK(err == MPI_ERR_INFO_VALUE, "a value too long: %d", err);
    err = MPI_Info_delete(info, "absent");
    SUITE_CHECK(err == MPI_ERR_INFO_NOKEY, "deleting an absent key: %d", err);
    err = MPI_Info_get_nthkey(info, 1, nth);
    SUITE_CHECK(err == MPI_ERR_ARG, "key number 1 of 1: %d", err);
    err = MPI_Info_get_nthkey(info, -1, nth);
    SUITE_CHECK(err == MPI_ERR_ARG, "key number -1: %d", err);
    err = MPI_Info_get(info, "k", -1, got, &flag);
    SUITE_CHECK(err == MPI_ERR_ARG, "a negative valuelen: %d", err);
    int n;
    err = MPI_Info_get_nkeys(MPI_INFO_NULL, &n);
    SUITE_CHECK(err == MPI_ERR_INFO, "MPI_INFO_NULL: %d", err);
    err = MPI_Info_set(MPI_COMM_WORLD, "k", "v");
    SUITE_CHECK(err == MPI_ERR_INFO, "a communicator as an info: %d", err);
    MPI_Info freed = info;
    MPI_Info_free(&info);
    err = MPI_Info_get_nkeys(freed, &n);
    SUITE_CHECK(err == MPI_ERR_INFO, "a freed info: %d", err);
    err = MPI_Info_free(&freed);
    SUITE_CHECK(err == MPI_ERR_INFO, "freeing twice: %d", err);
    free(key);
    free(value);
    free(got);

    /* MPI_INFO_ENV: predefined, readable, never freed. */
    char v[MPI_MAX_INFO_VAL + 1];
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Info_get(MPI_INFO_ENV, "maxprocs", MPI_MAX_INFO_VAL, v, &flag);
    SUITE_CHECK(flag && atoi(v) == size, "MPI_INFO_ENV maxprocs = '%s'", flag ? v : "");
    MPI_Info env = MPI_INFO_ENV;
    err = MPI_Info_free(&env);
    SUITE_CHECK(err == MPI_ERR_INFO && env == MPI_INFO_ENV, "freeing MPI_INFO_ENV: %d", err);
    MPI_Info env_copy;
    MPI_Info_dup(MPI_INFO_ENV, &env_copy);
    MPI_Info_get_nkeys(env_copy, &n);
    SUITE_CHECK(n >= 1, "the copy of MPI_INFO_ENV has %d keys", n);
    MPI_Info_free(&env_copy);
}

static _Thread_local int delete_count;
static int count_delete(MPI_Comm c, int k, void *v, void *e)
{
    (void)c; (void)k; (void)v; (void)e;
    delete_count++;
    return MPI_SUCCESS;
}

static void info_arguments(void)
{
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "no_locks", "true");
    void *mem = NULL;
    SUITE_CHECK(MPI_Alloc_mem(64, info, &mem) == MPI_SUCCESS && mem, "MPI_Alloc_mem with info");
    MPI_Free_mem(mem);
    int err = MPI_Alloc_mem(64, MPI_GROUP_EMPTY, &mem);
    SUITE_CHECK(err == MPI_ERR_INFO, "MPI_Alloc_mem with a bad info: %d", err);

    MPI_Comm node;
    err = MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, info, &node);
    SUITE_CHECK(err == MPI_SUCCESS, "MPI_Comm_split_type with info: %d", err);
    MPI_Comm_free(&node);

    /* Comm_dup_with_info copies attributes as MPI_Comm_dup does. */
    int key, flag, value = 5;
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, count_delete, &key, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, key, &value);
    MPI_Comm dup;
    err = MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &dup);
    SUITE_CHECK(err == MPI_SUCCESS, "MPI_Comm_dup_with_info: %d", err);
    void *got = NULL;
    MPI_Comm_get_attr(dup, key, &got, &flag);
    SUITE_CHECK(flag && got == &value, "the attribute was copied");
    int result;
    MPI_Comm_compare(MPI_COMM_WORLD, dup, &result);
    SUITE_CHECK(result == MPI_CONGRUENT, "compare %d", result);
    SUITE_CHECK(MPI_Comm_set_info(dup, info) == MPI_SUCCESS, "MPI_Comm_set_info");
    MPI_Info used;
    SUITE_CHECK(MPI_Comm_get_info(dup, &used) == MPI_SUCCESS && used != MPI_INFO_NULL,
                "MPI_Comm_get_info");
    int n = -1;
    MPI_Info_get_nkeys(used, &n);
    SUITE_CHECK(n == 0, "LWMPI uses no hints, yet %d were reported", n);
    MPI_Info_free(&used);
    err = MPI_Comm_set_info(dup, MPI_INFO_NULL);
    SUITE_CHECK(err == MPI_ERR_INFO, "MPI_Comm_set_info(MPI_INFO_NULL): %d", err);
    err = MPI_Comm_dup_with_info(MPI_COMM_WORLD, 77, &dup);
    SUITE_CHECK(err == MPI_ERR_INFO, "MPI_Comm_dup_with_info with a bad info: %d", err);
    MPI_Comm_free(&dup);
    SUITE_CHECK(delete_count == 1, "%d deletes after freeing the dup", delete_count);
    MPI_Comm_delete_attr(MPI_COMM_WORLD, key);
    SUITE_CHECK(delete_count == 2, "%d deletes after delete_attr", delete_count);
    MPI_Comm_free_keyval(&key);
    MPI_Info_free(&info);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    basics();
    limits_and_errors();
    info_arguments();
    return suite_finalize();
}
