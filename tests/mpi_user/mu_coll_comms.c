/* Collectives the way applications call them: MPI_IN_PLACE in every collective that
 * allows it (Gather(v) and Scatter(v) at the root, Allgather(v), Alltoall(v), Reduce at
 * the root, Allreduce, Reduce_scatter(_block), Scan, Exscan), zero counts everywhere,
 * on MPI_COMM_WORLD, a dup, odd/even and reversed splits, a Comm_create'd subset,
 * MPI_COMM_SELF and size-1 splits; user operations (commutative on a derived type, and a
 * non-commutative 2x2 matrix product whose result depends on rank order). Any rank count. */
#include <stdlib.h>
#include <string.h>

#include "../mpi/mpi_check.h"

/* Every collective with MPI_IN_PLACE on `comm`; values depend on the rank in `comm`. */
static void in_place_all(MPI_Comm comm)
{
    int r, n, bad = 0;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &n);
    int root = n - 1;
    int *v = malloc((4 * n + 4) * sizeof(int));
    int *counts = malloc(n * sizeof(int)), *displs = malloc(n * sizeof(int));

    /* Gather: the root's own block is already in place. */
    for (int i = 0; i < 2 * n; i++)
        v[i] = -1;
    v[2 * r] = r * 10;
    v[2 * r + 1] = r * 10 + 1;
    if (r == root)
        CHECK_EQ(MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, v, 2, MPI_INT, root, comm), MPI_SUCCESS);
    else
        CHECK_EQ(MPI_Gather(&v[2 * r], 2, MPI_INT, NULL, 0, MPI_DATATYPE_NULL, root, comm), MPI_SUCCESS);
    if (r == root)
        for (int i = 0; i < n; i++)
            bad += v[2 * i] != i * 10 || v[2 * i + 1] != i * 10 + 1;
    CHECK_EQ(bad, 0);

    /* Gatherv: rank i gives i % 3 ints at displacement 3 i. */
    for (int i = 0; i < n; i++) {
        counts[i] = i % 3;
        displs[i] = 3 * i;
    }
    for (int i = 0; i < 3 * n; i++)
        v[i] = -1;
    for (int k = 0; k < r % 3; k++)
        v[3 * r + k] = 100 * r + k;
    if (r == root)
        MPI_Gatherv(MPI_IN_PLACE, 0, MPI_INT, v, counts, displs, MPI_INT, root, comm);
    else
        MPI_Gatherv(&v[3 * r], r % 3, MPI_INT, NULL, NULL, NULL, MPI_INT, root, comm);
    if (r == root)
        for (int i = 0; i < n; i++)
            for (int k = 0; k < 3; k++)
                bad += v[3 * i + k] != (k < i % 3 ? 100 * i + k : -1);
    CHECK_EQ(bad, 0);

    /* Scatter and Scatterv: the root keeps its block where it is. */
    for (int i = 0; i < 2 * n; i++)
        v[i] = r == root ? 7 * i : -1;
    int two[2] = {-1, -1};
    MPI_Scatter(v, 2, MPI_INT, r == root ? MPI_IN_PLACE : (void *)two, 2, MPI_INT, root, comm);
    if (r != root)
        bad += two[0] != 14 * r || two[1] != 14 * r + 7;
    else
        bad += v[2 * r] != 14 * r;
    for (int i = 0; i < 3 * n; i++)
        v[i] = r == root ? 5 * i : -1;
    int three[3] = {-1, -1, -1};
    MPI_Scatterv(v, counts, displs, MPI_INT, r == root ? MPI_IN_PLACE : (void *)three, r % 3,
                 MPI_INT, root, comm);
    if (r != root)
        for (int k = 0; k < 3; k++)
            bad += three[k] != (k < r % 3 ? 5 * (3 * r + k) : -1);
    CHECK_EQ(bad, 0);

    /* Allgather and Allgatherv in place. */
    for (int i = 0; i < n; i++)
        v[i] = i == r ? r * r : -1;
    CHECK_EQ(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, v, 1, MPI_INT, comm), MPI_SUCCESS);
    for (int i = 0; i < n; i++)
        bad += v[i] != i * i;
    for (int i = 0; i < 3 * n; i++)
        v[i] = -1;
    for (int k = 0; k < r % 3; k++)
        v[3 * r + k] = 9 * r + k;
    MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, v, counts, displs, MPI_INT, comm);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 3; k++)
            bad += v[3 * i + k] != (k < i % 3 ? 9 * i + k : -1);
    CHECK_EQ(bad, 0);

    /* Alltoall and Alltoallv in place: block i goes to rank i. */
    for (int i = 0; i < n; i++)
        v[i] = 1000 * r + i;
    MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, v, 1, MPI_INT, comm);
    for (int i = 0; i < n; i++)
        bad += v[i] != 1000 * i + r;
    /* Alltoallv: to rank i, (r + i) % 2 ints; counts must match pairwise, so they do. */
    int *ac = malloc(n * sizeof(int)), *ad = malloc(n * sizeof(int));
    for (int i = 0, at = 0; i < n; i++) {
        ac[i] = (r + i) % 2 + 1;
        ad[i] = at;
        at += ac[i] + 1;
    }
    for (int i = 0; i < 4 * n; i++)
        v[i] = -2;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < ac[i]; k++)
            v[ad[i] + k] = 100 * r + 10 * i + k;
    MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, v, ac, ad, MPI_INT, comm);
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < ac[i]; k++)
            bad += v[ad[i] + k] != 100 * i + 10 * r + k;
        bad += v[ad[i] + ac[i]] != -2;
    }
    CHECK_EQ(bad, 0);
    free(ac);
    free(ad);

    /* Reduce (root in place), Allreduce, Reduce_scatter(_block), Scan, Exscan in place. */
    int x[2] = {r + 1, 2 * r};
    if (r == root)
        CHECK_EQ(MPI_Reduce(MPI_IN_PLACE, x, 2, MPI_INT, MPI_SUM, root, comm), MPI_SUCCESS);
    else
        CHECK_EQ(MPI_Reduce(x, NULL, 2, MPI_INT, MPI_SUM, root, comm), MPI_SUCCESS);
    if (r == root) {
        CHECK_EQ(x[0], n * (n + 1) / 2);
        CHECK_EQ(x[1], n * (n - 1));
    }
    x[0] = r;
    CHECK_EQ(MPI_Allreduce(MPI_IN_PLACE, x, 1, MPI_INT, MPI_MAX, comm), MPI_SUCCESS);
    CHECK_EQ(x[0], n - 1);
    for (int i = 0; i < 2 * n; i++)
        v[i] = r + i;
    MPI_Reduce_scatter_block(MPI_IN_PLACE, v, 2, MPI_INT, MPI_SUM, comm);
    CHECK_EQ(v[0], n * (n - 1) / 2 + n * (2 * r));
    CHECK_EQ(v[1], n * (n - 1) / 2 + n * (2 * r + 1));
    int *rc = malloc(n * sizeof(int)), total = 0;
    for (int i = 0; i < n; i++)
        total += rc[i] = i % 2 + 1;
    for (int i = 0; i < total; i++)
        v[i] = i;
    MPI_Reduce_scatter(MPI_IN_PLACE, v, rc, MPI_INT, MPI_SUM, comm);
    int first = 0;
    for (int i = 0; i < r; i++)
        first += rc[i];
    for (int k = 0; k < rc[r]; k++)
        bad += v[k] != n * (first + k);
    CHECK_EQ(bad, 0);
    free(rc);
    int s = r + 1;
    MPI_Scan(MPI_IN_PLACE, &s, 1, MPI_INT, MPI_SUM, comm);
    CHECK_EQ(s, (r + 1) * (r + 2) / 2);
    int e[2] = {r + 1, -(r + 1)};
    MPI_Exscan(MPI_IN_PLACE, e, 2, MPI_INT, MPI_SUM, comm);
    if (r > 0) {
        CHECK_EQ(e[0], r * (r + 1) / 2);
        CHECK_EQ(e[1], -r * (r + 1) / 2);
    }
    free(v);
    free(counts);
    free(displs);
}

