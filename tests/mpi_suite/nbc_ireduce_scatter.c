/* MPI_Ireduce_scatter and MPI_Ireduce_scatter_block: sums, the non-commutative
 * concatenation, MPI_IN_PLACE, zero-count blocks, both outstanding at once. */
#include <stdlib.h>

#include "nbc.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);

    /* Block: 2 elements per rank; element i of the input is rank + i. */
    int *in = malloc(2 * n * sizeof(int)), block[2];
    for (int i = 0; i < 2 * n; i++)
        in[i] = rank + i;
    /* Varying: rank r gets r % 3 elements (some get none). */
    int *counts = malloc(n * sizeof(int)), total = 0;
    for (int r = 0; r < n; r++)
        total += counts[r] = r % 3;
    int *vin = malloc((total + 1) * sizeof(int)), vout[3] = {-1, -1, -1};
    for (int i = 0; i < total; i++)
        vin[i] = 2 * i + rank;
    MPI_Request reqs[2];
    MPI_Ireduce_scatter_block(in, block, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[0]);
    MPI_Ireduce_scatter(vin, vout, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[1]);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    int ranks_sum = n * (n - 1) / 2;
    SUITE_CHECK(block[0] == ranks_sum + n * 2 * rank && block[1] == ranks_sum + n * (2 * rank + 1),
                "Ireduce_scatter_block gave %d %d", block[0], block[1]);
    int first = 0;
    for (int r = 0; r < rank; r++)
        first += counts[r];
    int bad = 0;
    for (int i = 0; i < counts[rank]; i++)
        bad += vout[i] != n * 2 * (first + i) + ranks_sum;
    for (int i = counts[rank]; i < 3; i++)
        bad += vout[i] != -1;
    SUITE_CHECK(bad == 0, "Ireduce_scatter: %d wrong", bad);

    /* In place: the input is the receive buffer. */
    for (int i = 0; i < 2 * n; i++)
        in[i] = rank + i;
    MPI_Request req;
    MPI_Ireduce_scatter_block(MPI_IN_PLACE, in, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    SUITE_CHECK(in[0] == ranks_sum + n * 2 * rank && in[1] == ranks_sum + n * (2 * rank + 1),
                "in-place Ireduce_scatter_block gave %d %d", in[0], in[1]);

    /* Rank order with a non-commutative operation. */
    MPI_Datatype word_type;
    MPI_Op concat;
    nbc_word_setup(&word_type, &concat);
    nbc_word *words = malloc(n * sizeof(nbc_word)), got;
    for (int r = 0; r < n; r++)
        words[r] = nbc_digit(rank);
    MPI_Ireduce_scatter_block(words, &got, 1, word_type, concat, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    nbc_word want = nbc_word_of(0, n - 1);
    SUITE_CHECK(nbc_same(got, want), "ordered Ireduce_scatter_block: %ld, expected %ld", got.value,
                want.value);
    nbc_word_free(&word_type, &concat);

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    NBC_EXPECT_CLASS(MPI_Ireduce_scatter(vin, vout, NULL, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req), MPI_ERR_ARG);
    NBC_EXPECT_CLASS(MPI_Ireduce_scatter_block(in, block, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req), MPI_ERR_COUNT);
    NBC_EXPECT_CLASS(MPI_Ireduce_scatter_block(in, block, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD, &req), MPI_ERR_OP);

    free(in);
    free(counts);
    free(vin);
    free(words);
    return suite_finalize();
}
