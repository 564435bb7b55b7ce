/* MPI_Iallgather(v), MPI_Ialltoall(v,w) and the blocking MPI_Alltoallw: all outstanding
 * together, MPI_IN_PLACE, varying counts, a type per block, zero counts. */
#include <stdlib.h>

#include "nbc.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);

    int *gathered = malloc(2 * n * sizeof(int)), *inplace = malloc(n * sizeof(int));
    int *out = malloc(2 * n * sizeof(int)), *in = malloc(2 * n * sizeof(int));
    int mine[2] = {rank, -rank};
    for (int r = 0; r < n; r++) {
        inplace[r] = r == rank ? rank * 3 : -1;
        out[2 * r] = rank * 100 + r;
        out[2 * r + 1] = -(rank * 100 + r);
    }
    MPI_Request reqs[3];
    MPI_Iallgather(mine, 2, MPI_INT, gathered, 2, MPI_INT, MPI_COMM_WORLD, &reqs[0]);
    MPI_Iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, inplace, 1, MPI_INT, MPI_COMM_WORLD, &reqs[1]);
    MPI_Ialltoall(out, 2, MPI_INT, in, 2, MPI_INT, MPI_COMM_WORLD, &reqs[2]);
    MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE);
    int bad = 0;
    for (int r = 0; r < n; r++) {
        bad += gathered[2 * r] != r || gathered[2 * r + 1] != -r;
        bad += inplace[r] != r * 3;
        bad += in[2 * r] != r * 100 + rank || in[2 * r + 1] != -(r * 100 + rank);
    }
    SUITE_CHECK(bad == 0, "Iallgather / Ialltoall: %d wrong", bad);

    /* Ialltoall in place. */
    for (int r = 0; r < n; r++)
        in[r] = rank * 100 + r;
    MPI_Request req;
    MPI_Ialltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, in, 1, MPI_INT, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    bad = 0;
    for (int r = 0; r < n; r++)
        bad += in[r] != r * 100 + rank;
    SUITE_CHECK(bad == 0, "in-place Ialltoall: %d wrong", bad);

    /* Ialltoall of a strided type: a block is ints 0 and 2 of a 3-int slot, whose middle
     * int no transfer may touch (small blocks on 8 ranks or more go by Bruck's rounds). */
    MPI_Datatype strided;
    MPI_Type_vector(2, 1, 2, MPI_INT, &strided);
    MPI_Type_commit(&strided);
    int *ssend = malloc(3 * n * sizeof(int)), *srecv = malloc(3 * n * sizeof(int));
    for (int r = 0; r < n; r++) {
        ssend[3 * r] = rank * 1000 + r;
        ssend[3 * r + 1] = -7;
        ssend[3 * r + 2] = rank * 1000 + r + 500;
        srecv[3 * r] = srecv[3 * r + 1] = srecv[3 * r + 2] = -1;
    }
    MPI_Ialltoall(ssend, 1, strided, srecv, 1, strided, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    bad = 0;
    for (int r = 0; r < n; r++)
        bad += srecv[3 * r] != r * 1000 + rank || srecv[3 * r + 1] != -1 || srecv[3 * r + 2] != r * 1000 + rank + 500;
    SUITE_CHECK(bad == 0, "strided Ialltoall: %d wrong", bad);
    MPI_Type_free(&strided);
    free(ssend);
    free(srecv);

    /* Blocks of 256 bytes, contiguous and strided, blocking and not: with 16 ranks on a
     * cluster (48, compact, on mppa256) Bruck's rounds of 24 blocks go as two messages. */
    enum { kInts = 64, kSpan = 65 };
    MPI_Datatype halves;
    MPI_Type_vector(2, kInts / 2, kInts / 2 + 1, MPI_INT, &halves);
    MPI_Type_commit(&halves);
    int *bsend = malloc((size_t)n * kSpan * sizeof(int)), *brecv = malloc((size_t)n * kSpan * sizeof(int));
    for (int pass = 0; pass < 4; pass++) {
        int strided_pass = pass >= 2, span = strided_pass ? kSpan : kInts;
        MPI_Datatype block = strided_pass ? halves : MPI_INT;
        int count = strided_pass ? 1 : kInts;
        for (int r = 0; r < n; r++)
            for (int i = 0; i < span; i++) {
                bsend[r * span + i] = i == kInts / 2 && strided_pass ? -7 : rank * 100000 + r * 100 + i;
                brecv[r * span + i] = -1;
            }
        if (pass % 2 == 0) {
            MPI_Alltoall(bsend, count, block, brecv, count, block, MPI_COMM_WORLD);
        } else {
            MPI_Ialltoall(bsend, count, block, brecv, count, block, MPI_COMM_WORLD, &req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        }
        bad = 0;
        for (int r = 0; r < n; r++)
            for (int i = 0; i < span; i++) {
                int gap = strided_pass && i == kInts / 2;
                bad += brecv[r * span + i] != (gap ? -1 : r * 100000 + rank * 100 + i);
            }
        SUITE_CHECK(bad == 0, "%s of 256-byte %s blocks: %d wrong", pass % 2 ? "Ialltoall" : "Alltoall",
                    strided_pass ? "strided" : "contiguous", bad);
    }
    MPI_Type_free(&halves);
    free(bsend);
    free(brecv);

    /* Iallgatherv and Ialltoallv: rank r sends r + 1 elements; blocks stored in reverse. */
    int total = n * (n + 1) / 2;
    int *counts = malloc(n * sizeof(int)), *displs = malloc(n * sizeof(int));
    for (int r = n - 1, d = 0; r >= 0; d += r + 1, r--) {
        counts[r] = r + 1;
        displs[r] = d;
    }
    int *all = malloc(total * sizeof(int)), *part = malloc((rank + 1) * sizeof(int));
    for (int i = 0; i <= rank; i++)
        part[i] = rank;
    MPI_Iallgatherv(part, rank + 1, MPI_INT, all, counts, displs, MPI_INT, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    bad = 0;
    for (int r = 0; r < n; r++)
        for (int i = 0; i < counts[r]; i++)
            bad += all[displs[r] + i] != r;
    SUITE_CHECK(bad == 0, "Iallgatherv: %d wrong", bad);

    /* Ialltoallv: rank r sends r + 1 copies of (r * 100 + dest) to every dest. */
    int *scounts = malloc(n * sizeof(int)), *sdispls = malloc(n * sizeof(int));
    int *sbuf = malloc((size_t)n * (rank + 1) * sizeof(int)), *rbuf = malloc(total * sizeof(int));
    for (int d = 0; d < n; d++) {
        scounts[d] = rank + 1;
        sdispls[d] = d * (rank + 1);
        for (int i = 0; i <= rank; i++)
            sbuf[d * (rank + 1) + i] = rank * 100 + d;
    }
    MPI_Ialltoallv(sbuf, scounts, sdispls, MPI_INT, rbuf, counts, displs, MPI_INT, MPI_COMM_WORLD,
                   &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    bad = 0;
    for (int r = 0; r < n; r++)
        for (int i = 0; i < counts[r]; i++)
            bad += rbuf[displs[r] + i] != r * 100 + rank;
    SUITE_CHECK(bad == 0, "Ialltoallv: %d wrong", bad);

    /* Alltoallw (blocking and not): to even ranks an int, to odd ranks a double; byte
     * displacements. */
    int *wcounts = malloc(n * sizeof(int)), *wdispls = malloc(n * sizeof(int));
    MPI_Datatype *wtypes = malloc(n * sizeof(MPI_Datatype));
    char *wsend = malloc(n * sizeof(double)), *wrecv = malloc(n * sizeof(double));
    for (int r = 0; r < n; r++) {
        wcounts[r] = 1;
        wdispls[r] = r * (int)sizeof(double);
        wtypes[r] = rank % 2 == 0 ? MPI_INT : MPI_DOUBLE; /* what this rank exchanges */
        if (rank % 2 == 0)
            *(int *)(wsend + wdispls[r]) = rank * 10 + r;
        else
            *(double *)(wsend + wdispls[r]) = rank * 10 + r + 0.5;
    }
    /* Types must match pairwise: only exchange with ranks of the same parity. */
    for (int r = 0; r < n; r++)
        if (r % 2 != rank % 2)
            wcounts[r] = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < n * (int)sizeof(double); i++)
            wrecv[i] = 0;
        if (pass == 0) {
            MPI_Alltoallw(wsend, wcounts, wdispls, wtypes, wrecv, wcounts, wdispls, wtypes,
                          MPI_COMM_WORLD);
        } else {
            MPI_Ialltoallw(wsend, wcounts, wdispls, wtypes, wrecv, wcounts, wdispls, wtypes,
                           MPI_COMM_WORLD, &req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        }
        bad = 0;
        for (int r = rank % 2; r < n; r += 2) {
            if (rank % 2 == 0)
                bad += *(int *)(wrecv + wdispls[r]) != r * 10 + rank;
            else
                bad += *(double *)(wrecv + wdispls[r]) != r * 10 + rank + 0.5;
        }
        SUITE_CHECK(bad == 0, "%s: %d wrong", pass ? "Ialltoallw" : "Alltoallw", bad);
    }

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    NBC_EXPECT_CLASS(MPI_Ialltoall(out, -1, MPI_INT, in, 1, MPI_INT, MPI_COMM_WORLD, &req), MPI_ERR_COUNT);
    NBC_EXPECT_CLASS(MPI_Ialltoall(out, 1, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD, &req), MPI_ERR_BUFFER);
    NBC_EXPECT_CLASS(MPI_Ialltoallw(wsend, wcounts, wdispls, NULL, wrecv, wcounts, wdispls, wtypes, MPI_COMM_WORLD, &req), MPI_ERR_ARG);
    NBC_EXPECT_CLASS(MPI_Alltoallw(wsend, NULL, wdispls, wtypes, wrecv, wcounts, wdispls, wtypes, MPI_COMM_WORLD), MPI_ERR_ARG);
    NBC_EXPECT_CLASS(MPI_Iallgather(mine, 2, MPI_INT, gathered, 2, MPI_DATATYPE_NULL, MPI_COMM_WORLD, &req), MPI_ERR_TYPE);

    free(gathered); free(inplace); free(out); free(in); free(counts); free(displs); free(all);
    free(part); free(scounts); free(sdispls); free(sbuf); free(rbuf); free(wcounts); free(wdispls);
    free(wtypes); free(wsend); free(wrecv);
    return suite_finalize();
}
