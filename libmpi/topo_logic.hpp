// The arithmetic of the process topologies (MPI 3.1 chapter 7), free of MPI objects so the
// host tests can check it: balanced factorisation (MPI_Dims_create), Cartesian coordinates,
// ranks, shifts and sub-grids (row-major: the last dimension varies fastest), graph
// adjacency checks and the assembly of a distributed graph's edges.
#pragma once

#include <stdint.h>

namespace lwmpi::topo {

constexpr int kNoRank = -1;  // a shift off a non-periodic border (MPI_PROC_NULL)

// Every divisor of an int fits here (the most any n < 2^31 has is 1,600).
constexpr int kMaxDivisors = 1600;

// The divisors of n > 0 in increasing order into `out`; returns how many.
inline int divisors(int n, int* out)
{
    int low = 0, high = 0;
    // Pairs (d, n/d) with d <= sqrt(n): the small ones in order, the large ones reversed.
    for (int64_t d = 1; d * d <= n; d++)
        if (n % d == 0)
            out[low++] = static_cast<int>(d);
    high = low;
    for (int i = low - 1; i >= 0; i--) {
        int other = n / out[i];
        if (other != out[i])
            out[high++] = other;
    }
    return high;
}

// Whether f^k >= r (without overflow).
inline bool power_reaches(int f, int k, int r)
{
    int64_t p = 1;
    for (int i = 0; i < k; i++) {
        p *= f;
        if (p >= r)
            return true;
    }
    return p >= r;
}

struct Factoring {
    const int* divisors;
    int ndivisors;
    int k;          // factors wanted
    int* current;   // nonincreasing factors chosen so far
    int* best;
    int best_spread;
};

// Depth-first over nonincreasing factorisations of `rest` into the factors from `depth` on,
// each at most `cap`; keeps the one whose largest and smallest factors are closest.
inline void factor_search(Factoring& s, int depth, int rest, int cap)
{
    int left = s.k - depth;
    if (rest == 1) {
        // The remaining factors are all 1: no deeper search (the depth stays below the
        // number of prime factors, whatever the number of dimensions).
        for (int i = depth; i < s.k; i++)
            s.current[i] = 1;
        left = 0;
    }
    if (left == 0) {
        if (rest != 1)
            return;
        int spread = s.current[0] - s.current[s.k - 1];
        if (s.best_spread < 0 || spread < s.best_spread) {
            s.best_spread = spread;
            for (int i = 0; i < s.k; i++)
                s.best[i] = s.current[i];
        }
        return;
    }
    // Smallest candidates first: the balanced answers come early and prune the rest.
    for (int i = 0; i < s.ndivisors; i++) {
        int f = s.divisors[i];
        if (f > cap || f > rest)
            break;
        if (rest % f != 0 || !power_reaches(f, left, rest))
            continue;
        // Later factors are no larger than f: the spread can only grow past first - f.
        if (depth > 0 && s.best_spread >= 0 && s.current[0] - f >= s.best_spread)
            continue;
        s.current[depth] = f;
        factor_search(s, depth + 1, rest / f, f);
    }
}

// MPI_Dims_create's arithmetic: fills the zero entries of dims[0..ndims) so that the product
// of all entries is nnodes, the filled ones as close to each other as possible and in
// nonincreasing order. `scratch` holds kMaxDivisors + 2 * ndims ints. Returns false when the
// positive entries do not divide nnodes (entries must be >= 0, nnodes > 0: checked by the
// caller).
inline bool dims_create(int nnodes, int ndims, int* dims, int* scratch)
{
    int64_t fixed = 1;
    int free_count = 0;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] > 0)
            fixed *= dims[i];
        else
            free_count++;
        if (fixed > nnodes)
            return false;
    }
    if (nnodes % fixed != 0)
        return false;
    int rest = static_cast<int>(nnodes / fixed);
    if (free_count == 0)
        return rest == 1;
    Factoring s;
    s.divisors = scratch;
    s.ndivisors = divisors(rest, scratch);
    s.k = free_count;
    s.current = scratch + kMaxDivisors;
    s.best = s.current + free_count;
    s.best_spread = -1;
    factor_search(s, 0, rest, rest);
    int next = 0;
    for (int i = 0; i < ndims; i++)
        if (dims[i] == 0)
            dims[i] = s.best[next++];
    return true;
}

