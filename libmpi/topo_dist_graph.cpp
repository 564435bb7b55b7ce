// Distributed graph topologies (MPI 3.1 7.5.4, 7.5.5): each process gives some edges, and
// holds only its own in- and out-edges. MPI_Dist_graph_create gathers every edge (in
// contributor rank order) so each process picks its own; the adjacent form has them already.
// Neighbours keep the order they were given in (adjacent) or that gather order.
#include <stdlib.h>
#include <string.h>

#include "api.hpp"
#include "coll.hpp"
#include "comm.hpp"
#include "errhandler.hpp"
#include "topo.hpp"
#include "topo_logic.hpp"

namespace lwmpi {

namespace {

int check_ranks(const Comm& c, int n, const int* ranks)
{
    for (int i = 0; i < n; i++)
        if (ranks[i] < 0 || ranks[i] >= c.size)
            return MPI_ERR_RANK;
    return MPI_SUCCESS;
}

// The weights of `n` edges: MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY (only for no edge) or an
// array of non-negative weights (MPI_ERR_ARG otherwise).
int check_weights(int n, const int* weights)
{
    if (weights == MPI_UNWEIGHTED)
        return MPI_SUCCESS;
    if (n > 0 && (!weights || weights == MPI_WEIGHTS_EMPTY))
        return MPI_ERR_ARG;
    for (int i = 0; i < n; i++)
        if (weights[i] < 0)
            return MPI_ERR_ARG;
    return MPI_SUCCESS;
}

// One side's list of neighbours: a degree and its ranks.
int check_side(const Comm& c, int degree, const int* ranks, const int* weights)
{
    if (degree < 0 || (degree > 0 && !ranks))
        return MPI_ERR_ARG;
    int err = check_ranks(c, degree, ranks);
    return err == MPI_SUCCESS ? check_weights(degree, weights) : err;
}

Topology* dist_alloc(int indegree, int outdegree, bool weighted)
{
    Topology* t = topo_alloc(MPI_DIST_GRAPH, 2 * (indegree + outdegree));
    if (t) {
        t->indegree = indegree;
        t->outdegree = outdegree;
        t->weighted = weighted;
    }
    return t;
}

// What each process tells the others before the edges move: its edge count, whether it gave
// weights, and its verdict on its own arguments (so that all fail together).
struct Contribution {
    int edges;
    int weighted;
    int error;
};

// This process's edges of MPI_Dist_graph_create, checked, as (source, dest, weight).
int local_edges(const Comm& c, int n, const int* sources, const int* degrees,
                const int* destinations, const int* weights, topo::Edge** out, int* count)
{
    *out = nullptr;
    *count = 0;
    if (n < 0 || (n > 0 && (!sources || !degrees)))
        return MPI_ERR_ARG;
    int err = check_ranks(c, n, sources);
    if (err != MPI_SUCCESS)
        return err;
    long total = 0;
    for (int i = 0; i < n; i++) {
        if (degrees[i] < 0)
            return MPI_ERR_ARG;
        total += degrees[i];
    }
    if (total > 0x7fffffff / 3)
        return MPI_ERR_ARG;
    int e = static_cast<int>(total);
    if (e > 0 && !destinations)
        return MPI_ERR_ARG;
    if ((err = check_ranks(c, e, destinations)) != MPI_SUCCESS || (err = check_weights(e, weights)))
        return err;
    topo::Edge* edges = static_cast<topo::Edge*>(malloc(sizeof(topo::Edge) * (e + 1)));
    if (!edges)
        return MPI_ERR_NO_MEM;
    int k = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < degrees[i]; j++, k++)
            edges[k] = {sources[i], destinations[k], weights == MPI_UNWEIGHTED ? 0 : weights[k]};
    *out = edges;
    *count = e;
    return MPI_SUCCESS;
}

// Every process's edges, in rank order, and this process's topology from them.
int assemble(Comm& c, const topo::Edge* mine, int count, const Contribution* all, Topology** out)
{
    int* counts = static_cast<int*>(malloc(sizeof(int) * 2 * (c.size + 1)));
    if (!counts)
        return MPI_ERR_NO_MEM;
    int* displs = counts + c.size + 1;
    long total = 0;
    bool weighted = false;
    for (int r = 0; r < c.size; r++) {
        counts[r] = 3 * all[r].edges;
        displs[r] = static_cast<int>(3 * total);
        total += all[r].edges;
        weighted = weighted || all[r].weighted;
    }
    topo::Edge* every = static_cast<topo::Edge*>(malloc(sizeof(topo::Edge) * (total + 1)));
    int err = every ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    if (err == MPI_SUCCESS)
        err = api::Allgatherv(mine, 3 * count, MPI_INT, every, counts, displs, MPI_INT, c.handle);
    free(counts);
    Topology* t = nullptr;
    if (err == MPI_SUCCESS) {
        int in, outd;
        topo::dist_graph_edges(every, static_cast<int>(total), c.rank, &in, nullptr, nullptr, &outd,
                               nullptr, nullptr);
        t = dist_alloc(in, outd, weighted);
        if (!t)
            err = MPI_ERR_NO_MEM;
        else
            topo::dist_graph_edges(every, static_cast<int>(total), c.rank, &in, t->data(),
                                   t->data() + in, &outd, t->data() + 2 * in,
                                   t->data() + 2 * in + outd);
    }
    free(every);
    *out = t;
    return err;
}

}  // namespace

}  // namespace lwmpi

