/* MPI_Ireduce and MPI_Iallreduce: sums from every root, several outstanding at once on one
 * communicator, MPI_IN_PLACE, a non-commutative program operation (combined in rank
 * order), zero counts, and the error classes of bad arguments reported by the I-call. */
#include <stdlib.h>

#include "nbc.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);

    /* One Ireduce per root, all outstanding together, then one Iallreduce. */
    enum { kCount = 100 };
    int *in = malloc(kCount * sizeof(int)), *out = malloc((size_t)n * kCount * sizeof(int));
    MPI_Request *reqs = malloc((n + 1) * sizeof(MPI_Request));
    for (int i = 0; i < kCount; i++)
        in[i] = rank * 1000 + i;
    for (int root = 0; root < n; root++)
        MPI_Ireduce(in, out + root * kCount, kCount, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD,
                    &reqs[root]);
    int all[kCount];
    MPI_Iallreduce(in, all, kCount, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &reqs[n]);
    MPI_Waitall(n + 1, reqs, MPI_STATUSES_IGNORE);
    int bad = 0;
    for (int i = 0; i < kCount; i++) {
        bad += out[rank * kCount + i] != 1000 * n * (n - 1) / 2 + n * i;
        bad += all[i] != (n - 1) * 1000 + i;
    }
    SUITE_CHECK(bad == 0, "%d wrong sums or maxima", bad);
    for (int r = 0; r <= n; r++)
        SUITE_CHECK(reqs[r] == MPI_REQUEST_NULL, "request %d not freed by MPI_Waitall", r);

    /* In place: Iallreduce on every rank, Ireduce at its root. */
    for (int i = 0; i < kCount; i++)
        all[i] = rank + i;
    MPI_Request req;
    MPI_Iallreduce(MPI_IN_PLACE, all, kCount, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
    MPI_Status status;
    MPI_Wait(&req, &status);
    bad = 0;
    for (int i = 0; i < kCount; i++)
        bad += all[i] != n * (n - 1) / 2 + n * i;
    SUITE_CHECK(bad == 0, "in-place Iallreduce: %d wrong", bad);
    SUITE_CHECK(status.MPI_SOURCE == MPI_ANY_SOURCE && status.MPI_TAG == MPI_ANY_TAG,
                "a collective's status is empty (source %d, tag %d)", status.MPI_SOURCE,
                status.MPI_TAG);
    int v = rank + 1, root = n - 1;
    if (rank == root)
        MPI_Ireduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_PROD, root, MPI_COMM_WORLD, &req);
    else
        MPI_Ireduce(&v, NULL, 1, MPI_INT, MPI_PROD, root, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (rank == root) {
        int expect = 1;
        for (int r = 1; r <= n; r++)
            expect *= r;
        SUITE_CHECK(v == expect, "in-place Ireduce product %d, expected %d", v, expect);
    }

    /* A non-commutative operation, to rank 0, to the last rank and to all. */
    MPI_Datatype word_type;
    MPI_Op concat;
    nbc_word_setup(&word_type, &concat);
    nbc_word mine[3], to0[3], tolast[3], everyone[3];
    for (int i = 0; i < 3; i++)
        mine[i] = nbc_digit(rank + i * 0);
    MPI_Request three[3];
    MPI_Ireduce(mine, to0, 3, word_type, concat, 0, MPI_COMM_WORLD, &three[0]);
    MPI_Ireduce(mine, tolast, 3, word_type, concat, n - 1, MPI_COMM_WORLD, &three[1]);
    MPI_Iallreduce(mine, everyone, 3, word_type, concat, MPI_COMM_WORLD, &three[2]);
    MPI_Waitall(3, three, MPI_STATUSES_IGNORE);
    nbc_word expect = nbc_word_of(0, n - 1);
    for (int i = 0; i < 3; i++) {
        SUITE_CHECK(nbc_same(everyone[i], expect), "Iallreduce word %ld, expected %ld",
                    everyone[i].value, expect.value);
        if (rank == 0)
            SUITE_CHECK(nbc_same(to0[i], expect), "Ireduce to 0: word %ld, expected %ld",
                        to0[i].value, expect.value);
        if (rank == n - 1)
            SUITE_CHECK(nbc_same(tolast[i], expect), "Ireduce to %d: word %ld, expected %ld",
                        n - 1, tolast[i].value, expect.value);
    }
    nbc_word_free(&word_type, &concat);

    /* Zero counts complete with nothing moved. */
    int untouched = 7;
    MPI_Iallreduce(in, &untouched, 0, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    SUITE_CHECK(untouched == 7, "a zero-count Iallreduce wrote its buffer");

    /* Bad arguments fail at the I-call with the standard's classes, on every rank alike. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    NBC_EXPECT_CLASS(MPI_Iallreduce(in, all, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req), MPI_ERR_COUNT);
    NBC_EXPECT_CLASS(MPI_Iallreduce(in, all, 1, MPI_DATATYPE_NULL, MPI_SUM, MPI_COMM_WORLD, &req), MPI_ERR_TYPE);
    NBC_EXPECT_CLASS(MPI_Iallreduce(in, all, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD, &req), MPI_ERR_OP);
    NBC_EXPECT_CLASS(MPI_Iallreduce(in, all, 1, MPI_INT, MPI_REPLACE, MPI_COMM_WORLD, &req), MPI_ERR_OP);
    NBC_EXPECT_CLASS(MPI_Iallreduce(in, all, 1, MPI_INT, MPI_SUM, MPI_COMM_NULL, &req), MPI_ERR_COMM);
    NBC_EXPECT_CLASS(MPI_Iallreduce(in, all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    NBC_EXPECT_CLASS(MPI_Iallreduce(all, all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req), MPI_ERR_BUFFER);
    NBC_EXPECT_CLASS(MPI_Ireduce(in, out, 1, MPI_INT, MPI_SUM, n, MPI_COMM_WORLD, &req), MPI_ERR_ROOT);
    NBC_EXPECT_CLASS(MPI_Ireduce(in, out, 1, MPI_INT, MPI_SUM, -1, MPI_COMM_WORLD, &req), MPI_ERR_ROOT);
    /* A collective's request cannot be cancelled (MPI 3.1 section 5.12). */
    MPI_Iallreduce(in, all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
    NBC_EXPECT_CLASS(MPI_Cancel(&req), MPI_ERR_REQUEST);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    SUITE_CHECK(all[0] == n * (n - 1) * 1000 / 2, "Iallreduce after a refused cancel: %d", all[0]);

    free(in);
    free(out);
    free(reqs);
    return suite_finalize();
}
