/* MPI_Igather(v) and MPI_Iscatter(v): every root at once, MPI_IN_PLACE at the root,
 * varying counts (rank r has r + 1 elements), and the error classes of bad arguments. */
#include <stdlib.h>

#include "nbc.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);

    /* Igather to every root, all outstanding. */
    int pair[2] = {rank, rank * rank};
    int *got = malloc((size_t)n * n * 2 * sizeof(int));
    MPI_Request *reqs = malloc(2 * n * sizeof(MPI_Request));
    for (int root = 0; root < n; root++)
        MPI_Igather(pair, 2, MPI_INT, got + root * n * 2, 2, MPI_INT, root, MPI_COMM_WORLD,
                    &reqs[root]);
    MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
    int bad = 0;
    for (int r = 0; r < n; r++)
        bad += got[rank * n * 2 + 2 * r] != r || got[rank * n * 2 + 2 * r + 1] != r * r;
    SUITE_CHECK(bad == 0, "Igather: %d wrong blocks at root %d", bad, rank);

    /* Iscatter from every root: root q gives rank r the value q * 100 + r. */
    int *table = malloc(n * sizeof(int)), *mine = malloc(n * sizeof(int));
    for (int r = 0; r < n; r++)
        table[r] = rank * 100 + r;
    for (int root = 0; root < n; root++)
        MPI_Iscatter(table, 1, MPI_INT, &mine[root], 1, MPI_INT, root, MPI_COMM_WORLD, &reqs[root]);
    MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
    bad = 0;
    for (int root = 0; root < n; root++)
        bad += mine[root] != root * 100 + rank;
    SUITE_CHECK(bad == 0, "Iscatter: %d wrong values", bad);

    /* The v-forms: rank r has r + 1 copies of r; root n / 2, in place there. */
    int root = n / 2, total = n * (n + 1) / 2;
    int *counts = malloc(n * sizeof(int)), *displs = malloc(n * sizeof(int));
    for (int r = 0, d = 0; r < n; d += r + 1, r++) {
        counts[r] = r + 1;
        displs[r] = d;
    }
    int *all = malloc(total * sizeof(int)), *part = malloc((rank + 1) * sizeof(int));
    for (int i = 0; i <= rank; i++)
        part[i] = rank;
    for (int i = 0; i < total; i++)
        all[i] = -1;
    if (rank == root)
        for (int i = 0; i <= rank; i++)
            all[displs[rank] + i] = rank;
    MPI_Request req;
    MPI_Igatherv(rank == root ? MPI_IN_PLACE : part, rank + 1, MPI_INT, all, counts, displs,
                 MPI_INT, root, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (rank == root) {
        bad = 0;
        for (int r = 0; r < n; r++)
            for (int i = 0; i < counts[r]; i++)
                bad += all[displs[r] + i] != r;
        SUITE_CHECK(bad == 0, "Igatherv: %d wrong", bad);
    }
    for (int i = 0; i <= rank; i++)
        part[i] = -1;
    MPI_Iscatterv(all, counts, displs, MPI_INT, rank == root ? MPI_IN_PLACE : part, rank + 1,
                  MPI_INT, root, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (rank != root) {
        bad = 0;
        for (int i = 0; i <= rank; i++)
            bad += part[i] != rank;
        SUITE_CHECK(bad == 0, "Iscatterv: %d wrong", bad);
    }

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    NBC_EXPECT_CLASS(MPI_Igather(pair, 2, MPI_INT, got, 2, MPI_INT, n, MPI_COMM_WORLD, &req), MPI_ERR_ROOT);
    NBC_EXPECT_CLASS(MPI_Iscatter(table, -1, MPI_INT, mine, -1, MPI_INT, 0, MPI_COMM_WORLD, &req), MPI_ERR_COUNT);
    NBC_EXPECT_CLASS(MPI_Igather(pair, 2, MPI_INT, got, 2, MPI_INT, 0, MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    NBC_EXPECT_CLASS(MPI_Igatherv(pair, 1, MPI_INT, all, NULL, NULL, MPI_INT, rank, MPI_COMM_WORLD, &req), MPI_ERR_ARG);

    free(got);
    free(reqs);
    free(table);
    free(mine);
    free(counts);
    free(displs);
    free(all);
    free(part);
    return suite_finalize();
}