using namespace lwmpi;

static_assert(sizeof(topo::Edge) == 3 * sizeof(int), "an edge travels as three MPI_INTs");

int api::Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                    const int sourceweights[], int outdegree,
                                    const int destinations[], const int destweights[],
                                    MPI_Info info, int /*reorder*/, MPI_Comm* comm_dist_graph)
{
    Comm* c = comm_get(comm_old);
    if (!c)
        return fail(comm_old, MPI_ERR_COMM);
    int err = comm_dist_graph ? check_info(info) : MPI_ERR_ARG;
    if (err == MPI_SUCCESS)
        err = check_side(*c, indegree, sources, sourceweights);
    if (err == MPI_SUCCESS)
        err = check_side(*c, outdegree, destinations, destweights);
    // Weights are given for both sides or for neither (7.5.4).
    if (err == MPI_SUCCESS && (sourceweights == MPI_UNWEIGHTED) != (destweights == MPI_UNWEIGHTED))
        err = MPI_ERR_ARG;
    if (err != MPI_SUCCESS)
        return fail(comm_old, err);
    bool weighted = sourceweights != MPI_UNWEIGHTED;
    Topology* t = dist_alloc(indegree, outdegree, weighted);
    if (!t)
        return fail(comm_old, MPI_ERR_NO_MEM);
    int* d = t->data();
    for (int i = 0; i < indegree; i++) {
        d[i] = sources[i];
        d[indegree + i] = weighted ? sourceweights[i] : 0;
    }
    d += 2 * indegree;
    for (int i = 0; i < outdegree; i++) {
        d[i] = destinations[i];
        d[outdegree + i] = weighted ? destweights[i] : 0;
    }
    return topo_comm_split(comm_old, 0, c->rank, t, comm_dist_graph);
}

int api::Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                           const int destinations[], const int weights[], MPI_Info info,
                           int /*reorder*/, MPI_Comm* comm_dist_graph)
{
    Comm* c = comm_get(comm_old);
    if (!c)
        return fail(comm_old, MPI_ERR_COMM);
    if (!comm_dist_graph)
        return fail(comm_old, MPI_ERR_ARG);
    topo::Edge* mine = nullptr;
    int count = 0;
    int err = check_info(info);
    if (err == MPI_SUCCESS)
        err = local_edges(*c, n, sources, degrees, destinations, weights, &mine, &count);
    Contribution me = {count, weights != MPI_UNWEIGHTED, err};
    Contribution* all = static_cast<Contribution*>(malloc(sizeof(Contribution) * c->size));
    int gathered = all ? coll_allgather_bytes(*c, &me, sizeof me, all) : MPI_ERR_NO_MEM;
    // Any process's bad argument fails the call everywhere (own verdict first).
    for (int r = 0; gathered == MPI_SUCCESS && err == MPI_SUCCESS && r < c->size; r++)
        err = all[r].error;
    if (gathered != MPI_SUCCESS && err == MPI_SUCCESS)
        err = gathered;
    Topology* t = nullptr;
    if (err == MPI_SUCCESS)
        err = assemble(*c, mine, count, all, &t);
    free(mine);
    free(all);
    if (err != MPI_SUCCESS)
        return fail(comm_old, err);
    return topo_comm_split(comm_old, 0, c->rank, t, comm_dist_graph);
}

int api::Dist_graph_neighbors_count(MPI_Comm comm, int* indegree, int* outdegree, int* weighted)
{
    Comm* c;
    const Topology* t;
    int err = topo_enter(comm, MPI_DIST_GRAPH, &c, &t);
    if (err == MPI_SUCCESS && (!indegree || !outdegree || !weighted))
        err = MPI_ERR_ARG;
    if (err != MPI_SUCCESS)
        return fail(comm, err);
    *indegree = t->indegree;
    *outdegree = t->outdegree;
    *weighted = t->weighted;
    return MPI_SUCCESS;
}

int api::Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[],
                              int maxoutdegree, int destinations[], int destweights[])
{
    Comm* c;
    const Topology* t;
    int err = topo_enter(comm, MPI_DIST_GRAPH, &c, &t);
    if (err == MPI_SUCCESS &&
        (maxindegree < 0 || maxoutdegree < 0 || (maxindegree > 0 && !sources) ||
         (maxoutdegree > 0 && !destinations)))
        err = MPI_ERR_ARG;
    // Weights are returned only for a weighted graph, and only into real arrays.
    bool want_in = t && t->weighted && sourceweights != MPI_UNWEIGHTED &&
                   sourceweights != MPI_WEIGHTS_EMPTY && sourceweights;
    bool want_out = t && t->weighted && destweights != MPI_UNWEIGHTED &&
                    destweights != MPI_WEIGHTS_EMPTY && destweights;
    if (err != MPI_SUCCESS)
        return fail(comm, err);
    for (int i = 0; i < t->indegree && i < maxindegree; i++) {
        sources[i] = t->sources()[i];
        if (want_in)
            sourceweights[i] = t->source_weights()[i];
    }
    for (int i = 0; i < t->outdegree && i < maxoutdegree; i++) {
        destinations[i] = t->dests()[i];
        if (want_out)
            destweights[i] = t->dest_weights()[i];
    }
    return MPI_SUCCESS;
}
