/* Cartesian topologies (MPI 3.1 7.5.1, 7.5.5): 2-D and 3-D grids, periodic and not, from
 * MPI_Dims_create; every query checked against coordinates computed here (row-major), shifts
 * at the borders (MPI_PROC_NULL) and wrapping, a grid smaller than the communicator,
 * MPI_Cart_map, a zero-dimensional grid, and MPI_Comm_dup keeping the topology. */
#include <string.h>

#include "suite.h"

/* Row-major rank of coords in dims, -1 when a non-periodic coordinate is off the grid. */
static int rank_of(int ndims, const int *dims, const int *periods, const int *coords)
{
    int r = 0;
    for (int i = 0; i < ndims; i++) {
        int c = coords[i];
        if (periods[i])
            c = ((c % dims[i]) + dims[i]) % dims[i];
        else if (c < 0 || c >= dims[i])
            return -1;
        r = r * dims[i] + c;
    }
    return r;
}

static void check_grid(MPI_Comm old, int ndims, const int *periods)
{
    int size, rank;
    MPI_Comm_size(old, &size);
    MPI_Comm_rank(old, &rank);
    int dims[3] = {0, 0, 0};
    SUITE_CHECK(MPI_Dims_create(size, ndims, dims) == MPI_SUCCESS, "Dims_create");
    int prod = 1;
    for (int i = 0; i < ndims; i++) {
        prod *= dims[i];
        if (i > 0)
            SUITE_CHECK(dims[i - 1] >= dims[i], "dims nonincreasing");
    }
    SUITE_CHECK(prod == size, "Dims_create product %d for %d", prod, size);
    MPI_Comm cart;
    SUITE_CHECK(MPI_Cart_create(old, ndims, dims, periods, 0, &cart) == MPI_SUCCESS, "Cart_create");
    SUITE_CHECK(cart != MPI_COMM_NULL, "every rank is on the grid");
    int status = -1, nd = -1, crank = -1;
    MPI_Topo_test(cart, &status);
    SUITE_CHECK(status == MPI_CART, "Topo_test %d", status);
    MPI_Cartdim_get(cart, &nd);
    SUITE_CHECK(nd == ndims, "Cartdim_get %d", nd);
    MPI_Comm_rank(cart, &crank);
    SUITE_CHECK(crank == rank, "no reordering: rank %d is %d", rank, crank);
    int gdims[3], gperiods[3], gcoords[3];
    MPI_Cart_get(cart, 3, gdims, gperiods, gcoords);
    int expect[3], left = rank;
    for (int i = ndims - 1; i >= 0; i--) {
        expect[i] = left % dims[i];
        left /= dims[i];
    }
    for (int i = 0; i < ndims; i++) {
        SUITE_CHECK(gdims[i] == dims[i] && !!gperiods[i] == !!periods[i], "Cart_get dim %d", i);
        SUITE_CHECK(gcoords[i] == expect[i], "Cart_get coord %d: %d, expected %d", i, gcoords[i], expect[i]);
    }
    for (int r = 0; r < size; r++) {
        int c[3], back = -1;
        MPI_Cart_coords(cart, r, 3, c);
        MPI_Cart_rank(cart, c, &back);
        SUITE_CHECK(back == r, "Cart_rank(Cart_coords(%d)) = %d", r, back);
    }
    for (int i = 0; i < ndims; i++)
        for (int disp = -3; disp <= 3; disp++) {
            int src, dst, c[3];
            MPI_Cart_shift(cart, i, disp, &src, &dst);
            memcpy(c, expect, sizeof c);
            c[i] = expect[i] + disp;
            int want_dst = rank_of(ndims, dims, periods, c);
            c[i] = expect[i] - disp;
            int want_src = rank_of(ndims, dims, periods, c);
            SUITE_CHECK(dst == (want_dst < 0 ? MPI_PROC_NULL : want_dst), "shift %d by %d: dest %d", i, disp, dst);
            SUITE_CHECK(src == (want_src < 0 ? MPI_PROC_NULL : want_src), "shift %d by %d: source %d", i, disp, src);
        }
    /* A periodic coordinate out of range wraps in Cart_rank. */
    for (int i = 0; i < ndims; i++)
        if (periods[i]) {
            int c[3];
            memcpy(c, expect, sizeof c);
            c[i] += dims[i];
            int r = -1;
            MPI_Cart_rank(cart, c, &r);
            SUITE_CHECK(r == rank, "wrapped Cart_rank %d", r);
        }
    int newrank = -1;
    MPI_Cart_map(old, ndims, dims, periods, &newrank);
    SUITE_CHECK(newrank == rank, "Cart_map %d", newrank);
    /* A duplicate carries the topology; the original can go first. */
    MPI_Comm dup;
    MPI_Comm_dup(cart, &dup);
    MPI_Comm_free(&cart);
    MPI_Topo_test(dup, &status);
    SUITE_CHECK(status == MPI_CART, "dup Topo_test %d", status);
    MPI_Cart_get(dup, 3, gdims, gperiods, gcoords);
    for (int i = 0; i < ndims; i++)
        SUITE_CHECK(gcoords[i] == expect[i], "dup coords");
    MPI_Comm_free(&dup);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int size, rank;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int flat[3] = {0, 0, 0}, round[3] = {1, 1, 1}, mixed[3] = {1, 0, 1};
    check_grid(MPI_COMM_WORLD, 1, flat);
    check_grid(MPI_COMM_WORLD, 1, round);
    check_grid(MPI_COMM_WORLD, 2, flat);
    check_grid(MPI_COMM_WORLD, 2, round);
    check_grid(MPI_COMM_WORLD, 3, mixed);
    check_grid(MPI_COMM_WORLD, 3, round);

    /* A grid smaller than the communicator: the last rank is left out. */
    int dims[1] = {size - 1}, periods[1] = {0};
    MPI_Comm part;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 1, &part);
    SUITE_CHECK((part == MPI_COMM_NULL) == (rank == size - 1), "rank %d in the smaller grid", rank);
    int mapped = -2;
    MPI_Cart_map(MPI_COMM_WORLD, 1, dims, periods, &mapped);
    SUITE_CHECK(mapped == (rank == size - 1 ? MPI_UNDEFINED : rank), "Cart_map %d", mapped);
    if (part != MPI_COMM_NULL) {
        int n;
        MPI_Comm_size(part, &n);
        SUITE_CHECK(n == size - 1, "smaller grid size %d", n);
        MPI_Comm_free(&part);
    }

    /* Zero dimensions: rank 0 alone, on a grid of no dimension. */
    MPI_Comm zero;
    MPI_Cart_create(MPI_COMM_WORLD, 0, NULL, NULL, 0, &zero);
    SUITE_CHECK((zero != MPI_COMM_NULL) == (rank == 0), "zero-dimensional grid on rank 0 only");
    if (zero != MPI_COMM_NULL) {
        int nd = -1, n = 0;
        MPI_Cartdim_get(zero, &nd);
        MPI_Comm_size(zero, &n);
        SUITE_CHECK(nd == 0 && n == 1, "zero-dimensional grid: %d dims, %d ranks", nd, n);
        MPI_Comm_free(&zero);
    }

    /* Communicators without a topology say so. */
    int status = -1;
    MPI_Topo_test(MPI_COMM_WORLD, &status);
    SUITE_CHECK(status == MPI_UNDEFINED, "world has no topology: %d", status);
    return suite_finalize();
}
