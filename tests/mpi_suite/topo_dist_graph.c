/* Distributed graphs (7.5.4, 7.5.5): the same weighted graph built by
 * MPI_Dist_graph_create_adjacent and by MPI_Dist_graph_create with the edges given by
 * other processes than their ends (every edge by one process, rank 0 giving many), a
 * repeated edge, the queries (counts, neighbours, weights, their order), unweighted graphs
 * (MPI_UNWEIGHTED) and a process without edges (MPI_WEIGHTS_EMPTY). */
#include <stdlib.h>

#include "suite.h"

/* The graph on n processes: r -> r+1 (weight 100 r + 1) and r -> r+2 (weight 100 r + 2),
 * plus a second edge 0 -> 1 (weight 7). In-edges of r arrive in the order of the sources'
 * ranks, then of their edges. */
static int out_edges(int r, int n, int *dest, int *w)
{
    int k = 0;
    dest[k] = (r + 1) % n;
    w[k++] = 100 * r + 1;
    dest[k] = (r + 2) % n;
    w[k++] = 100 * r + 2;
    if (r == 0) {
        dest[k] = 1 % n;
        w[k++] = 7;
    }
    return k;
}

static int in_edges(int me, int n, int *src, int *w)
{
    int k = 0;
    for (int r = 0; r < n; r++) {
        int d[3], dw[3], m = out_edges(r, n, d, dw);
        for (int j = 0; j < m; j++)
            if (d[j] == me) {
                src[k] = r;
                w[k++] = dw[j];
            }
    }
    return k;
}

static void check(MPI_Comm g, int me, int n, int weighted)
{
    int status = -1, in = -1, out = -1, wflag = -1;
    MPI_Topo_test(g, &status);
    SUITE_CHECK(status == MPI_DIST_GRAPH, "Topo_test %d", status);
    int src[8], sw[8], dst[8], dw[8];
    int esrc[8], esw[8], edst[8], edw[8];
    int ein = in_edges(me, n, esrc, esw), eout = out_edges(me, n, edst, edw);
    MPI_Dist_graph_neighbors_count(g, &in, &out, &wflag);
    SUITE_CHECK(in == ein && out == eout, "degrees %d %d, expected %d %d", in, out, ein, eout);
    SUITE_CHECK(!!wflag == weighted, "weighted %d", wflag);
    for (int i = 0; i < 8; i++)
        sw[i] = dw[i] = -1;
    MPI_Dist_graph_neighbors(g, 8, src, sw, 8, dst, dw);
    for (int i = 0; i < in && i < ein; i++) {
        SUITE_CHECK(src[i] == esrc[i], "source %d is %d, expected %d", i, src[i], esrc[i]);
        SUITE_CHECK(sw[i] == (weighted ? esw[i] : -1), "source weight %d is %d", i, sw[i]);
    }
    for (int i = 0; i < out && i < eout; i++) {
        SUITE_CHECK(dst[i] == edst[i], "destination %d is %d, expected %d", i, dst[i], edst[i]);
        SUITE_CHECK(dw[i] == (weighted ? edw[i] : -1), "destination weight %d is %d", i, dw[i]);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int n, me;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    int src[8], sw[8], dst[8], dw[8];
    int in = in_edges(me, n, src, sw), out = out_edges(me, n, dst, dw);

    MPI_Comm g;
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, in, src, sw, out, dst, dw, MPI_INFO_NULL, 0, &g);
    check(g, me, n, 1);
    MPI_Comm dup;
    MPI_Comm_dup(g, &dup);
    MPI_Comm_free(&g);
    check(dup, me, n, 1);
    MPI_Comm_free(&dup);
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, in, src, MPI_UNWEIGHTED, out, dst,
                                   MPI_UNWEIGHTED, MPI_INFO_NULL, 1, &g);
    check(g, me, n, 0);
    MPI_Comm_free(&g);

    /* The general form: rank 0 gives the edges of the first half of the processes, the
     * last rank those of the others (rank order of the contributors is 0 first). */
    int half = (n + 1) / 2;
    int *srcs = malloc(sizeof(int) * n), *degs = malloc(sizeof(int) * n);
    int *dsts = malloc(sizeof(int) * 3 * n), *ws = malloc(sizeof(int) * 3 * n);
    int k = 0, e = 0;
    if (me == 0 || me == n - 1)
        for (int r = me == 0 ? 0 : half; r < (me == 0 ? half : n); r++) {
            srcs[k] = r;
            degs[k] = out_edges(r, n, dsts + e, ws + e);
            e += degs[k++];
        }
    MPI_Dist_graph_create(MPI_COMM_WORLD, k, srcs, degs, dsts, k > 0 ? ws : MPI_WEIGHTS_EMPTY,
                          MPI_INFO_NULL, 0, &g);
    check(g, me, n, 1);
    MPI_Comm_free(&g);
    MPI_Dist_graph_create(MPI_COMM_WORLD, k, srcs, degs, dsts, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g);
    check(g, me, n, 0);
    MPI_Comm_free(&g);
    /* Every process gives its own out-edges. */
    srcs[0] = me;
    degs[0] = out_edges(me, n, dsts, ws);
    MPI_Dist_graph_create(MPI_COMM_WORLD, 1, srcs, degs, dsts, ws, MPI_INFO_NULL, 0, &g);
    check(g, me, n, 1);
    MPI_Comm_free(&g);

    /* No edges at all. */
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, NULL, MPI_WEIGHTS_EMPTY, 0, NULL,
                                   MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 0, &g);
    int din = -1, dout = -1, wflag = -1;
    MPI_Dist_graph_neighbors_count(g, &din, &dout, &wflag);
    SUITE_CHECK(din == 0 && dout == 0 && wflag, "empty weighted graph %d %d %d", din, dout, wflag);
    MPI_Comm_free(&g);
    free(srcs);
    free(degs);
    free(dsts);
    free(ws);
    return suite_finalize();
}
