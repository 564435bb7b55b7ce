/* mpi.h compiled as C (C99, pedantic): predefined handles in static initialisers, the
 * status fields, the callback types. Called from mpi_header_test.cpp. */
#include <mpi.h>

static const MPI_Datatype kTypes[] = {MPI_INT, MPI_DOUBLE_INT, MPI_LONG_LONG, MPI_C_BOOL};
static const MPI_Op kOps[] = {MPI_SUM, MPI_MAXLOC};
static const MPI_Comm kComms[] = {MPI_COMM_WORLD, MPI_COMM_SELF, MPI_COMM_NULL};
static MPI_Status status = {1, 2, MPI_SUCCESS, 0, 0};

static void user_sum(void *in, void *inout, int *len, MPI_Datatype *type) {
    (void)in, (void)inout, (void)len, (void)type;
}

int mpi_header_c_check(void) {
    MPI_User_function *fn = user_sum;
    status.MPI_SOURCE = 3;
    status.MPI_TAG = MPI_ANY_TAG;
    return fn != 0 && kTypes[1] == MPI_DOUBLE_INT && kOps[0] == MPI_SUM &&
           kComms[2] == MPI_COMM_NULL && status.MPI_ERROR == MPI_SUCCESS &&
           sizeof(MPI_Aint) == 8 && sizeof(MPI_Count) == 8 && sizeof(MPI_Offset) == 8;
}
