/* The profiling interface (MPI 3.1 chapter 14): the program defines its own MPI_Send,
 * MPI_Recv and MPI_Allreduce, counts the calls and forwards them to PMPI_*. Only the
 * program's own calls are counted: LWMPI's collectives and Sendrecv do not call the
 * program's MPI_Send. */
#include "suite.h"

static _Thread_local int sends, recvs, allreduces;

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    sends++;
    return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             MPI_Status *status)
{
    recvs++;
    return PMPI_Recv(buf, count, type, source, tag, comm, status);
}

int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm)
{
    allreduces++;
    return PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;

    /* A ring, even ranks sending first. */
    int out = rank, in = -1;
    if (rank % 2 == 0) {
        MPI_Send(&out, 1, MPI_INT, right, 1, MPI_COMM_WORLD);
        MPI_Recv(&in, 1, MPI_INT, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(&in, 1, MPI_INT, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&out, 1, MPI_INT, right, 1, MPI_COMM_WORLD);
    }
    SUITE_CHECK(in == left, "received %d from the left neighbour, expected %d", in, left);

    int sum = 0;
    MPI_Allreduce(&out, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    SUITE_CHECK(sum == size * (size - 1) / 2, "allreduce sum %d", sum);

    /* Calls the program did not wrap, whose implementations move messages too. */
    MPI_Sendrecv(&out, 1, MPI_INT, right, 2, &in, 1, MPI_INT, left, 2, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Bcast(&sum, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);

    SUITE_CHECK(sends == 1, "MPI_Send called %d times through the wrapper, expected 1", sends);
    SUITE_CHECK(recvs == 1, "MPI_Recv called %d times through the wrapper, expected 1", recvs);
    SUITE_CHECK(allreduces == 1, "MPI_Allreduce called %d times, expected 1", allreduces);
    /* suite_finalize's own Allreduce goes through the wrapper: that is the program's call. */
    return suite_finalize();
}
