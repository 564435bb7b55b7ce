/* Collectives on MPI_COMM_WORLD, an odd-sized split and a duplicate: Barrier, Bcast from
 * every root, Gather(v), Scatter(v), Allgather(v), Alltoall(v), Reduce_scatter(_block),
 * Scan, Exscan, with MPI_IN_PLACE where allowed and a non-contiguous type. */
#include <stdlib.h>
#include <string.h>

#include "mpi_check.h"

static void bcast_and_barrier(MPI_Comm comm, int rank, int n)
{
    CHECK_EQ(MPI_Barrier(comm), MPI_SUCCESS);
    double *v = malloc(300 * sizeof(double));
    int bad = 0;
    for (int root = 0; root < n; root++) {
        for (int i = 0; i < 300; i++)
            v[i] = rank == root ? root * 1000 + i : -1;
        MPI_Bcast(v, 300, MPI_DOUBLE, root, comm);
        for (int i = 0; i < 300; i++)
            bad += v[i] != root * 1000 + i;
    }
    CHECK_EQ(bad, 0);
    free(v);
    /* Every other int of 20, from the last rank. */
    MPI_Datatype every_other;
    MPI_Type_vector(10, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    int buf[20];
    for (int i = 0; i < 20; i++)
        buf[i] = rank == n - 1 ? i : -1;
    MPI_Bcast(buf, 1, every_other, n - 1, comm);
    bad = 0;
    for (int i = 0; i < 20; i++)
        bad += buf[i] != (i % 2 == 0 || rank == n - 1 ? i : -1);
    CHECK_EQ(bad, 0);
    MPI_Type_free(&every_other);
}

static void gather_scatter(MPI_Comm comm, int rank, int n)
{
    int root = n / 2, pair[2] = {rank, rank * rank};
    int *all = malloc(2 * n * sizeof(int));
    for (int i = 0; i < 2 * n; i++)
        all[i] = -1;
    CHECK_EQ(MPI_Gather(pair, 2, MPI_INT, all, 2, MPI_INT, root, comm), MPI_SUCCESS);
    int bad = 0;
    if (rank == root)
        for (int r = 0; r < n; r++)
            bad += all[2 * r] != r || all[2 * r + 1] != r * r;
    CHECK_EQ(bad, 0);
    int back[2] = {-1, -1};
    MPI_Scatter(all, 2, MPI_INT, rank == root ? MPI_IN_PLACE : back, 2, MPI_INT, root, comm);
    if (rank != root)
        CHECK_EQ(back[1], rank * rank);
    /* Gatherv/Scatterv: rank r has r + 1 values, placed with a gap. */
    int *counts = malloc(n * sizeof(int)), *displs = malloc(n * sizeof(int)), total = 0;
    for (int r = 0; r < n; r++) {
        counts[r] = r + 1;
        displs[r] = total;
        total += r + 2;
    }
    int *mine = malloc((rank + 1) * sizeof(int)), *got = malloc(total * sizeof(int));
    for (int i = 0; i <= rank; i++)
        mine[i] = rank;
    for (int i = 0; i < total; i++)
        got[i] = -1;
    MPI_Gatherv(mine, rank + 1, MPI_INT, got, counts, displs, MPI_INT, 0, comm);
    bad = 0;
    if (rank == 0)
        for (int r = 0; r < n; r++)
            bad += got[displs[r] + r] != r || got[displs[r] + r + 1] != -1;
    CHECK_EQ(bad, 0);
    for (int i = 0; i <= rank; i++)
        mine[i] = -1;
    MPI_Scatterv(got, counts, displs, MPI_INT, mine, rank + 1, MPI_INT, 0, comm);
    CHECK_EQ(mine[rank], rank);
    free(all);
    free(counts);
    free(displs);
    free(mine);
    free(got);
}

static void allgather_alltoall(MPI_Comm comm, int rank, int n)
{
    int *all = malloc(n * sizeof(int)), bad = 0;
    MPI_Allgather(&rank, 1, MPI_INT, all, 1, MPI_INT, comm);
    for (int r = 0; r < n; r++)
        bad += all[r] != r;
    all[rank] = rank * 10;
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 1, MPI_INT, comm);
    for (int r = 0; r < n; r++)
        bad += all[r] != r * 10;
    CHECK_EQ(bad, 0);
    int *counts = malloc(n * sizeof(int)), *displs = malloc(n * sizeof(int)), total = 0;
    for (int r = 0; r < n; r++) {
        counts[r] = r % 3;
        displs[r] = total;
        total += r % 3;
    }
    int mine[2] = {rank, rank}, *v = malloc((total + 1) * sizeof(int));
    MPI_Allgatherv(mine, rank % 3, MPI_INT, v, counts, displs, MPI_INT, comm);
    bad = 0;
    for (int r = 0; r < n; r++)
        for (int i = 0; i < r % 3; i++)
            bad += v[displs[r] + i] != r;
    CHECK_EQ(bad, 0);
    int *out = malloc(2 * n * sizeof(int)), *in = malloc(2 * n * sizeof(int));
    for (int j = 0; j < n; j++) {
        out[2 * j] = rank * 1000 + j;
        out[2 * j + 1] = -j;
    }
    MPI_Alltoall(out, 2, MPI_INT, in, 2, MPI_INT, comm);
    bad = 0;
    for (int i = 0; i < n; i++)
        bad += in[2 * i] != i * 1000 + rank || in[2 * i + 1] != -rank;
    MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, out, 2, MPI_INT, comm);
    bad += memcmp(out, in, 2 * n * sizeof(int)) != 0;
    CHECK_EQ(bad, 0);
    /* Alltoallv: rank i sends j % 3 + 1 values to rank j. */
    int *sc = malloc(n * sizeof(int)), *sd = malloc(n * sizeof(int));
    int *rc = malloc(n * sizeof(int)), *rd = malloc(n * sizeof(int)), st = 0, rt = 0;
    for (int j = 0; j < n; j++) {
        sc[j] = j % 3 + 1, sd[j] = st, st += sc[j];
        rc[j] = rank % 3 + 1, rd[j] = rt, rt += rc[j];
    }
    int *sbuf = malloc(st * sizeof(int)), *rbuf = malloc(rt * sizeof(int));
    for (int j = 0; j < n; j++)
        for (int k = 0; k < sc[j]; k++)
            sbuf[sd[j] + k] = rank * 100 + j;
    MPI_Alltoallv(sbuf, sc, sd, MPI_INT, rbuf, rc, rd, MPI_INT, comm);
    bad = 0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < rc[i]; k++)
            bad += rbuf[rd[i] + k] != i * 100 + rank;
    CHECK_EQ(bad, 0);
    free(all), free(counts), free(displs), free(v), free(out), free(in);
    free(sc), free(sd), free(rc), free(rd), free(sbuf), free(rbuf);
}

