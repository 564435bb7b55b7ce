// Process topologies and neighbourhood collectives over the fake transport, on the sweep of
// placements (one rank included): the objects live and die with their communicators (the
// sanitizers watch), and the collectives pair blocks as MPI 3.1 7.6 says.
#include <gtest/gtest.h>

#include <vector>

#include "tests/host/support/mpi_world.hpp"

namespace {

TEST(Topo, TorusAlltoallPairsOppositeDirections)
{
    for (const auto& p : mpi_world::sweep())
        mpi_world::run(p, [](int rank) {
            int size;
            MPI_Comm_size(MPI_COMM_WORLD, &size);
            // dims {size, 1, 2 or 1}: periodic, so sizes 1 and 2 make a process its own or
            // its only neighbour on both sides.
            int dims[3] = {0, 1, size % 2 == 0 ? 2 : 1}, periods[3] = {1, 1, 1};
            dims[0] = size / dims[2];
            MPI_Comm cart;
            ASSERT_EQ(MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart), MPI_SUCCESS);
            std::vector<int> send(6), recv(6, -1);
            for (int k = 0; k < 6; k++)
                send[k] = rank * 10 + k;
            ASSERT_EQ(MPI_Neighbor_alltoall(send.data(), 1, MPI_INT, recv.data(), 1, MPI_INT, cart),
                      MPI_SUCCESS);
            for (int d = 0; d < 3; d++) {
                int src, dst;
                MPI_Cart_shift(cart, d, 1, &src, &dst);
                EXPECT_EQ(recv[2 * d], src * 10 + 2 * d + 1) << "dimension " << d;
                EXPECT_EQ(recv[2 * d + 1], dst * 10 + 2 * d) << "dimension " << d;
            }
            MPI_Comm dup;
            MPI_Comm_dup(cart, &dup);
            MPI_Comm_free(&cart);
            int status;
            MPI_Topo_test(dup, &status);
            EXPECT_EQ(status, MPI_CART);
            int remain[3] = {1, 0, 0};
            MPI_Comm row;
            ASSERT_EQ(MPI_Cart_sub(dup, remain, &row), MPI_SUCCESS);
            int n;
            MPI_Comm_size(row, &n);
            EXPECT_EQ(n, dims[0]);
            MPI_Comm_free(&row);
            MPI_Comm_free(&dup);
        });
}

TEST(Topo, DistGraphGatheredFromOneProcess)
{
    for (const auto& p : mpi_world::sweep())
        mpi_world::run(p, [](int rank) {
            int size;
            MPI_Comm_size(MPI_COMM_WORLD, &size);
            // Rank 0 gives every edge r -> r+1 (weight r); nobody else gives any.
            std::vector<int> sources, degrees, dests, weights;
            if (rank == 0)
                for (int r = 0; r < size; r++) {
                    sources.push_back(r);
                    degrees.push_back(1);
                    dests.push_back((r + 1) % size);
                    weights.push_back(r);
                }
            MPI_Comm g;
            ASSERT_EQ(MPI_Dist_graph_create(MPI_COMM_WORLD, static_cast<int>(sources.size()),
                                            sources.data(), degrees.data(), dests.data(),
                                            rank == 0 ? weights.data() : MPI_WEIGHTS_EMPTY,
                                            MPI_INFO_NULL, 0, &g),
                      MPI_SUCCESS);
            int in, out, weighted;
            MPI_Dist_graph_neighbors_count(g, &in, &out, &weighted);
            EXPECT_EQ(in, 1);
            EXPECT_EQ(out, 1);
            EXPECT_TRUE(weighted);
            int src, sw, dst, dw;
            MPI_Dist_graph_neighbors(g, 1, &src, &sw, 1, &dst, &dw);
            EXPECT_EQ(src, (rank - 1 + size) % size);
            EXPECT_EQ(sw, src);
            EXPECT_EQ(dst, (rank + 1) % size);
            EXPECT_EQ(dw, rank);
            int got = -1;
            ASSERT_EQ(MPI_Neighbor_allgather(&rank, 1, MPI_INT, &got, 1, MPI_INT, g), MPI_SUCCESS);
            EXPECT_EQ(got, src);
            MPI_Comm_free(&g);
        });
}

TEST(Topo, GraphNeighborsAllgatherv)
{
    for (const auto& p : mpi_world::sweep())
        mpi_world::run(p, [](int rank) {
            int size;
            MPI_Comm_size(MPI_COMM_WORLD, &size);
            // A star: node 0 is linked to every other node, each of them to node 0.
            std::vector<int> index(size), edges;
            for (int i = 1; i < size; i++)
                edges.push_back(i);
            index[0] = size - 1;
            for (int i = 1; i < size; i++) {
                edges.push_back(0);
                index[i] = index[i - 1] + 1;
            }
            MPI_Comm g;
            ASSERT_EQ(MPI_Graph_create(MPI_COMM_WORLD, size, index.data(), edges.data(), 0, &g),
                      MPI_SUCCESS);
            int count;
            MPI_Graph_neighbors_count(g, rank, &count);
            EXPECT_EQ(count, rank == 0 ? size - 1 : 1);
            std::vector<int> near(count > 0 ? count : 1), counts(near.size(), 1), displs(near.size());
            for (int k = 0; k < count; k++)
                displs[k] = count - 1 - k;
            std::vector<int> got(near.size(), -1);
            ASSERT_EQ(MPI_Neighbor_allgatherv(&rank, 1, MPI_INT, got.data(), counts.data(),
                                              displs.data(), MPI_INT, g),
                      MPI_SUCCESS);
            MPI_Graph_neighbors(g, rank, count, near.data());
            for (int k = 0; k < count; k++)
                EXPECT_EQ(got[displs[k]], near[k]);
            MPI_Comm_free(&g);
        });
}

}  // namespace
