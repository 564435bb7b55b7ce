/* Graph topologies of MPI_Graph_create (7.5.3, 7.5.5): a ring where node 0 also has a
 * self-loop and a repeated edge to node 1, queried on every process (Graphdims_get,
 * Graph_get, Graph_neighbors_count, Graph_neighbors for every node), MPI_Graph_map, a graph
 * with fewer nodes than processes, and a duplicate keeping the graph. */
#include <stdlib.h>

#include "suite.h"

/* The ring of n nodes; node 0 lists 1, n-1, 0 (self-loop) and 1 again, node 1 lists 0 twice. */
static int build(int n, int *index, int *edges)
{
    int e = 0;
    for (int i = 0; i < n; i++) {
        edges[e++] = (i + 1) % n;
        edges[e++] = (i - 1 + n) % n;
        if (i == 0) {
            edges[e++] = 0;
            if (n > 1)
                edges[e++] = 1;
        }
        if (i == 1)
            edges[e++] = 0;
        index[i] = e;
    }
    return e;
}

static void check_graph(MPI_Comm graph, int n, const int *index, const int *edges, int nedges)
{
    int status = -1, nn = -1, ne = -1;
    MPI_Topo_test(graph, &status);
    SUITE_CHECK(status == MPI_GRAPH, "Topo_test %d", status);
    MPI_Graphdims_get(graph, &nn, &ne);
    SUITE_CHECK(nn == n && ne == nedges, "Graphdims_get %d %d", nn, ne);
    int *gi = malloc(sizeof(int) * n), *ge = malloc(sizeof(int) * nedges);
    MPI_Graph_get(graph, n, nedges, gi, ge);
    for (int i = 0; i < n; i++)
        SUITE_CHECK(gi[i] == index[i], "Graph_get index[%d] %d", i, gi[i]);
    for (int e = 0; e < nedges; e++)
        SUITE_CHECK(ge[e] == edges[e], "Graph_get edges[%d] %d", e, ge[e]);
    /* Shorter arrays get the first entries only. */
    gi[0] = ge[0] = -7;
    if (n > 1)
        gi[1] = -7;
    ge[1] = -7;
    MPI_Graph_get(graph, 1, 1, gi, ge);
    SUITE_CHECK(gi[0] == index[0] && ge[0] == edges[0], "Graph_get with short arrays");
    SUITE_CHECK((n == 1 || gi[1] == -7) && ge[1] == -7, "Graph_get wrote past the lengths given");
    for (int node = 0; node < n; node++) {
        int count = -1, first = node == 0 ? 0 : index[node - 1];
        MPI_Graph_neighbors_count(graph, node, &count);
        SUITE_CHECK(count == index[node] - first, "node %d has %d neighbours", node, count);
        int near[8] = {0};
        MPI_Graph_neighbors(graph, node, 8, near);
        for (int k = 0; k < count; k++)
            SUITE_CHECK(near[k] == edges[first + k], "node %d neighbour %d is %d", node, k, near[k]);
    }
    free(gi);
    free(ge);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int size, rank;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int *index = malloc(sizeof(int) * size), *edges = malloc(sizeof(int) * (2 * size + 3));
    int nedges = build(size, index, edges);
    MPI_Comm graph;
    SUITE_CHECK(MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &graph) == MPI_SUCCESS,
                "Graph_create");
    int grank = -1;
    MPI_Comm_rank(graph, &grank);
    SUITE_CHECK(grank == rank, "no reordering");
    check_graph(graph, size, index, edges, nedges);
    int newrank = -1;
    MPI_Graph_map(MPI_COMM_WORLD, size, index, edges, &newrank);
    SUITE_CHECK(newrank == rank, "Graph_map %d", newrank);
    MPI_Comm dup;
    MPI_Comm_dup(graph, &dup);
    MPI_Comm_free(&graph);
    check_graph(dup, size, index, edges, nedges);
    MPI_Comm_free(&dup);

    /* A graph of size - 1 nodes leaves the last process out. */
    int n = size - 1;
    nedges = build(n, index, edges);
    MPI_Graph_create(MPI_COMM_WORLD, n, index, edges, 1, &graph);
    SUITE_CHECK((graph == MPI_COMM_NULL) == (rank == n), "rank %d in the smaller graph", rank);
    MPI_Graph_map(MPI_COMM_WORLD, n, index, edges, &newrank);
    SUITE_CHECK(newrank == (rank == n ? MPI_UNDEFINED : rank), "Graph_map %d", newrank);
    if (graph != MPI_COMM_NULL) {
        check_graph(graph, n, index, edges, nedges);
        MPI_Comm_free(&graph);
    }
    /* A graph of no node: nobody gets a communicator. */
    MPI_Graph_create(MPI_COMM_WORLD, 0, index, edges, 0, &graph);
    SUITE_CHECK(graph == MPI_COMM_NULL, "empty graph");
    free(index);
    free(edges);
    return suite_finalize();
}
