// Graph topologies of MPI_Graph_create (MPI 3.1 7.5.3, 7.5.5, 7.5.7): the constructor, its
// queries and MPI_Graph_map. Every process holds the whole graph; nodes are the first ranks
// of the old communicator in order (reorder is a hint).
#include <string.h>

#include "api.hpp"
#include "comm.hpp"
#include "errhandler.hpp"
#include "topo.hpp"
#include "topo_logic.hpp"

namespace lwmpi {

namespace {

// A graph description: MPI_ERR_ARG for a negative node count, more nodes than processes,
// missing arrays, or an index or edge that does not describe a graph.
int check_graph(const Comm& c, int nnodes, const int* index, const int* edges)
{
    if (nnodes < 0 || nnodes > c.size || (nnodes > 0 && !index))
        return MPI_ERR_ARG;
    if (nnodes > 0 && index[nnodes - 1] > 0 && !edges)
        return MPI_ERR_ARG;
    return topo::graph_valid(nnodes, index, edges) ? MPI_SUCCESS : MPI_ERR_ARG;
}

// The graph's node for `rank`: MPI_ERR_RANK unless one of its nodes.
int check_node(const Topology& t, int rank)
{
    return rank >= 0 && rank < t.nnodes ? MPI_SUCCESS : MPI_ERR_RANK;
}

}  // namespace

}  // namespace lwmpi

using namespace lwmpi;

int api::Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[],
                      int /*reorder*/, MPI_Comm* comm_graph)
{
    Comm* c = comm_get(comm_old);
    if (!c)
        return fail(comm_old, MPI_ERR_COMM);
    int err = comm_graph ? check_graph(*c, nnodes, index, edges) : MPI_ERR_ARG;
    if (err != MPI_SUCCESS)
        return fail(comm_old, err);
    bool member = c->rank < nnodes;
    Topology* t = nullptr;
    if (member) {
        int nedges = index[nnodes - 1];
        t = topo_alloc(MPI_GRAPH, nnodes + nedges);
        if (!t)
            return fail(comm_old, MPI_ERR_NO_MEM);
        t->nnodes = nnodes;
        t->nedges = nedges;
        memcpy(t->data(), index, sizeof(int) * nnodes);
        if (nedges > 0)
            memcpy(t->data() + nnodes, edges, sizeof(int) * nedges);
    }
    return topo_comm_split(comm_old, member ? 0 : MPI_UNDEFINED, c->rank, t, comm_graph);
}

int api::Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int* newrank)
{
    Comm* c = comm_get(comm);
    if (!c)
        return fail(comm, MPI_ERR_COMM);
    int err = newrank ? check_graph(*c, nnodes, index, edges) : MPI_ERR_ARG;
    if (err != MPI_SUCCESS)
        return fail(comm, err);
    *newrank = c->rank < nnodes ? c->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

int api::Graphdims_get(MPI_Comm comm, int* nnodes, int* nedges)
{
    Comm* c;
    const Topology* t;
    int err = topo_enter(comm, MPI_GRAPH, &c, &t);
    if (err == MPI_SUCCESS && (!nnodes || !nedges))
        err = MPI_ERR_ARG;
    if (err != MPI_SUCCESS)
        return fail(comm, err);
    *nnodes = t->nnodes;
    *nedges = t->nedges;
    return MPI_SUCCESS;
}

int api::Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[])
{
    Comm* c;
    const Topology* t;
    int err = topo_enter(comm, MPI_GRAPH, &c, &t);
    if (err == MPI_SUCCESS && (maxindex < 0 || maxedges < 0 || (maxindex > 0 && !index) ||
                               (maxedges > 0 && !edges)))
        err = MPI_ERR_ARG;
    if (err != MPI_SUCCESS)
        return fail(comm, err);
    // The arrays' lengths bound what is returned (7.5.5).
    for (int i = 0; i < t->nnodes && i < maxindex; i++)
        index[i] = t->index()[i];
    for (int e = 0; e < t->nedges && e < maxedges; e++)
        edges[e] = t->edges()[e];
    return MPI_SUCCESS;
}

int api::Graph_neighbors_count(MPI_Comm comm, int rank, int* nneighbors)
{
    Comm* c;
    const Topology* t;
    int err = topo_enter(comm, MPI_GRAPH, &c, &t);
    if (err == MPI_SUCCESS)
        err = check_node(*t, rank);
    if (err == MPI_SUCCESS && !nneighbors)
        err = MPI_ERR_ARG;
    if (err != MPI_SUCCESS)
        return fail(comm, err);
    int first;
    topo::graph_neighbors(t->index(), rank, &first, nneighbors);
    return MPI_SUCCESS;
}

int api::Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[])
{
    Comm* c;
    const Topology* t;
    int err = topo_enter(comm, MPI_GRAPH, &c, &t);
    if (err == MPI_SUCCESS)
        err = check_node(*t, rank);
    if (err == MPI_SUCCESS && (maxneighbors < 0 || (maxneighbors > 0 && !neighbors)))
        err = MPI_ERR_ARG;
    if (err != MPI_SUCCESS)
        return fail(comm, err);
    int first, count;
    topo::graph_neighbors(t->index(), rank, &first, &count);
    for (int i = 0; i < count && i < maxneighbors; i++)
        neighbors[i] = t->edges()[first + i];
    return MPI_SUCCESS;
}
