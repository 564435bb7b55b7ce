/* Names and attributes of predefined datatypes: a rank keeps them in tables it makes when it
 * first sets one. Before that, every read works (default names, no attributes, MPI_Type_dup
 * of a predefined type); without memory for the tables, setting a name or an attribute
 * returns MPI_ERR_NO_MEM and changes nothing, and works once memory is back. */
#include <stdlib.h>
#include <string.h>

#include "suite.h"
#include "heap_exhaust.h"

static void check_untouched(MPI_Datatype type, const char *name, int keyval)
{
    char got[MPI_MAX_OBJECT_NAME];
    int len = -1, flag = 1;
    void *value = NULL;
    MPI_Type_get_name(type, got, &len);
    SUITE_CHECK(strcmp(got, name) == 0 && len == (int)strlen(name), "name %s, expected %s", got, name);
    MPI_Type_get_attr(type, keyval, &value, &flag);
    SUITE_CHECK(!flag, "an attribute that was never set is there");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int keyval;
    MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &keyval, NULL);

    /* Reads before any set. */
    check_untouched(MPI_INT, "MPI_INT", keyval);
    SUITE_CHECK(MPI_Type_delete_attr(MPI_INT, keyval) == MPI_SUCCESS, "delete of nothing failed");
    MPI_Datatype dup;
    SUITE_CHECK(MPI_Type_dup(MPI_DOUBLE, &dup) == MPI_SUCCESS, "Type_dup of MPI_DOUBLE failed");
    int flag = 1;
    void *value;
    MPI_Type_get_attr(dup, keyval, &value, &flag);
    SUITE_CHECK(!flag, "the duplicate has an attribute");
    MPI_Type_free(&dup);

    /* Without memory (rank 0 takes the cluster's heap while the others wait in a posted
     * receive, so nothing else needs memory meanwhile). */
    int go = 0;
    if (rank == 0) {
        for (int r = 1; r < n; r++)
            MPI_Recv(&go, 1, MPI_INT, r, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        struct block *hog = take_all_memory();
        int err_name = MPI_Type_set_name(MPI_INT, "my int");
        int err_attr = MPI_Type_set_attr(MPI_DOUBLE, keyval, (void *)(MPI_Aint)5);
        give_back(hog);
        SUITE_CHECK(err_name == MPI_ERR_NO_MEM, "Type_set_name without memory: %d", err_name);
        SUITE_CHECK(err_attr == MPI_ERR_NO_MEM, "Type_set_attr without memory: %d", err_attr);
        check_untouched(MPI_INT, "MPI_INT", keyval);
        check_untouched(MPI_DOUBLE, "MPI_DOUBLE", keyval);
        for (int r = 1; r < n; r++)
            MPI_Send(&go, 1, MPI_INT, r, 2, MPI_COMM_WORLD);
    } else {
        MPI_Request wait_go;
        MPI_Irecv(&go, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, &wait_go);
        MPI_Send(&go, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
        MPI_Wait(&wait_go, MPI_STATUS_IGNORE);
    }

    /* With memory: each rank's own names and attributes. */
    char mine[32];
    snprintf(mine, sizeof mine, "int of rank %d", rank);
    SUITE_CHECK(MPI_Type_set_name(MPI_INT, mine) == MPI_SUCCESS, "Type_set_name failed");
    SUITE_CHECK(MPI_Type_set_attr(MPI_DOUBLE, keyval, (void *)(MPI_Aint)(rank + 5)) == MPI_SUCCESS,
                "Type_set_attr failed");
    MPI_Barrier(MPI_COMM_WORLD);
    char got[MPI_MAX_OBJECT_NAME];
    int len;
    MPI_Type_get_name(MPI_INT, got, &len);
    SUITE_CHECK(strcmp(got, mine) == 0, "name %s, expected %s", got, mine);
    check_untouched(MPI_FLOAT, "MPI_FLOAT", keyval);
    flag = 0;
    MPI_Type_get_attr(MPI_DOUBLE, keyval, &value, &flag);
    SUITE_CHECK(flag && (MPI_Aint)value == rank + 5, "attribute %d (flag %d)", (int)(MPI_Aint)value, flag);
    SUITE_CHECK(MPI_Type_dup(MPI_DOUBLE, &dup) == MPI_SUCCESS, "Type_dup failed");
    flag = 0;
    MPI_Type_get_attr(dup, keyval, &value, &flag);
    SUITE_CHECK(flag && (MPI_Aint)value == rank + 5, "the duplicate's attribute %d", (int)(MPI_Aint)value);
    MPI_Type_free(&dup);
    MPI_Type_delete_attr(MPI_DOUBLE, keyval);
    MPI_Type_free_keyval(&keyval);
    return suite_finalize();
}
