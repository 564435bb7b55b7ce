/* MPI_Ibarrier and MPI_Ibcast: a broadcast from every root outstanding at once on one
 * communicator, a non-contiguous type, zero counts, a barrier between two broadcasts
 * waited for in reverse order, and the error classes of bad arguments. */
#include <stdlib.h>

#include "nbc.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);

    MPI_Request req;
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    SUITE_CHECK(req == MPI_REQUEST_NULL, "MPI_Wait left the Ibarrier request");

    /* Every root at once: root r sends r * 1000 + i. */
    enum { kCount = 300 };
    int *data = malloc((size_t)n * kCount * sizeof(int));
    MPI_Request *reqs = malloc(n * sizeof(MPI_Request));
    for (int root = 0; root < n; root++) {
        for (int i = 0; i < kCount; i++)
            data[root * kCount + i] = rank == root ? root * 1000 + i : -1;
        MPI_Ibcast(data + root * kCount, kCount, MPI_INT, root, MPI_COMM_WORLD, &reqs[root]);
    }
    MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
    int bad = 0;
    for (int root = 0; root < n; root++)
        for (int i = 0; i < kCount; i++)
            bad += data[root * kCount + i] != root * 1000 + i;
    SUITE_CHECK(bad == 0, "%d wrong elements over %d concurrent broadcasts", bad, n);

    /* Bcast, Ibarrier, Bcast outstanding; waited for last to first. */
    int a = rank == 0 ? 11 : 0, b = rank == n - 1 ? 22 : 0;
    MPI_Request three[3];
    MPI_Ibcast(&a, 1, MPI_INT, 0, MPI_COMM_WORLD, &three[0]);
    MPI_Ibarrier(MPI_COMM_WORLD, &three[1]);
    MPI_Ibcast(&b, 1, MPI_INT, n - 1, MPI_COMM_WORLD, &three[2]);
    for (int i = 2; i >= 0; i--)
        MPI_Wait(&three[i], MPI_STATUS_IGNORE);
    SUITE_CHECK(a == 11 && b == 22, "broadcast values %d and %d, expected 11 and 22", a, b);

    /* Every other int of 20, from the last rank. */
    MPI_Datatype every_other;
    MPI_Type_vector(10, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    int buf[20];
    for (int i = 0; i < 20; i++)
        buf[i] = rank == n - 1 ? i : -1;
    MPI_Ibcast(buf, 1, every_other, n - 1, MPI_COMM_WORLD, &req);
    MPI_Type_free(&every_other); /* the pending broadcast keeps the type alive */
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    bad = 0;
    for (int i = 0; i < 20; i++)
        bad += buf[i] != (i % 2 == 0 || rank == n - 1 ? i : -1);
    SUITE_CHECK(bad == 0, "vector Ibcast: %d wrong", bad);

    /* Zero count; a one-rank communicator. */
    MPI_Ibcast(NULL, 0, MPI_INT, 0, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    int self = 5;
    MPI_Ibcast(&self, 1, MPI_INT, 0, MPI_COMM_SELF, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Ibarrier(MPI_COMM_SELF, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    SUITE_CHECK(self == 5, "Ibcast on MPI_COMM_SELF changed the data");

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    NBC_EXPECT_CLASS(MPI_Ibarrier(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    NBC_EXPECT_CLASS(MPI_Ibarrier(MPI_COMM_NULL, &req), MPI_ERR_COMM);
    NBC_EXPECT_CLASS(MPI_Ibcast(buf, 1, MPI_INT, n, MPI_COMM_WORLD, &req), MPI_ERR_ROOT);
    NBC_EXPECT_CLASS(MPI_Ibcast(buf, -1, MPI_INT, 0, MPI_COMM_WORLD, &req), MPI_ERR_COUNT);
    NBC_EXPECT_CLASS(MPI_Ibcast(buf, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD, &req), MPI_ERR_TYPE);
    NBC_EXPECT_CLASS(MPI_Ibcast(NULL, 1, MPI_INT, 0, MPI_COMM_WORLD, &req), MPI_ERR_BUFFER);
    SUITE_CHECK(req == MPI_REQUEST_NULL, "a refused I-call left a request");

    free(data);
    free(reqs);
    return suite_finalize();
}