/* Every collective with zero counts (and null buffers): nothing moves, nothing fails. */
static void zero_counts(MPI_Comm comm)
{
    int r, n;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &n);
    int *z = calloc(n, sizeof(int)), guard = 77;
    CHECK_EQ(MPI_Bcast(NULL, 0, MPI_INT, 0, comm), MPI_SUCCESS);
    CHECK_EQ(MPI_Gather(NULL, 0, MPI_INT, NULL, 0, MPI_INT, 0, comm), MPI_SUCCESS);
    CHECK_EQ(MPI_Gatherv(NULL, 0, MPI_INT, &guard, z, z, MPI_INT, 0, comm), MPI_SUCCESS);
    CHECK_EQ(MPI_Scatter(NULL, 0, MPI_INT, NULL, 0, MPI_INT, 0, comm), MPI_SUCCESS);
    CHECK_EQ(MPI_Scatterv(&guard, z, z, MPI_INT, NULL, 0, MPI_INT, 0, comm), MPI_SUCCESS);
    CHECK_EQ(MPI_Allgather(NULL, 0, MPI_INT, NULL, 0, MPI_INT, comm), MPI_SUCCESS);
    CHECK_EQ(MPI_Allgatherv(NULL, 0, MPI_INT, &guard, z, z, MPI_INT, comm), MPI_SUCCESS);
    CHECK_EQ(MPI_Alltoall(NULL, 0, MPI_INT, NULL, 0, MPI_INT, comm), MPI_SUCCESS);
    CHECK_EQ(MPI_Alltoallv(&guard, z, z, MPI_INT, &guard, z, z, MPI_INT, comm), MPI_SUCCESS);
    CHECK_EQ(MPI_Reduce(NULL, NULL, 0, MPI_INT, MPI_SUM, 0, comm), MPI_SUCCESS);
    CHECK_EQ(MPI_Allreduce(NULL, NULL, 0, MPI_DOUBLE, MPI_MAX, comm), MPI_SUCCESS);
    CHECK_EQ(MPI_Reduce_scatter_block(NULL, NULL, 0, MPI_INT, MPI_SUM, comm), MPI_SUCCESS);
    CHECK_EQ(MPI_Reduce_scatter(&guard, &guard, z, MPI_INT, MPI_SUM, comm), MPI_SUCCESS);
    CHECK_EQ(MPI_Scan(NULL, NULL, 0, MPI_INT, MPI_SUM, comm), MPI_SUCCESS);
    CHECK_EQ(MPI_Exscan(NULL, NULL, 0, MPI_INT, MPI_SUM, comm), MPI_SUCCESS);
    CHECK_EQ(guard, 77);
    CHECK_EQ(MPI_Barrier(comm), MPI_SUCCESS);
    free(z);
}

