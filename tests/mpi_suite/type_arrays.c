/* MPI_Type_create_subarray and MPI_Type_create_darray (MPI 3.1 sections 4.1.3, 4.1.4):
 * a subarray sent to a contiguous receive lands as the hand-computed elements; the darray
 * pieces of all ranks (block, cyclic, cyclic(k), none; C and Fortran order) cover the global
 * array exactly once; bad arguments get MPI_ERR_ARG / MPI_ERR_TYPE. */
#include <stdlib.h>

#include "suite.h"

static int error_class(int rc)
{
    int cls = MPI_SUCCESS;
    MPI_Error_class(rc, &cls);
    return cls;
}

/* Packs one element of `type` over an int array holding 0, 1, ... and returns the number of
 * ints; `out` gets them. */
static int selected(MPI_Datatype type, const int *array, int *out, int room)
{
    int bytes = 0, position = 0;
    MPI_Pack_size(1, type, MPI_COMM_WORLD, &bytes);
    if (bytes > room * (int)sizeof(int))
        return -1;
    MPI_Pack(array, 1, type, out, room * (int)sizeof(int), &position, MPI_COMM_WORLD);
    return position / (int)sizeof(int);
}

/* Whether index `i` of a dimension of `n` belongs to coordinate `p` of `procs`. */
static int owns(int distrib, int darg, int n, int procs, int p, int i)
{
    if (distrib == MPI_DISTRIBUTE_NONE)
        return 1;
    if (distrib == MPI_DISTRIBUTE_BLOCK) {
        int block = darg == MPI_DISTRIBUTE_DFLT_DARG ? (n + procs - 1) / procs : darg;
        return i / block == p;
    }
    int block = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
    return (i / block) % procs == p;
}

/* One darray layout over `size` ranks: every rank checks its own piece against `owns`, and
 * the sum of the pieces is the whole array. */
