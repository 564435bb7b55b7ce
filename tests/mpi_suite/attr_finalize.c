/* MPI_Finalize first deletes the attributes of MPI_COMM_SELF, newest first, while MPI is
 * still fully usable (MPI 3.1 section 8.7.1): the last delete callback sums the failures of
 * every rank and prints the verdict. */
#include <string.h>

#include "suite.h"

static _Thread_local char order[8];
static _Thread_local int deleted;

static int delete_fn(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)keyval; (void)extra;
    SUITE_CHECK(comm == MPI_COMM_SELF, "the callback got communicator %d", comm);
    order[deleted++] = *(const char *)value;
    int finalized = 1;
    MPI_Finalized(&finalized);
    SUITE_CHECK(!finalized, "MPI_Finalized said true inside the callback");
    if (*(const char *)value == '1') {  /* the oldest: the last one deleted */
        SUITE_CHECK(strcmp(order, "321") == 0, "deleted in the order '%s', expected '321'", order);
        int total = -1, rank = -1;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        MPI_Allreduce(&suite_errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        if (rank == 0 && total == 0)
            printf("No Errors\n");
        else if (rank == 0)
            printf(" Found %d errors\n", total);
    }
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    static const char values[] = "123";
    MPI_Init(&argc, &argv);
    int k1, k2, k3;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_fn, &k1, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_fn, &k2, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_fn, &k3, NULL);
    MPI_Comm_set_attr(MPI_COMM_SELF, k1, (void *)&values[0]);
    MPI_Comm_set_attr(MPI_COMM_SELF, k2, (void *)&values[1]);
    MPI_Comm_set_attr(MPI_COMM_SELF, k3, (void *)&values[2]);
    MPI_Comm_free_keyval(&k1); /* the attribute keeps the keyval */
    int err = MPI_Finalize();
    return err == MPI_SUCCESS && deleted == 3 ? 0 : 1;
}
