/* Error classes of the topology calls and neighbourhood collectives under MPI_ERRORS_RETURN:
 * MPI_ERR_TOPOLOGY on a communicator without the right topology, MPI_ERR_DIMS for bad
 * dimensions, MPI_ERR_RANK, MPI_ERR_ARG, MPI_ERR_COMM, MPI_ERR_COUNT, MPI_ERR_TYPE,
 * MPI_ERR_BUFFER, MPI_ERR_INFO. Every rank makes the same mistakes, so the collective
 * constructors fail everywhere alike. */
#include "suite.h"

#define EXPECT_CLASS(call, cls)                                                              \
    do {                                                                                     \
        int err_ = (call), class_ = -1;                                                      \
        MPI_Error_class(err_, &class_);                                                      \
        SUITE_CHECK(class_ == (cls), "%s: class %d, expected %d", #call, class_, (cls));     \
    } while (0)

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int size, rank;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int v[8] = {0}, n = -1, in, out, w, r, s, d;
    MPI_Comm c = MPI_COMM_NULL;

    /* MPI_Dims_create */
    int dims[3] = {0, 0, 0};
    EXPECT_CLASS(MPI_Dims_create(size, -1, dims), MPI_ERR_DIMS);
    dims[1] = -2;
    EXPECT_CLASS(MPI_Dims_create(size, 3, dims), MPI_ERR_DIMS);
    dims[1] = size + 1;
    EXPECT_CLASS(MPI_Dims_create(size, 3, dims), MPI_ERR_DIMS);  /* does not divide */
    EXPECT_CLASS(MPI_Dims_create(0, 2, dims), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Dims_create(size, 2, NULL), MPI_ERR_ARG);

    /* Queries on a communicator without a topology, or with another kind. */
    EXPECT_CLASS(MPI_Cartdim_get(MPI_COMM_WORLD, &n), MPI_ERR_TOPOLOGY);
    EXPECT_CLASS(MPI_Cart_get(MPI_COMM_WORLD, 1, v, v, v), MPI_ERR_TOPOLOGY);
    EXPECT_CLASS(MPI_Cart_rank(MPI_COMM_WORLD, v, &r), MPI_ERR_TOPOLOGY);
    EXPECT_CLASS(MPI_Cart_coords(MPI_COMM_WORLD, 0, 1, v), MPI_ERR_TOPOLOGY);
    EXPECT_CLASS(MPI_Cart_shift(MPI_COMM_WORLD, 0, 1, &s, &d), MPI_ERR_TOPOLOGY);
    EXPECT_CLASS(MPI_Cart_sub(MPI_COMM_WORLD, v, &c), MPI_ERR_TOPOLOGY);
    EXPECT_CLASS(MPI_Graphdims_get(MPI_COMM_WORLD, &n, &n), MPI_ERR_TOPOLOGY);
    EXPECT_CLASS(MPI_Graph_get(MPI_COMM_WORLD, 1, 1, v, v), MPI_ERR_TOPOLOGY);
    EXPECT_CLASS(MPI_Graph_neighbors_count(MPI_COMM_WORLD, 0, &n), MPI_ERR_TOPOLOGY);
    EXPECT_CLASS(MPI_Graph_neighbors(MPI_COMM_WORLD, 0, 1, v), MPI_ERR_TOPOLOGY);
    EXPECT_CLASS(MPI_Dist_graph_neighbors_count(MPI_COMM_WORLD, &in, &out, &w), MPI_ERR_TOPOLOGY);
    EXPECT_CLASS(MPI_Dist_graph_neighbors(MPI_COMM_WORLD, 1, v, v, 1, v, v), MPI_ERR_TOPOLOGY);
    EXPECT_CLASS(MPI_Neighbor_allgather(v, 1, MPI_INT, v + 1, 1, MPI_INT, MPI_COMM_WORLD),
                 MPI_ERR_TOPOLOGY);
    EXPECT_CLASS(MPI_Neighbor_alltoall(v, 1, MPI_INT, v + 1, 1, MPI_INT, MPI_COMM_WORLD),
                 MPI_ERR_TOPOLOGY);
    EXPECT_CLASS(MPI_Topo_test(MPI_COMM_NULL, &n), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Cartdim_get(MPI_COMM_NULL, &n), MPI_ERR_COMM);

    /* MPI_Cart_create */
    int bad[2] = {size, 0}, periods[2] = {0, 1}, big[2] = {size, 2};
    EXPECT_CLASS(MPI_Cart_create(MPI_COMM_WORLD, -1, bad, periods, 0, &c), MPI_ERR_DIMS);
    EXPECT_CLASS(MPI_Cart_create(MPI_COMM_WORLD, 2, bad, periods, 0, &c), MPI_ERR_DIMS);
    EXPECT_CLASS(MPI_Cart_create(MPI_COMM_WORLD, 2, big, periods, 0, &c), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Cart_create(MPI_COMM_NULL, 1, big, periods, 0, &c), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Cart_map(MPI_COMM_WORLD, 2, bad, periods, &r), MPI_ERR_DIMS);
    EXPECT_CLASS(MPI_Cart_map(MPI_COMM_WORLD, 2, big, periods, &r), MPI_ERR_ARG);

    /* Queries on a grid: size x 1, not periodic in the first dimension. */
    int grid[2] = {size, 1};
    MPI_Cart_create(MPI_COMM_WORLD, 2, grid, periods, 0, &c);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    EXPECT_CLASS(MPI_Cart_shift(c, 2, 1, &s, &d), MPI_ERR_DIMS);
    EXPECT_CLASS(MPI_Cart_shift(c, -1, 1, &s, &d), MPI_ERR_DIMS);
    EXPECT_CLASS(MPI_Cart_coords(c, size, 2, v), MPI_ERR_RANK);
    EXPECT_CLASS(MPI_Cart_coords(c, -1, 2, v), MPI_ERR_RANK);
    EXPECT_CLASS(MPI_Cart_coords(c, 0, 1, v), MPI_ERR_ARG);
    int off[2] = {size, 0}, wrap[2] = {0, 5};
    EXPECT_CLASS(MPI_Cart_rank(c, off, &r), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Cart_rank(c, wrap, &r), MPI_SUCCESS);
    EXPECT_CLASS(MPI_Cart_get(c, 1, v, v, v), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Graphdims_get(c, &n, &n), MPI_ERR_TOPOLOGY);
    EXPECT_CLASS(MPI_Dist_graph_neighbors_count(c, &in, &out, &w), MPI_ERR_TOPOLOGY);
    /* Neighbourhood collectives' own arguments. */
    EXPECT_CLASS(MPI_Neighbor_allgather(v, -1, MPI_INT, v + 1, 1, MPI_INT, c), MPI_ERR_COUNT);
    EXPECT_CLASS(MPI_Neighbor_allgather(v, 1, MPI_DATATYPE_NULL, v + 1, 1, MPI_INT, c), MPI_ERR_TYPE);
    EXPECT_CLASS(MPI_Neighbor_allgather(MPI_IN_PLACE, 1, MPI_INT, v + 1, 1, MPI_INT, c), MPI_ERR_BUFFER);
    EXPECT_CLASS(MPI_Neighbor_alltoall(v, 1, MPI_INT, NULL, 1, MPI_INT, c), MPI_ERR_BUFFER);
    EXPECT_CLASS(MPI_Neighbor_alltoall(v, 1, MPI_INT, v + 2, 1, MPI_INT, c), MPI_ERR_BUFFER);
    EXPECT_CLASS(MPI_Neighbor_allgather(v + 3, 1, MPI_INT, v, 1, MPI_INT, c), MPI_ERR_BUFFER);
    EXPECT_CLASS(MPI_Neighbor_alltoallv(v, NULL, v, MPI_INT, v, v, v, MPI_INT, c), MPI_ERR_ARG);
    int neg[4] = {1, -1, 1, 1}, zero[4] = {0, 0, 0, 0};
    EXPECT_CLASS(MPI_Neighbor_alltoallv(v, zero, zero, MPI_INT, v, neg, zero, MPI_INT, c), MPI_ERR_COUNT);
    MPI_Comm_free(&c);

    /* MPI_Graph_create and graph queries */
    int index[2] = {1, 2}, edges[2] = {1, 0}, bad_edges[2] = {1, 2}, bad_index[2] = {2, 1};
    EXPECT_CLASS(MPI_Graph_create(MPI_COMM_WORLD, -1, index, edges, 0, &c), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Graph_create(MPI_COMM_WORLD, size + 1, index, edges, 0, &c), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Graph_create(MPI_COMM_WORLD, 2, index, bad_edges, 0, &c), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Graph_create(MPI_COMM_WORLD, 2, bad_index, edges, 0, &c), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Graph_map(MPI_COMM_WORLD, 2, index, bad_edges, &r), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Graph_create(MPI_COMM_WORLD, 2, index, edges, 0, &c), MPI_SUCCESS);
    if (c != MPI_COMM_NULL) {
        MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
        EXPECT_CLASS(MPI_Graph_neighbors_count(c, 2, &n), MPI_ERR_RANK);
        EXPECT_CLASS(MPI_Graph_neighbors(c, -1, 1, v), MPI_ERR_RANK);
        EXPECT_CLASS(MPI_Cart_shift(c, 0, 1, &s, &d), MPI_ERR_TOPOLOGY);
        MPI_Comm_free(&c);
    }

    /* Distributed graphs */
    int one = (rank + 1) % size, minus = -1, weight = 3, neg_weight = -3;
    EXPECT_CLASS(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, -1, &one, &weight, 1, &one, &weight,
                                                MPI_INFO_NULL, 0, &c), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &size, &weight, 1, &one, &weight,
                                                MPI_INFO_NULL, 0, &c), MPI_ERR_RANK);
    EXPECT_CLASS(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &one, &neg_weight, 1, &one,
                                                &weight, MPI_INFO_NULL, 0, &c), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &one, MPI_UNWEIGHTED, 1, &one,
                                                &weight, MPI_INFO_NULL, 0, &c), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &one, MPI_WEIGHTS_EMPTY, 1, &one,
                                                &weight, MPI_INFO_NULL, 0, &c), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, NULL, MPI_WEIGHTS_EMPTY, 0, NULL,
                                                MPI_WEIGHTS_EMPTY, MPI_COMM_WORLD, 0, &c), MPI_ERR_INFO);
    EXPECT_CLASS(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &rank, &minus, &one, &weight,
                                       MPI_INFO_NULL, 0, &c), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &rank, &weight /* 3 edges */, v, NULL,
                                       MPI_INFO_NULL, 0, &c), MPI_ERR_ARG);
    /* Only rank 0 names a bad destination: the call fails on every rank. */
    int dest = rank == 0 ? size : one, deg = 1;
    EXPECT_CLASS(MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &rank, &deg, &dest, MPI_UNWEIGHTED,
                                       MPI_INFO_NULL, 0, &c), MPI_ERR_RANK);
    return suite_finalize();
}
