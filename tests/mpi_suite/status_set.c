/* Setting a status (MPI 3.1 section 12.3): MPI_Status_set_elements(_x) makes MPI_Get_elements
 * answer the count set and MPI_Get_count the matching whole count (or MPI_UNDEFINED),
 * for basic and derived types; MPI_Status_set_cancelled is what MPI_Test_cancelled reads;
 * and MPI_Reduce_local (5.9.7) with predefined and user operations. */
#include "suite.h"

static void user_max(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    int *a = in, *b = inout;
    for (int i = 0; i < *len; i++)
        if (a[i] > b[i])
            b[i] = a[i];
}

static void status_setters(void)
{
    MPI_Status st;
    int count = -1, err;
    MPI_Count big = -1;
    MPI_Status_set_elements(&st, MPI_DOUBLE, 5);
    MPI_Get_count(&st, MPI_DOUBLE, &count);
    SUITE_CHECK(count == 5, "Get_count after set_elements(5 doubles): %d", count);
    MPI_Get_elements(&st, MPI_DOUBLE, &count);
    SUITE_CHECK(count == 5, "Get_elements: %d", count);
    MPI_Get_count(&st, MPI_BYTE, &count);
    SUITE_CHECK(count == 5 * (int)sizeof(double), "bytes: %d", count);

    /* A struct of one int and one double: 5 basic elements are 2 whole ones and an int. */
    int lengths[2] = {1, 1};
    MPI_Aint displs[2] = {0, 8};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, pair;
    MPI_Type_create_struct(2, lengths, displs, types, &pair);
    MPI_Type_commit(&pair);
    MPI_Status_set_elements(&st, pair, 5);
    MPI_Get_elements(&st, pair, &count);
    SUITE_CHECK(count == 5, "Get_elements of a struct type after setting 5: %d", count);
    MPI_Get_count(&st, pair, &count);
    SUITE_CHECK(count == MPI_UNDEFINED, "Get_count of 2.5 pairs: %d", count);
    MPI_Status_set_elements_x(&st, pair, 6);
    MPI_Get_elements_x(&st, pair, &big);
    MPI_Get_count(&st, pair, &count);
    SUITE_CHECK(big == 6 && count == 3, "set_elements_x(6): %lld elements, %d pairs", (long long)big, count);
    MPI_Type_free(&pair);

    MPI_Status_set_elements_x(&st, MPI_CHAR, (MPI_Count)3 << 32);
    MPI_Get_elements_x(&st, MPI_CHAR, &big);
    SUITE_CHECK(big == (MPI_Count)3 << 32, "a count past int: %lld", (long long)big);

    int flag = -1;
    MPI_Status_set_cancelled(&st, 1);
    MPI_Test_cancelled(&st, &flag);
    SUITE_CHECK(flag == 1, "set_cancelled(1) read back %d", flag);
    MPI_Status_set_cancelled(&st, 0);
    MPI_Test_cancelled(&st, &flag);
    SUITE_CHECK(flag == 0, "set_cancelled(0) read back %d", flag);

    err = MPI_Status_set_elements(MPI_STATUS_IGNORE, MPI_INT, 1);
    SUITE_CHECK(err == MPI_ERR_ARG, "set_elements on MPI_STATUS_IGNORE returned %d", err);
    err = MPI_Status_set_elements(&st, MPI_DATATYPE_NULL, 1);
    SUITE_CHECK(err == MPI_ERR_TYPE, "set_elements of MPI_DATATYPE_NULL returned %d", err);
    err = MPI_Status_set_elements(&st, MPI_INT, -1);
    SUITE_CHECK(err == MPI_ERR_COUNT, "set_elements of -1 returned %d", err);
    err = MPI_Status_set_cancelled(NULL, 1);
    SUITE_CHECK(err == MPI_ERR_ARG, "set_cancelled on NULL returned %d", err);
}

static void reduce_local(int rank)
{
    int in[4] = {1, 20, 3, 40}, inout[4] = {10, 2, 30, rank};
    MPI_Reduce_local(in, inout, 4, MPI_INT, MPI_SUM);
    SUITE_CHECK(inout[0] == 11 && inout[1] == 22 && inout[2] == 33 && inout[3] == 40 + rank, "SUM");
    double din[2] = {1.5, -2.0}, dio[2] = {2.0, 3.0};
    MPI_Reduce_local(din, dio, 2, MPI_DOUBLE, MPI_PROD);
    SUITE_CHECK(dio[0] == 3.0 && dio[1] == -6.0, "PROD %g %g", dio[0], dio[1]);
    MPI_Op op;
    MPI_Op_create(user_max, 1, &op);
    int a[3] = {5, 1, 9}, b[3] = {2, 8, 9};
    MPI_Reduce_local(a, b, 3, MPI_INT, op);
    SUITE_CHECK(b[0] == 5 && b[1] == 8 && b[2] == 9, "user op");
    int err = MPI_Reduce_local(a, b, 0, MPI_INT, MPI_SUM);
    SUITE_CHECK(err == MPI_SUCCESS, "count 0 returned %d", err);
    err = MPI_Reduce_local(a, b, -1, MPI_INT, MPI_SUM);
    SUITE_CHECK(err == MPI_ERR_COUNT, "count -1 returned %d", err);
    err = MPI_Reduce_local(a, b, 3, MPI_INT, MPI_OP_NULL);
    SUITE_CHECK(err == MPI_ERR_OP, "MPI_OP_NULL returned %d", err);
    err = MPI_Reduce_local(a, b, 3, MPI_DATATYPE_NULL, MPI_SUM);
    SUITE_CHECK(err == MPI_ERR_TYPE, "MPI_DATATYPE_NULL returned %d", err);
    err = MPI_Reduce_local(a, b, 3, MPI_BYTE, MPI_SUM);
    SUITE_CHECK(err == MPI_ERR_OP, "SUM on MPI_BYTE returned %d", err);
    err = MPI_Reduce_local(MPI_IN_PLACE, b, 3, MPI_INT, MPI_SUM);
    SUITE_CHECK(err == MPI_ERR_BUFFER, "MPI_IN_PLACE returned %d", err);
    err = MPI_Reduce_local(a, NULL, 3, MPI_INT, MPI_SUM);
    SUITE_CHECK(err == MPI_ERR_BUFFER, "a NULL inoutbuf returned %d", err);
    MPI_Op_free(&op);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    status_setters();
    reduce_local(rank);
    return suite_finalize();
}
