/* Messages no buffer of the cluster can hold get MPI_ERR_COUNT on every call that names
 * one (send, receive, nonblocking, probe-free collectives' point-to-point cousins), and
 * nothing moves: the ranks go on and a correct message still arrives afterwards. */
#include <limits.h>
#include <stdlib.h>

#include "mpi_check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int peer = rank ^ 1;
    char small[16];
    int cls;
    MPI_Request req;
    /* INT_MAX doubles: 16 GiB, more than any cluster's memory. */
    if (peer < size) {
        MPI_Error_class(MPI_Send(small, INT_MAX, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD), &cls);
        CHECK_EQ(cls, MPI_ERR_COUNT);
        MPI_Error_class(MPI_Ssend(small, INT_MAX, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD), &cls);
        CHECK_EQ(cls, MPI_ERR_COUNT);
        MPI_Error_class(MPI_Recv(small, INT_MAX, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE), &cls);
        CHECK_EQ(cls, MPI_ERR_COUNT);
        MPI_Error_class(MPI_Isend(small, INT_MAX, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req), &cls);
        CHECK_EQ(cls, MPI_ERR_COUNT);
        MPI_Error_class(MPI_Irecv(small, INT_MAX, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req), &cls);
        CHECK_EQ(cls, MPI_ERR_COUNT);
        /* 1 GiB of bytes on a contiguous type: still larger than a cluster. */
        MPI_Datatype big;
        MPI_Type_contiguous(1 << 30, MPI_BYTE, &big);
        MPI_Type_commit(&big);
        MPI_Error_class(MPI_Send(small, 1, big, peer, 0, MPI_COMM_WORLD), &cls);
        CHECK_EQ(cls, MPI_ERR_COUNT);
        MPI_Type_free(&big);
        /* The pair still talks: a real message after the refused ones. */
        int out = rank * 10 + 1, in = -1;
        MPI_Sendrecv(&out, 1, MPI_INT, peer, 1, &in, 1, MPI_INT, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK_EQ(in, peer * 10 + 1);
    }
    int status = check_finish("mpi_huge");
    MPI_Finalize();
    return status;
}
