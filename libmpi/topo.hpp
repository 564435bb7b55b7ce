// Process topologies (MPI 3.1 chapter 7) attached to communicators: a Cartesian grid, a graph
// (MPI_Graph_create) or a distributed graph. One allocation holds the header and its arrays;
// the communicator owns it (freed with it, copied by MPI_Comm_dup).
#pragma once

#include <mpi.h>

namespace lwmpi {

struct Comm;

struct Topology {
    int kind;        // MPI_CART, MPI_GRAPH or MPI_DIST_GRAPH
    int ndims;       // Cartesian: dims, periods, my coords, my neighbours (2 per dimension)
    int nnodes;      // graph: index[nnodes], edges[nedges]
    int nedges;
    int indegree;    // distributed graph: sources, their weights, destinations, theirs
    int outdegree;
    bool weighted;
    int ints;        // ints after the header

    int* data() { return reinterpret_cast<int*>(this + 1); }
    const int* data() const { return reinterpret_cast<const int*>(this + 1); }
    // Cartesian
    const int* dims() const { return data(); }
    const int* periods() const { return data() + ndims; }
    const int* coords() const { return data() + 2 * ndims; }
    const int* cart_neighbors() const { return data() + 3 * ndims; }
    // Graph
    const int* index() const { return data(); }
    const int* edges() const { return data() + nnodes; }
    // Distributed graph
    const int* sources() const { return data(); }
    const int* source_weights() const { return data() + indegree; }
    const int* dests() const { return data() + 2 * indegree; }
    const int* dest_weights() const { return data() + 2 * indegree + outdegree; }
};

// A topology of `kind` with room for `ints` ints, zeroed; nullptr when memory is short.
Topology* topo_alloc(int kind, int ints);
void topo_free(Topology* t);                 // null is fine
// A copy for MPI_Comm_dup (null for null). Returns MPI_SUCCESS or MPI_ERR_NO_MEM.
int topo_copy(const Topology* t, Topology** out);

// The communicator's topology if it is of `kind` (0: any), else nullptr.
const Topology* topo_of(const Comm& c, int kind);

// MPI_Comm_split of `parent` by (color, key) whose new communicator carries `t` (taken over in
// every case: freed on failure and where color is MPI_UNDEFINED, which gets MPI_COMM_NULL).
// Collective over parent; an error has already gone to parent's handler.
int topo_comm_split(MPI_Comm parent, int color, int key, Topology* t, MPI_Comm* out);

// The entry of a topology query: MPI_ERR_COMM for an invalid communicator, MPI_ERR_TOPOLOGY
// when it has no topology of `kind` (0: any).
int topo_enter(MPI_Comm comm, int kind, Comm** c, const Topology** t);

// A Cartesian topology of `ndims` dimensions (dims > 0 and periods checked by the caller)
// for grid rank `rank`: coordinates and neighbours filled in. nullptr when memory is short.
Topology* cart_make(int ndims, const int* dims, const int* periods, int rank);

// An info argument: MPI_INFO_NULL or a handle of the info kind (MPI_ERR_INFO otherwise).
int check_info(MPI_Info info);

}  // namespace lwmpi
