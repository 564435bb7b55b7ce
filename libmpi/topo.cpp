// Topology objects, their attachment to communicators, and MPI_Topo_test (see topo.hpp).
#include "topo.hpp"

#include <stdlib.h>
#include <string.h>

#include "api.hpp"
#include "comm.hpp"
#include "errhandler.hpp"
#include "handles.hpp"
#include "topo_logic.hpp"

// The objects whose addresses are MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY (never read).
extern "C" {
int lwmpi_unweighted[1];
int lwmpi_weights_empty[1];
}

namespace lwmpi {

static_assert(topo::kNoRank == MPI_PROC_NULL, "a shift off the grid is MPI_PROC_NULL");

Topology* topo_alloc(int kind, int ints)
{
    size_t bytes = sizeof(Topology) + sizeof(int) * static_cast<size_t>(ints);
    Topology* t = static_cast<Topology*>(calloc(1, bytes));
    if (t) {
        t->kind = kind;
        t->ints = ints;
    }
    return t;
}

void topo_free(Topology* t) { free(t); }

int topo_copy(const Topology* t, Topology** out)
{
    *out = nullptr;
    if (!t)
        return MPI_SUCCESS;
    size_t bytes = sizeof(Topology) + sizeof(int) * static_cast<size_t>(t->ints);
    Topology* copy = static_cast<Topology*>(malloc(bytes));
    if (!copy)
        return MPI_ERR_NO_MEM;
    memcpy(copy, t, bytes);
    *out = copy;
    return MPI_SUCCESS;
}

const Topology* topo_of(const Comm& c, int kind)
{
    return c.topo && (kind == 0 || c.topo->kind == kind) ? c.topo : nullptr;
}

int topo_comm_split(MPI_Comm parent, int color, int key, Topology* t, MPI_Comm* out)
{
    int err = api::Comm_split(parent, color, key, out);
    if (err != MPI_SUCCESS || *out == MPI_COMM_NULL) {
        topo_free(t);
        return err;
    }
    comm_get(*out)->topo = t;
    return MPI_SUCCESS;
}

int topo_enter(MPI_Comm comm, int kind, Comm** c, const Topology** t)
{
    *t = nullptr;
    *c = comm_get(comm);
    if (!*c)
        return MPI_ERR_COMM;
    *t = topo_of(**c, kind);
    return *t ? MPI_SUCCESS : MPI_ERR_TOPOLOGY;
}

Topology* cart_make(int ndims, const int* dims, const int* periods, int rank)
{
    Topology* t = topo_alloc(MPI_CART, 5 * ndims);
    if (!t)
        return nullptr;
    t->ndims = ndims;
    int* d = t->data();
    for (int i = 0; i < ndims; i++) {
        d[i] = dims[i];
        d[ndims + i] = periods[i] ? 1 : 0;
    }
    int* coords = d + 2 * ndims;
    topo::cart_coords(ndims, dims, rank, coords);
    // Neighbour order of the neighbourhood collectives (7.6): per dimension, source then dest
    // of a shift by +1.
    int* near = d + 3 * ndims;
    for (int i = 0; i < ndims; i++)
        topo::cart_shift(ndims, dims, d + ndims, coords, i, 1, &near[2 * i], &near[2 * i + 1]);
    return t;
}

int check_info(MPI_Info info)
{
    return info == MPI_INFO_NULL || handle_kind(info) == LWMPI_KIND_INFO ? MPI_SUCCESS : MPI_ERR_INFO;
}

}  // namespace lwmpi

using namespace lwmpi;

int api::Topo_test(MPI_Comm comm, int* status)
{
    Comm* c = comm_get(comm);
    if (!c)
        return fail(comm, MPI_ERR_COMM);
    if (!status)
        return fail(comm, MPI_ERR_ARG);
    *status = c->topo ? c->topo->kind : MPI_UNDEFINED;
    return MPI_SUCCESS;
}
