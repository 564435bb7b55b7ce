// Collective schedules: pure functions of (layout, root, rank), written once, shared by every
// collective and unit-tested on the host. A communicator's ranks are grouped by the cluster
// that runs them; ranks of one cluster combine first, then one leader per cluster talks
// over the NoC, both levels as binomial trees.
#pragma once

#include <stddef.h>
#include <stdint.h>

namespace lwmpi {

// Binomial tree over positions 0..n-1 rooted at position 0: the parent of `pos` (-1 for the
// root), and its children in increasing distance (child i roots a subtree of 2^i positions
// that follows pos). Children are written to `out` (at most 32); returns their count.
int binomial_parent(int pos);
int binomial_children(int pos, int n, int* out);

// The ranks of a communicator grouped by cluster. Slots are ordered by their lowest rank;
// each slot lists its members in ascending rank order.
struct ClusterLayout {
    int ranks;            // communicator size
    int slots;            // clusters that hold ranks of the communicator
    int* slot_of;         // [ranks]: slot of each rank
    int* index_in_slot;   // [ranks]: position of each rank in its slot
    int* members;         // [ranks]: ranks grouped by slot
    int* start;           // [slots + 1]: slot s is members[start[s] .. start[s + 1])
    bool rank_ordered;    // every slot is a contiguous rank range (compact placement)
    bool shared;          // the arrays are the cluster's one copy (comm.cpp lends it)
};

// Ranks of slot s, and of the slot with the most.
inline int layout_slot_ranks(const ClusterLayout& l, int s) { return l.start[s + 1] - l.start[s]; }
int layout_most_members(const ClusterLayout& l);

// Builds the layout of ranks whose clusters are cluster[0..n); false when out of memory.
bool layout_build(const int* cluster, int n, ClusterLayout* out);
void layout_free(ClusterLayout* layout);

// One rank's place in a two-level tree rooted at `root`: the root leads its cluster, every
// other cluster is led by its lowest rank. Children that are cluster leaders (remote) come
// first, then the members of the rank's own cluster.
constexpr int kMaxTreeChildren = 64;
struct TreeNode {
    int parent;  // -1 at the root
    int children;
    int child[kMaxTreeChildren];
};
void tree_node(const ClusterLayout& layout, int root, int rank, TreeNode* out);

// The same tree over ranks in rank order only (one level), rooted at rank 0: used for
// non-commutative reductions, where the combining order must follow rank order.
void ordered_tree_node(int ranks, int rank, TreeNode* out);

}  // namespace lwmpi
