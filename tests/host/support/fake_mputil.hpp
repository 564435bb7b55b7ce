// A host-side stand-in for mputil (threads on the host, one shared matching engine), so that
// libmpi's logic (requests, communicators, collectives) is unit-tested without QEMU. It
// implements mputil/include/mputil/mputil.hpp with the same semantics: FIFO matching per
// (context, source, tag), truncation, synchronous sends complete on match, blocking waits
// sleep on a condition variable.
#pragma once

#include <functional>
#include <vector>

namespace fake_mputil {

// Runs `rank_main(world_rank)` on `cluster_of_rank.size()` threads, rank r placed on cluster
// cluster_of_rank[r]; returns when every rank thread returned.
void run(const std::vector<int>& cluster_of_rank, const std::function<void(int)>& rank_main);

// Makes the calling host thread a helper of `world_rank`, as a thread that rank started
// would be on the board: MPI calls act for that rank; is_main_rank_thread() is false.
void become_helper_of(int world_rank);

// Placement helpers: `n` ranks, `per_cluster` PEs per cluster, compact or round-robin.
std::vector<int> compact(int n, int per_cluster);
std::vector<int> scatter(int n, int clusters);

// Operations still queued (unmatched messages or posted receives) across the world: a test
// that ends with a non-zero count left something behind.
int pending_operations();

}  // namespace fake_mputil
