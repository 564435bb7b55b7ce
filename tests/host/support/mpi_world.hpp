// Runs MPI programs on the host: n rank threads over the fake transport, each between
// MPI_Init and MPI_Finalize, for the host tests of libmpi.
#pragma once

#include <mpi.h>

#include <functional>
#include <vector>

#include "fake_mputil.hpp"

namespace mpi_world {

struct Placement {
    int ranks;
    int per_cluster;
    bool compact;
};

// The placements the collective tests sweep: odd sizes, one cluster, many clusters, both
// mappings.
inline std::vector<Placement> sweep()
{
    return {{1, 4, true}, {2, 1, true}, {3, 2, false}, {5, 2, true}, {7, 3, false},
            {8, 4, true}, {12, 4, false}, {13, 5, true}};
}

// Runs `body(world_rank)` on every rank between MPI_Init and MPI_Finalize.
inline void run(const Placement& p, const std::function<void(int)>& body)
{
    int clusters = (p.ranks + p.per_cluster - 1) / p.per_cluster;
    auto map = p.compact ? fake_mputil::compact(p.ranks, p.per_cluster)
                         : fake_mputil::scatter(p.ranks, clusters);
    fake_mputil::run(map, [&](int rank) {
        MPI_Init(nullptr, nullptr);
        body(rank);
        MPI_Finalize();
    });
}

inline void run(int ranks, const std::function<void(int)>& body) { run({ranks, 4, true}, body); }

}  // namespace mpi_world