// Number of grid points (the product of dims); false if it exceeds `limit`.
inline bool grid_size(int ndims, const int* dims, int limit, int* size)
{
    int64_t p = 1;
    for (int i = 0; i < ndims; i++) {
        p *= dims[i];
        if (p > limit)
            return false;
    }
    *size = static_cast<int>(p);
    return true;
}

// Coordinates of grid rank `rank`.
inline void cart_coords(int ndims, const int* dims, int rank, int* coords)
{
    for (int i = ndims - 1; i >= 0; i--) {
        coords[i] = rank % dims[i];
        rank /= dims[i];
    }
}

// Rank of `coords`: periodic dimensions wrap, the others must be in range (false if not).
inline bool cart_rank(int ndims, const int* dims, const int* periods, const int* coords, int* rank)
{
    int r = 0;
    for (int i = 0; i < ndims; i++) {
        int c = coords[i];
        if (periods[i]) {
            c %= dims[i];
            if (c < 0)
                c += dims[i];
        } else if (c < 0 || c >= dims[i]) {
            return false;
        }
        r = r * dims[i] + c;
    }
    *rank = r;
    return true;
}

// MPI_Cart_shift from `coords` along `direction` by `disp`: dest is the rank disp steps up,
// source the one disp steps down; off a non-periodic border either is kNoRank.
inline void cart_shift(int ndims, const int* dims, const int* periods, const int* coords,
                       int direction, int disp, int* source, int* dest)
{
    int64_t moved[2] = {-static_cast<int64_t>(disp), disp};
    int* out[2] = {source, dest};
    for (int side = 0; side < 2; side++) {
        int64_t to = coords[direction] + moved[side];
        int n = dims[direction];
        if (periods[direction]) {
            to %= n;
            if (to < 0)
                to += n;
        } else if (to < 0 || to >= n) {
            *out[side] = kNoRank;
            continue;
        }
        // Rank of the shifted point: only the one coordinate changes.
        int64_t stride = 1;
        for (int i = ndims - 1; i > direction; i--)
            stride *= dims[i];
        int64_t base = 0;
        for (int i = 0; i < ndims; i++)
            base = base * dims[i] + coords[i];
        *out[side] = static_cast<int>(base + (to - coords[direction]) * stride);
    }
}

// MPI_Cart_sub: the sub-grid a point belongs to (`color`: its coordinates in the dropped
// dimensions, row-major) and its rank there (`key`: coordinates in the kept ones).
inline void cart_sub(int ndims, const int* dims, const int* coords, const int* remain, int* color,
                     int* key)
{
    int col = 0, k = 0;
    for (int i = 0; i < ndims; i++) {
        if (remain[i])
            k = k * dims[i] + coords[i];
        else
            col = col * dims[i] + coords[i];
    }
    *color = col;
    *key = k;
}

// A graph of MPI_Graph_create: index[i] is the end of node i's edges in `edges` (nondecreasing,
// from 0), every edge names a node. Self-loops and repeated edges are allowed (MPI 3.1 7.5.3).
inline bool graph_valid(int nnodes, const int* index, const int* edges)
{
    int prev = 0;
    for (int i = 0; i < nnodes; i++) {
        if (index[i] < prev)
            return false;
        prev = index[i];
    }
    for (int e = 0; e < prev; e++)
        if (edges[e] < 0 || edges[e] >= nnodes)
            return false;
    return true;
}

// Node `node`'s neighbours are edges[first .. first + count).
inline void graph_neighbors(const int* index, int node, int* first, int* count)
{
    *first = node == 0 ? 0 : index[node - 1];
    *count = index[node] - *first;
}

// One edge of a distributed graph as given to MPI_Dist_graph_create.
struct Edge {
    int source;
    int dest;
    int weight;
};

// This rank's in- and out-edges among every edge of the graph (in one order that all ranks
// share): the j-th edge from A to B is A's j-th destination B and B's j-th source A, so
// repeated edges pair up. Counts first (null lists), then the lists.
inline void dist_graph_edges(const Edge* all, int n, int me, int* indegree, int* sources,
                             int* sweights, int* outdegree, int* dests, int* dweights)
{
    int in = 0, out = 0;
    for (int i = 0; i < n; i++) {
        if (all[i].dest == me) {
            if (sources) {
                sources[in] = all[i].source;
                sweights[in] = all[i].weight;
            }
            in++;
        }
        if (all[i].source == me) {
            if (dests) {
                dests[out] = all[i].dest;
                dweights[out] = all[i].weight;
            }
            out++;
        }
    }
    *indegree = in;
    *outdegree = out;
}

}  // namespace lwmpi::topo
