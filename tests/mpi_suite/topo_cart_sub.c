/* MPI_Cart_sub (7.5.7): rows, columns and planes of 2-D and 3-D grids. Each sub-grid is
 * checked for its size, its ranks (the kept coordinates, row-major), its own Cartesian
 * topology and, by an allreduce over it, for holding exactly the expected processes. */
#include "suite.h"

static void check_sub(MPI_Comm cart, int ndims, const int *dims, const int *remain)
{
    int rank, coords[3];
    MPI_Comm_rank(cart, &rank);
    MPI_Cart_coords(cart, rank, 3, coords);
    MPI_Comm sub;
    SUITE_CHECK(MPI_Cart_sub(cart, remain, &sub) == MPI_SUCCESS, "Cart_sub");
    int kept = 0, expect_size = 1, expect_rank = 0, expect_color = 0;
    for (int i = 0; i < ndims; i++)
        if (remain[i]) {
            kept++;
            expect_size *= dims[i];
            expect_rank = expect_rank * dims[i] + coords[i];
        } else {
            expect_color = expect_color * dims[i] + coords[i];
        }
    int size, srank, nd = -1, status = -1;
    MPI_Comm_size(sub, &size);
    MPI_Comm_rank(sub, &srank);
    MPI_Topo_test(sub, &status);
    MPI_Cartdim_get(sub, &nd);
    SUITE_CHECK(status == MPI_CART && nd == kept, "sub-grid topology %d, %d dims", status, nd);
    SUITE_CHECK(size == expect_size, "sub-grid size %d, expected %d", size, expect_size);
    SUITE_CHECK(srank == expect_rank, "sub-grid rank %d, expected %d", srank, expect_rank);
    int sdims[3], speriods[3], scoords[3], k = 0;
    MPI_Cart_get(sub, 3, sdims, speriods, scoords);
    for (int i = 0; i < ndims; i++)
        if (remain[i]) {
            SUITE_CHECK(sdims[k] == dims[i] && scoords[k] == coords[i], "sub-grid dim %d", k);
            k++;
        }
    /* Every member has the same color: the minimum and maximum agree. */
    int lo, hi;
    MPI_Allreduce(&expect_color, &lo, 1, MPI_INT, MPI_MIN, sub);
    MPI_Allreduce(&expect_color, &hi, 1, MPI_INT, MPI_MAX, sub);
    SUITE_CHECK(lo == expect_color && hi == expect_color, "sub-grid mixes colors %d..%d", lo, hi);
    MPI_Comm_free(&sub);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int ndims = 2; ndims <= 3; ndims++) {
        int dims[3] = {0, 0, 0}, periods[3] = {1, 0, 1};
        MPI_Dims_create(size, ndims, dims);
        MPI_Comm cart;
        MPI_Cart_create(MPI_COMM_WORLD, ndims, dims, periods, 0, &cart);
        for (int mask = 0; mask < (1 << ndims); mask++) {
            int remain[3];
            for (int i = 0; i < ndims; i++)
                remain[i] = (mask >> i) & 1;
            check_sub(cart, ndims, dims, remain);
        }
        MPI_Comm_free(&cart);
    }
    return suite_finalize();
}