/* A commutative user op on a derived type: pairs (sum, max) as MPI_Type_contiguous(2). */
static void sum_max(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    int *a = in, *b = inout;
    for (int i = 0; i < *len; i++) {
        b[2 * i] += a[2 * i];
        if (a[2 * i + 1] > b[2 * i + 1])
            b[2 * i + 1] = a[2 * i + 1];
    }
}

/* 2x2 integer matrix product, inout = in * inout (the standard's order: in is earlier). */
static void matmul(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    int *a = in, *b = inout;
    for (int i = 0; i < *len; i++, a += 4, b += 4) {
        int c[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
                    a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]};
        memcpy(b, c, sizeof c);
    }
}

static void rank_matrix(int r, int m[4])
{
    m[0] = 1;
    m[1] = r + 1;
    m[2] = r % 3;
    m[3] = 1 + (r % 2);
}

static void user_ops(MPI_Comm comm)
{
    int r, n;
    MPI_Comm_rank(comm, &r);
    MPI_Comm_size(comm, &n);
    MPI_Datatype pair, mat;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    MPI_Type_contiguous(4, MPI_INT, &mat);
    MPI_Type_commit(&mat);
    MPI_Op op_sm, op_mm;
    MPI_Op_create(sum_max, 1, &op_sm);
    MPI_Op_create(matmul, 0, &op_mm);
    int commute = -1;
    MPI_Op_commutative(op_mm, &commute);
    CHECK_EQ(commute, 0);

    int pv[6] = {r, r * 7 % 5, 1, -r, r * r, 3}, res[6] = {0};
    MPI_Allreduce(pv, res, 3, pair, op_sm, comm);
    int sum = 0, mx = -1, sq = 0;
    for (int i = 0; i < n; i++) {
        sum += i;
        sq += i * i;
        if (i * 7 % 5 > mx)
            mx = i * 7 % 5;
    }
    CHECK_EQ(res[0], sum);
    CHECK_EQ(res[1], mx);
    CHECK_EQ(res[2], n);
    CHECK_EQ(res[3], 0);
    CHECK_EQ(res[4], sq);
    CHECK_EQ(res[5], 3);

    /* The ordered product M0 M1 ... M(n-1), two copies per element (count 2). */
    int m[8], prod[8], expect[4] = {1, 0, 0, 1}, partial[4] = {1, 0, 0, 1}, before[4] = {1, 0, 0, 1};
    rank_matrix(r, m);
    rank_matrix(r, m + 4);
    for (int i = 0; i < n; i++) {
        int mi[4];
        rank_matrix(i, mi);
        int t[4] = {expect[0], expect[1], expect[2], expect[3]};
        matmul(t, mi, &(int){1}, &mat); /* mi = expect * mi */
        memcpy(expect, mi, sizeof mi);
        if (i == r)
            memcpy(partial, expect, sizeof expect);
        if (i == r - 1)
            memcpy(before, expect, sizeof expect);
    }
    int root = n / 2;
    memset(prod, 0, sizeof prod);
    CHECK_EQ(MPI_Reduce(m, prod, 2, mat, op_mm, root, comm), MPI_SUCCESS);
    if (r == root)
        CHECK(memcmp(prod, expect, sizeof expect) == 0 && memcmp(prod + 4, expect, sizeof expect) == 0);
    memset(prod, 0, sizeof prod);
    MPI_Allreduce(m, prod, 2, mat, op_mm, comm);
    CHECK(memcmp(prod + 4, expect, sizeof expect) == 0);
    memcpy(prod, m, sizeof m);
    MPI_Scan(MPI_IN_PLACE, prod, 2, mat, op_mm, comm);
    CHECK(memcmp(prod, partial, sizeof partial) == 0);
    memcpy(prod, m, sizeof m);
    MPI_Exscan(MPI_IN_PLACE, prod, 2, mat, op_mm, comm);
    if (r > 0)
        CHECK(memcmp(prod + 4, before, sizeof before) == 0);
    /* Reduce_scatter_block of one matrix per rank. */
    int *many = malloc(4 * n * sizeof(int)), mine[4];
    for (int i = 0; i < n; i++)
        rank_matrix(r, many + 4 * i);
    MPI_Reduce_scatter_block(many, mine, 1, mat, op_mm, comm);
    CHECK(memcmp(mine, expect, sizeof expect) == 0);
    free(many);

    MPI_Op_free(&op_sm);
    MPI_Op_free(&op_mm);
    CHECK_EQ(op_mm, MPI_OP_NULL);
    MPI_Type_free(&pair);
    MPI_Type_free(&mat);
}

