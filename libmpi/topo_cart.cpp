// Cartesian topologies (MPI 3.1 7.5.1, 7.5.2, 7.5.5-7.5.7): MPI_Dims_create, the constructor,
// queries, shifts, sub-grids and MPI_Cart_map. Ranks are never reordered: the grid takes the
// first ranks of the old communicator in order (reorder is a hint, 7.5.1).
#include <stdlib.h>

#include "api.hpp"
#include "comm.hpp"
#include "errhandler.hpp"
#include "topo.hpp"
#include "topo_logic.hpp"

namespace lwmpi {

namespace {

// A grid description: MPI_ERR_DIMS for a negative dimension count or a dimension not > 0,
// MPI_ERR_ARG for a missing array.
int check_grid(int ndims, const int* dims, const int* periods)
{
    if (ndims < 0)
        return MPI_ERR_DIMS;
    if (ndims > 0 && (!dims || !periods))
        return MPI_ERR_ARG;
    for (int i = 0; i < ndims; i++)
        if (dims[i] <= 0)
            return MPI_ERR_DIMS;
    return MPI_SUCCESS;
}

// The grid's size, at most the communicator's (MPI_ERR_ARG: the grid does not fit).
int grid_fits(const Comm& c, int ndims, const int* dims, int* size)
{
    return topo::grid_size(ndims, dims, c.size, size) ? MPI_SUCCESS : MPI_ERR_ARG;
}

}  // namespace

}  // namespace lwmpi

using namespace lwmpi;

int api::Dims_create(int nnodes, int ndims, int dims[])
{
    if (ndims < 0)
        return world_error(MPI_ERR_DIMS);
    if (nnodes <= 0 || (ndims > 0 && !dims))
        return world_error(MPI_ERR_ARG);
    for (int i = 0; i < ndims; i++)
        if (dims[i] < 0)
            return world_error(MPI_ERR_DIMS);
    int* scratch = static_cast<int*>(malloc(sizeof(int) * (topo::kMaxDivisors + 2 * static_cast<size_t>(ndims))));
    if (!scratch)
        return world_error(MPI_ERR_NO_MEM);
    bool ok = topo::dims_create(nnodes, ndims, dims, scratch);
    free(scratch);
    return ok ? MPI_SUCCESS : world_error(MPI_ERR_DIMS);
}

int api::Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[],
                     int /*reorder*/, MPI_Comm* comm_cart)
{
    Comm* c = comm_get(comm_old);
    if (!c)
        return fail(comm_old, MPI_ERR_COMM);
    if (!comm_cart)
        return fail(comm_old, MPI_ERR_ARG);
    int size = 0;
    int err = check_grid(ndims, dims, periods);
    if (err == MPI_SUCCESS)
        err = grid_fits(*c, ndims, dims, &size);
    if (err != MPI_SUCCESS)
        return fail(comm_old, err);
    bool member = c->rank < size;
    Topology* t = member ? cart_make(ndims, dims, periods, c->rank) : nullptr;
    if (member && !t)
        return fail(comm_old, MPI_ERR_NO_MEM);
    return topo_comm_split(comm_old, member ? 0 : MPI_UNDEFINED, c->rank, t, comm_cart);
}

