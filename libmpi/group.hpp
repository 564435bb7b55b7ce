// Groups (MPI 3.1 section 6.3): an ordered list of world ranks; the position in the list is
// the rank in the group. Groups are per-rank objects with reference counts: the program's
// handle and every communicator built on a group hold one.
#pragma once
#include <mpi.h>

namespace lwmpi {

// A new group of the n world ranks in that order (MPI_GROUP_EMPTY when n == 0).
// MPI_ERR_RANK for a negative or repeated world rank, MPI_ERR_ARG for n < 0 or a missing
// list, MPI_ERR_NO_MEM when out of memory.
int group_make(const int* world_ranks, int n, MPI_Group* out);
// World ranks 0..n-1 in that order: all of the world or a first part of it.
bool in_world_order(const int* world_ranks, int n);

// MPI_SUCCESS for MPI_GROUP_EMPTY and live groups, MPI_ERR_GROUP otherwise.
int group_check(MPI_Group group);

int group_size(MPI_Group group);
const int* group_world_ranks(MPI_Group group);  // group_size() entries
int group_rank_of_world(MPI_Group group, int world_rank);  // MPI_UNDEFINED when absent

// One more / one less holder of the group; the last release destroys it. No-ops for
// MPI_GROUP_EMPTY.
void group_retain(MPI_Group group);
void group_release(MPI_Group group);

// MPI_Finalize, once the communicators are gone: destroys every group of the calling rank,
// whoever holds it. Later retains and releases are no-ops.
void group_finalize();

}  // namespace lwmpi
