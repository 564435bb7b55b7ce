/* The topologies of the neighbourhood-collective programs (topo_neighbor.c, blocking;
 * topo_ineighbor.c, nonblocking): Cartesian grids (periodic and not, with dimensions of size 1
 * and 2 whose source and dest are one process, MPI_PROC_NULL off the borders), a graph with a
 * self-loop and repeated edges, and a distributed graph with a repeated edge. Every block
 * carries (sender, sender's block index) so each one is checked to come from the right
 * neighbour and the right block; blocks of MPI_PROC_NULL neighbours must stay untouched. */
#ifndef LWMPI_TEST_NEIGHBOR_H
#define LWMPI_TEST_NEIGHBOR_H
#include <stdlib.h>
#include <string.h>

#include "suite.h"

#define MAXN 16
#define UNTOUCHED (-1)

typedef struct {
    const char *name;
    MPI_Comm comm;
    int in, out;
    int src[MAXN], dst[MAXN];
    int peer_block[MAXN]; /* which of the sender's blocks lands in my block k */
} Case;

static _Thread_local int me; /* ranks share globals */

/* Dist graph of topo_dist_graph.c: r -> r+1, r -> r+2, and 0 -> 1 again. */
static int dist_out(int r, int n, int *dest)
{
    int k = 0;
    dest[k++] = (r + 1) % n;
    dest[k++] = (r + 2) % n;
    if (r == 0)
        dest[k++] = 1 % n;
    return k;
}

/* Pairs repeated neighbours by order: my j-th block from S is S's j-th block to me. */
static void pair_blocks(Case *c, int (*out_list)(Case *, int, int *))
{
    for (int k = 0; k < c->in; k++) {
        int s = c->src[k], j = 0, list[MAXN];
        for (int q = 0; q < k; q++)
            j += c->src[q] == s;
        int n = out_list(c, s, list);
        c->peer_block[k] = -1;
        for (int p = 0; p < n; p++)
            if (list[p] == me && j-- == 0) {
                c->peer_block[k] = p;
                break;
            }
        SUITE_CHECK(c->peer_block[k] >= 0, "%s: no block of %d pairs with my block %d", c->name, s, k);
    }
}

static int graph_out(Case *c, int node, int *list)
{
    int n = 0;
    MPI_Graph_neighbors_count(c->comm, node, &n);
    MPI_Graph_neighbors(c->comm, node, MAXN, list);
    return n;
}

static int dist_out_of(Case *c, int node, int *list)
{
    int n;
    MPI_Comm_size(c->comm, &n);
    return dist_out(node, n, list);
}

static void cart_case(Case *c, const char *name, int ndims, int *dims, const int *periods)
{
    c->name = name;
    MPI_Cart_create(MPI_COMM_WORLD, ndims, dims, periods, 0, &c->comm);
    c->in = c->out = 2 * ndims;
    for (int i = 0; i < ndims; i++) {
        MPI_Cart_shift(c->comm, i, 1, &c->src[2 * i], &c->src[2 * i + 1]);
        c->dst[2 * i] = c->src[2 * i];
        c->dst[2 * i + 1] = c->src[2 * i + 1];
        /* The block sent towards the source is the one the source receives from its dest. */
        c->peer_block[2 * i] = 2 * i + 1;
        c->peer_block[2 * i + 1] = 2 * i;
    }
}

/* Value of element e of the block `block` that `sender` sends in the alltoall forms. */
static int value(int sender, int block, int e) { return sender * 1000 + block * 10 + e; }
/* Element count of a sender's block in the v and w forms (pairwise equal by construction). */
static int vcount(int sender, int block) { return 1 + (sender + block) % 3; }

static void check_block(Case *c, const char *op, const int *got, int k, int count, int gather)
{
    int s = c->src[k];
    for (int e = 0; e < count; e++) {
        int want = s == MPI_PROC_NULL ? UNTOUCHED
                   : gather          ? value(s, 0, e)
                                     : value(s, c->peer_block[k], e);
        SUITE_CHECK(got[e] == want, "%s %s: block %d (from %d) element %d is %d, expected %d",
                    c->name, op, k, s, e, got[e], want);
    }
}

/* Runs `run` on every topology above (each communicator is freed by `run`). */
static void neighbor_cases(void (*run)(Case *))
{
    int n;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    Case c;

    int open1[1] = {0}, ring1[1] = {1};
    int line[1] = {n};
    cart_case(&c, "line", 1, line, open1);
    run(&c);
    cart_case(&c, "ring", 1, line, ring1);
    run(&c);
    int d2[2] = {0, 0}, p2[2] = {1, 0}, p2b[2] = {0, 1};
    MPI_Dims_create(n, 2, d2);
    cart_case(&c, "grid2d", 2, d2, p2);
    run(&c);
    cart_case(&c, "grid2d_b", 2, d2, p2b);
    run(&c);
    int d3[3] = {0, 0, 0}, p3[3] = {1, 1, 1};
    MPI_Dims_create(n, 3, d3);
    cart_case(&c, "torus3d", 3, d3, p3);
    run(&c);
    /* Periodic dimensions of size 1 and 2: source and dest are the same process. */
    int thin[3] = {1, n, 1};
    cart_case(&c, "thin", 3, thin, p3);
    run(&c);
    if (n % 2 == 0) {
        int two[2] = {2, n / 2};
        int both[2] = {1, 1};
        cart_case(&c, "two", 2, two, both);
        run(&c);
    }

    /* The graph of topo_graph.c: a ring; node 0 also has a self-loop and a second edge to
     * node 1, node 1 a second edge to node 0. */
    int index[MAXN * 2], edges[MAXN * 4], e = 0;
    for (int i = 0; i < n; i++) {
        edges[e++] = (i + 1) % n;
        edges[e++] = (i - 1 + n) % n;
        if (i == 0) {
            edges[e++] = 0;
            edges[e++] = 1;
        }
        if (i == 1)
            edges[e++] = 0;
        index[i] = e;
    }
    if (n <= 2 * MAXN - 2) {
        c.name = "graph";
        MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 0, &c.comm);
        c.in = c.out = graph_out(&c, me, c.src);
        memcpy(c.dst, c.src, sizeof c.src);
        pair_blocks(&c, graph_out);
        run(&c);
    }

    /* The distributed graph, each process giving its own out-edges. */
    c.name = "dist_graph";
    int degree = dist_out(me, n, c.dst);
    MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &me, &degree, c.dst, MPI_UNWEIGHTED, MPI_INFO_NULL,
                          0, &c.comm);
    int weighted;
    MPI_Dist_graph_neighbors_count(c.comm, &c.in, &c.out, &weighted);
    MPI_Dist_graph_neighbors(c.comm, MAXN, c.src, MPI_UNWEIGHTED, MAXN, c.dst, MPI_UNWEIGHTED);
    pair_blocks(&c, dist_out_of);
    run(&c);
}

#endif