int api::Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int* newrank)
{
    Comm* c = comm_get(comm);
    if (!c)
        return fail(comm, MPI_ERR_COMM);
    if (!newrank)
        return fail(comm, MPI_ERR_ARG);
    int size = 0;
    int err = check_grid(ndims, dims, periods);
    if (err == MPI_SUCCESS)
        err = grid_fits(*c, ndims, dims, &size);
    if (err != MPI_SUCCESS)
        return fail(comm, err);
    *newrank = c->rank < size ? c->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

int api::Cartdim_get(MPI_Comm comm, int* ndims)
{
    Comm* c;
    const Topology* t;
    int err = topo_enter(comm, MPI_CART, &c, &t);
    if (err == MPI_SUCCESS && !ndims)
        err = MPI_ERR_ARG;
    if (err != MPI_SUCCESS)
        return fail(comm, err);
    *ndims = t->ndims;
    return MPI_SUCCESS;
}

int api::Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[])
{
    Comm* c;
    const Topology* t;
    int err = topo_enter(comm, MPI_CART, &c, &t);
    if (err == MPI_SUCCESS && (maxdims < t->ndims || (t->ndims > 0 && (!dims || !periods || !coords))))
        err = MPI_ERR_ARG;
    if (err != MPI_SUCCESS)
        return fail(comm, err);
    for (int i = 0; i < t->ndims; i++) {
        dims[i] = t->dims()[i];
        periods[i] = t->periods()[i];
        coords[i] = t->coords()[i];
    }
    return MPI_SUCCESS;
}

int api::Cart_rank(MPI_Comm comm, const int coords[], int* rank)
{
    Comm* c;
    const Topology* t;
    int err = topo_enter(comm, MPI_CART, &c, &t);
    if (err == MPI_SUCCESS && (!rank || (t->ndims > 0 && !coords)))
        err = MPI_ERR_ARG;
    // A coordinate outside a non-periodic dimension is erroneous (7.5.5).
    if (err == MPI_SUCCESS && !topo::cart_rank(t->ndims, t->dims(), t->periods(), coords, rank))
        err = MPI_ERR_ARG;
    return fail(comm, err);
}

int api::Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[])
{
    Comm* c;
    const Topology* t;
    int err = topo_enter(comm, MPI_CART, &c, &t);
    if (err == MPI_SUCCESS && (rank < 0 || rank >= c->size))
        err = MPI_ERR_RANK;
    if (err == MPI_SUCCESS && (maxdims < t->ndims || (t->ndims > 0 && !coords)))
        err = MPI_ERR_ARG;
    if (err != MPI_SUCCESS)
        return fail(comm, err);
    topo::cart_coords(t->ndims, t->dims(), rank, coords);
    return MPI_SUCCESS;
}

int api::Cart_shift(MPI_Comm comm, int direction, int disp, int* rank_source, int* rank_dest)
{
    Comm* c;
    const Topology* t;
    int err = topo_enter(comm, MPI_CART, &c, &t);
    if (err == MPI_SUCCESS && (direction < 0 || direction >= t->ndims))
        err = MPI_ERR_DIMS;
    if (err == MPI_SUCCESS && (!rank_source || !rank_dest))
        err = MPI_ERR_ARG;
    if (err != MPI_SUCCESS)
        return fail(comm, err);
    topo::cart_shift(t->ndims, t->dims(), t->periods(), t->coords(), direction, disp, rank_source,
                     rank_dest);
    return MPI_SUCCESS;
}

int api::Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm)
{
    Comm* c;
    const Topology* t;
    int err = topo_enter(comm, MPI_CART, &c, &t);
    if (err == MPI_SUCCESS && (!newcomm || (t->ndims > 0 && !remain_dims)))
        err = MPI_ERR_ARG;
    if (err != MPI_SUCCESS)
        return fail(comm, err);
    int n = t->ndims;
    int* kept = static_cast<int*>(malloc(sizeof(int) * (2 * static_cast<size_t>(n) + 1)));
    if (!kept)
        return fail(comm, MPI_ERR_NO_MEM);
    int* kept_periods = kept + n;
    int k = 0;
    for (int i = 0; i < n; i++)
        if (remain_dims[i]) {
            kept[k] = t->dims()[i];
            kept_periods[k++] = t->periods()[i];
        }
    int color, key;
    topo::cart_sub(n, t->dims(), t->coords(), remain_dims, &color, &key);
    // Keeping no dimension gives each process a zero-dimensional grid of its own (7.5.7).
    Topology* sub = cart_make(k, kept, kept_periods, key);
    free(kept);
    if (!sub)
        return fail(comm, MPI_ERR_NO_MEM);
    return topo_comm_split(comm, color, key, sub, newcomm);
}