static void check_darray(int rank, int size, int order, const int *distribs, const int *dargs)
{
    int small = 1;  /* the grid: size = big x small, small the largest divisor <= sqrt */
    for (int d = 1; d * d <= size; d++)
        if (size % d == 0)
            small = d;
    int psizes[2] = {size / small, small};
    if (distribs[0] == MPI_DISTRIBUTE_NONE || distribs[1] == MPI_DISTRIBUTE_NONE) {
        const int along = distribs[0] == MPI_DISTRIBUTE_NONE ? 1 : 0;
        psizes[along] = size;
        psizes[1 - along] = 1;
    }
    const int gsizes[2] = {7, 9};
    int array[63], got[63];
    for (int i = 0; i < 63; i++)
        array[i] = i;
    MPI_Datatype piece;
    int rc = MPI_Type_create_darray(size, rank, 2, gsizes, distribs, dargs, psizes, order, MPI_INT,
                                    &piece);
    SUITE_CHECK(rc == MPI_SUCCESS, "darray failed: class %d", error_class(rc));
    if (rc != MPI_SUCCESS)
        return;
    MPI_Type_commit(&piece);
    MPI_Aint lb, extent;
    MPI_Type_get_extent(piece, &lb, &extent);
    SUITE_CHECK(lb == 0 && extent == 63 * (MPI_Aint)sizeof(int), "darray extent %ld", (long)extent);
    const int n = selected(piece, array, got, 63);
    const int coords[2] = {rank / psizes[1], rank % psizes[1]};
    /* Expected: the owned (i, j) in storage order (C: j fastest, Fortran: i fastest). */
    int expected = 0, wrong = 0;
    for (int outer = 0; outer < (order == MPI_ORDER_C ? 7 : 9); outer++) {
        for (int inner = 0; inner < (order == MPI_ORDER_C ? 9 : 7); inner++) {
            const int i = order == MPI_ORDER_C ? outer : inner, j = order == MPI_ORDER_C ? inner : outer;
            if (!owns(distribs[0], dargs[0], 7, psizes[0], coords[0], i) ||
                !owns(distribs[1], dargs[1], 9, psizes[1], coords[1], j))
                continue;
            const int at = order == MPI_ORDER_C ? i * 9 + j : i + j * 7;
            if (expected >= n || got[expected] != at)
                wrong++;
            expected++;
        }
    }
    SUITE_CHECK(wrong == 0 && expected == n, "darray piece of rank %d: %d of %d ints wrong",
                rank, wrong, n);
    int total = 0;
    MPI_Allreduce(&n, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    SUITE_CHECK(total == 63, "darray pieces hold %d elements in all", total);
    MPI_Type_free(&piece);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* Rank 0 sends the 2 x 3 block at (1, 2) of a 4 x 6 row-major array to every rank. */
    const int sizes[] = {4, 6}, subsizes[] = {2, 3}, starts[] = {1, 2};
    MPI_Datatype block;
    MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_DOUBLE, &block);
    MPI_Type_commit(&block);
    double grid[24], received[6] = {0};
    for (int i = 0; i < 24; i++)
        grid[i] = i + 0.5;
    if (rank == 0) {
        for (int r = 1; r < size; r++)
            MPI_Send(grid, 1, block, r, 5, MPI_COMM_WORLD);
        MPI_Sendrecv(grid, 1, block, 0, 5, received, 6, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(received, 6, MPI_DOUBLE, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    const double expected[6] = {8.5, 9.5, 10.5, 14.5, 15.5, 16.5};
    for (int i = 0; i < 6; i++)
        SUITE_CHECK(received[i] == expected[i], "subarray element %d: %g", i, received[i]);
    /* And back into a zeroed array through the same type: only the block is written. */
    double back[24] = {0};
    MPI_Sendrecv(received, 6, MPI_DOUBLE, rank, 6, back, 1, block, rank, 6, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    SUITE_CHECK(back[8] == 8.5 && back[16] == 16.5 && back[7] == 0 && back[17] == 0,
                "received through the subarray type");
    MPI_Type_free(&block);

    const int block_cyclic[] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
    const int cyclic_k[] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_CYCLIC};
    const int none_block[] = {MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_BLOCK};
    const int default_dargs[] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG};
    const int k_dargs[] = {2, 3};
    check_darray(rank, size, MPI_ORDER_C, block_cyclic, default_dargs);
    check_darray(rank, size, MPI_ORDER_FORTRAN, block_cyclic, default_dargs);
    check_darray(rank, size, MPI_ORDER_C, cyclic_k, k_dargs);
    check_darray(rank, size, MPI_ORDER_FORTRAN, cyclic_k, k_dargs);
    check_darray(rank, size, MPI_ORDER_C, none_block, default_dargs);

    /* Error classes. */
    MPI_Datatype t;
    const int too_big[] = {5, 3}, zero[] = {0, 1};
    SUITE_CHECK(error_class(MPI_Type_create_subarray(2, sizes, too_big, starts, MPI_ORDER_C,
                                                     MPI_INT, &t)) == MPI_ERR_ARG, "subsize > size");
    SUITE_CHECK(error_class(MPI_Type_create_subarray(2, sizes, zero, starts, MPI_ORDER_C,
                                                     MPI_INT, &t)) == MPI_ERR_ARG, "subsize 0");
    SUITE_CHECK(error_class(MPI_Type_create_subarray(2, sizes, subsizes, starts, 3, MPI_INT, &t)) ==
                MPI_ERR_ARG, "bad order");
    SUITE_CHECK(error_class(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C,
                                                     MPI_DATATYPE_NULL, &t)) == MPI_ERR_TYPE,
                "null oldtype");
    const int gsizes[] = {4, 6}, psizes[] = {size, 1};
    SUITE_CHECK(error_class(MPI_Type_create_darray(size + 1, 0, 2, gsizes, block_cyclic,
                                                   default_dargs, psizes, MPI_ORDER_C, MPI_INT, &t)) ==
                MPI_ERR_ARG, "grid not of size processes");
    const int tiny_blocks[] = {1, 1}, tall[] = {size + 1, 6};  /* size blocks of 1 row */
    SUITE_CHECK(error_class(MPI_Type_create_darray(size, rank, 2, tall, block_cyclic, tiny_blocks,
                                                   psizes, MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG,
                "blocks that cannot cover the dimension");
    return suite_finalize();
}
