// The index sets of the array constructors (MPI 3.1 sections 4.1.3 and 4.1.4): along one
// dimension, a subarray or one process's part of a distributed array is at most two groups
// of runs of consecutive indices. Pure arithmetic, shared by both constructors.
#pragma once
#include <mpi.h>

namespace lwmpi {

// `repeat` runs of `length` consecutive indices, `stride` indices apart, the first at `start`.
struct IndexRun {
    MPI_Aint start, length, repeat, stride;
};

struct DimensionRuns {
    int count = 0;  // 0, 1 or 2 runs, in increasing index order
    IndexRun run[2];
};

// Indices [start, start + length) of the dimension.
DimensionRuns subarray_runs(int start, int length);

// The indices that process coordinate `coord` of `procs` owns of a dimension of `size`
// indices; `darg` may be MPI_DISTRIBUTE_DFLT_DARG. Returns MPI_ERR_ARG for a distribution the
// standard does not define (an unknown one, blocks too small to cover the dimension, or
// MPI_DISTRIBUTE_NONE over more than one process).
int darray_runs(int size, int distrib, int darg, int procs, int coord, DimensionRuns* out);

}  // namespace lwmpi
