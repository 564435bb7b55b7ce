/* MPI_Iscan and MPI_Iexscan: sums and a non-commutative operation, MPI_IN_PLACE, both
 * outstanding at once with an Iallreduce, and zero counts. */
#include "nbc.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);

    int v[2] = {rank + 1, 2 * rank}, incl[2], excl[2] = {-1, -1}, total[2];
    MPI_Request reqs[3];
    MPI_Iscan(v, incl, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[0]);
    MPI_Iexscan(v, excl, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[1]);
    MPI_Iallreduce(v, total, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[2]);
    MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE);
    SUITE_CHECK(incl[0] == (rank + 1) * (rank + 2) / 2 && incl[1] == rank * (rank + 1),
                "Iscan gave %d %d", incl[0], incl[1]);
    if (rank > 0)
        SUITE_CHECK(excl[0] == rank * (rank + 1) / 2 && excl[1] == rank * (rank - 1),
                    "Iexscan gave %d %d", excl[0], excl[1]);
    SUITE_CHECK(total[0] == n * (n + 1) / 2, "Iallreduce gave %d", total[0]);

    /* In place. */
    int w = rank + 1;
    MPI_Request req;
    MPI_Iscan(MPI_IN_PLACE, &w, 1, MPI_INT, MPI_PROD, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    int expect = 1;
    for (int r = 1; r <= rank + 1; r++)
        expect *= r;
    SUITE_CHECK(w == expect, "in-place Iscan product %d, expected %d", w, expect);
    w = rank + 1;
    MPI_Iexscan(MPI_IN_PLACE, &w, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (rank > 0)
        SUITE_CHECK(w == rank * (rank + 1) / 2, "in-place Iexscan %d", w);

    /* The non-commutative concatenation: prefixes in rank order. */
    MPI_Datatype word_type;
    MPI_Op concat;
    nbc_word_setup(&word_type, &concat);
    nbc_word mine = nbc_digit(rank), prefix, before = {-1, -1};
    MPI_Iscan(&mine, &prefix, 1, word_type, concat, MPI_COMM_WORLD, &reqs[0]);
    MPI_Iexscan(&mine, &before, 1, word_type, concat, MPI_COMM_WORLD, &reqs[1]);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    nbc_word want = nbc_word_of(0, rank);
    SUITE_CHECK(nbc_same(prefix, want), "Iscan word %ld, expected %ld", prefix.value, want.value);
    if (rank > 0) {
        want = nbc_word_of(0, rank - 1);
        SUITE_CHECK(nbc_same(before, want), "Iexscan word %ld, expected %ld", before.value,
                    want.value);
    }
    nbc_word_free(&word_type, &concat);

    int untouched = 3;
    MPI_Iscan(v, &untouched, 0, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    SUITE_CHECK(untouched == 3, "a zero-count Iscan wrote its buffer");

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    NBC_EXPECT_CLASS(MPI_Iscan(v, incl, -2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req), MPI_ERR_COUNT);
    NBC_EXPECT_CLASS(MPI_Iexscan(v, incl, 1, MPI_INT, MPI_NO_OP, MPI_COMM_WORLD, &req), MPI_ERR_OP);
    NBC_EXPECT_CLASS(MPI_Iexscan(v, incl, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    return suite_finalize();
}