static void reduce_scatter_scan(MPI_Comm comm, int rank, int n)
{
    int *in = malloc(2 * n * sizeof(int)), out[2] = {-1, -1};
    for (int i = 0; i < 2 * n; i++)
        in[i] = rank + i;
    MPI_Reduce_scatter_block(in, out, 2, MPI_INT, MPI_SUM, comm);
    int base = n * (n - 1) / 2;
    CHECK_EQ(out[0], base + n * (2 * rank));
    CHECK_EQ(out[1], base + n * (2 * rank + 1));
    int *counts = malloc(n * sizeof(int)), total = 0;
    for (int r = 0; r < n; r++)
        total += counts[r] = r % 2 + 1;
    int *data = malloc(total * sizeof(int));
    for (int i = 0; i < total; i++)
        data[i] = 1;
    MPI_Reduce_scatter(MPI_IN_PLACE, data, counts, MPI_INT, MPI_SUM, comm);
    CHECK_EQ(data[0], n);
    CHECK_EQ(data[counts[rank] - 1], n);
    int v = rank + 1, s = 0;
    MPI_Scan(&v, &s, 1, MPI_INT, MPI_SUM, comm);
    CHECK_EQ(s, (rank + 1) * (rank + 2) / 2);
    s = -1;
    MPI_Exscan(&v, &s, 1, MPI_INT, MPI_SUM, comm);
    if (rank > 0)
        CHECK_EQ(s, rank * (rank + 1) / 2);
    free(in), free(counts), free(data);
}

static void all_on(MPI_Comm comm)
{
    int rank, n;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &n);
    bcast_and_barrier(comm, rank, n);
    gather_scatter(comm, rank, n);
    allgather_alltoall(comm, rank, n);
    reduce_scatter_scan(comm, rank, n);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm odd, dup;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &odd);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    all_on(MPI_COMM_WORLD);
    all_on(odd);
    all_on(dup);
    MPI_Comm_free(&odd);
    MPI_Comm_free(&dup);
    int status = mpi_check_finish("mpi_coll");
    MPI_Finalize();
    return status;
}