static void run_all(MPI_Comm comm)
{
    in_place_all(comm);
    zero_counts(comm);
    user_ops(comm);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, res;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    run_all(MPI_COMM_WORLD);
    run_all(MPI_COMM_SELF);

    MPI_Comm dup, parity, reversed, single, subset;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    run_all(dup);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &parity);
    run_all(parity);
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - rank, &reversed);
    int rr;
    MPI_Comm_rank(reversed, &rr);
    CHECK_EQ(rr, size - 1 - rank);
    run_all(reversed);
    MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &single);
    MPI_Comm_size(single, &res);
    CHECK_EQ(res, 1);
    run_all(single);

    /* The first (size + 1) / 2 ranks of the world by Comm_create; the others get NULL. */
    MPI_Group world, firsts;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int range[1][3] = {{0, (size - 1) / 2, 1}};
    MPI_Group_range_incl(world, 1, range, &firsts);
    CHECK_EQ(MPI_Comm_create(MPI_COMM_WORLD, firsts, &subset), MPI_SUCCESS);
    if (rank <= (size - 1) / 2) {
        CHECK(subset != MPI_COMM_NULL);
        MPI_Comm_size(subset, &res);
        CHECK_EQ(res, (size + 1) / 2);
        run_all(subset);
        MPI_Comm_free(&subset);
    } else {
        CHECK_EQ(subset, MPI_COMM_NULL);
    }
    /* A collective on a dup of the subset's complement split, created while the subset
     * exists: communicators never mix. */
    MPI_Comm none;
    CHECK_EQ(MPI_Comm_split(MPI_COMM_WORLD, MPI_UNDEFINED, 0, &none), MPI_SUCCESS);
    CHECK_EQ(none, MPI_COMM_NULL);
    MPI_Group_free(&firsts);
    MPI_Group_free(&world);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&parity);
    MPI_Comm_free(&reversed);
    MPI_Comm_free(&single);
    int rc = check_finish("mu_coll_comms");
    MPI_Finalize();
    return rc;
}
