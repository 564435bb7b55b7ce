// Binomial and two-level tree schedules (see coll_schedule.hpp).
#include "coll_schedule.hpp"

#include <stdlib.h>
#include <string.h>

namespace lwmpi {

int binomial_parent(int pos)
{
    return pos == 0 ? -1 : pos & (pos - 1);  // clear the lowest set bit
}

int binomial_children(int pos, int n, int* out)
{
    int count = 0;
    for (int mask = 1; mask < n; mask <<= 1) {
        if (pos & mask)
            break;  // pos's subtree ends at its lowest set bit
        if (pos + mask < n)
            out[count++] = pos + mask;
    }
    return count;
}

int layout_most_members(const ClusterLayout& l)
{
    int most = 0;
    for (int s = 0; s < l.slots; s++)
        most = layout_slot_ranks(l, s) > most ? layout_slot_ranks(l, s) : most;
    return most;
}

bool layout_build(const int* cluster, int n, ClusterLayout* out)
{
    memset(out, 0, sizeof *out);
    out->ranks = n;
    out->slot_of = static_cast<int*>(malloc(sizeof(int) * (n + 1)));
    out->index_in_slot = static_cast<int*>(malloc(sizeof(int) * (n + 1)));
    out->members = static_cast<int*>(malloc(sizeof(int) * (n + 1)));
    out->start = static_cast<int*>(malloc(sizeof(int) * (n + 2)));
    int* slot_cluster = static_cast<int*>(malloc(sizeof(int) * (n + 1)));
    int* fill = static_cast<int*>(malloc(sizeof(int) * (n + 1)));
    if (!out->slot_of || !out->index_in_slot || !out->members || !out->start || !slot_cluster || !fill) {
        free(slot_cluster);
        free(fill);
        layout_free(out);
        return false;
    }
    // Slots in order of first appearance, so slot order follows the lowest rank.
    int slots = 0;
    for (int r = 0; r < n; r++) {
        int s = 0;
        while (s < slots && slot_cluster[s] != cluster[r])
            s++;
        if (s == slots)
            slot_cluster[slots++] = cluster[r];
        out->slot_of[r] = s;
    }
    for (int s = 0; s <= slots; s++)
        out->start[s] = 0;
    for (int r = 0; r < n; r++)
        out->start[out->slot_of[r] + 1]++;
    for (int s = 0; s < slots; s++)
        out->start[s + 1] += out->start[s];
    for (int s = 0; s < slots; s++)
        fill[s] = out->start[s];
    out->rank_ordered = true;
    for (int r = 0; r < n; r++) {
        int s = out->slot_of[r];
        out->index_in_slot[r] = fill[s] - out->start[s];
        out->members[fill[s]++] = r;
        if (r > 0 && s < out->slot_of[r - 1])  // slots are numbered by first appearance
            out->rank_ordered = false;
    }
    out->slots = slots;
    free(slot_cluster);
    free(fill);
    return true;
}

void layout_free(ClusterLayout* layout)
{
    free(layout->slot_of);
    free(layout->index_in_slot);
    free(layout->members);
    free(layout->start);
    memset(layout, 0, sizeof *layout);
}

namespace {

int slot_size(const ClusterLayout& l, int s) { return l.start[s + 1] - l.start[s]; }

// Leader of slot s for a tree rooted at `root`.
int leader_of(const ClusterLayout& l, int s, int root)
{
    return l.slot_of[root] == s ? root : l.members[l.start[s]];
}

// Rank at binomial position `pos` of slot s, positions rotated so the leader is position 0.
int member_at(const ClusterLayout& l, int s, int leader, int pos)
{
    int m = slot_size(l, s);
    return l.members[l.start[s] + (l.index_in_slot[leader] + pos) % m];
}

}  // namespace

void tree_node(const ClusterLayout& l, int root, int rank, TreeNode* out)
{
    int s = l.slot_of[rank];
    int root_slot = l.slot_of[root];
    int leader = leader_of(l, s, root);
    int m = slot_size(l, s);
    int pos = (l.index_in_slot[rank] - l.index_in_slot[leader] + m) % m;
    int tmp[32];
    out->children = 0;
    if (pos == 0) {
        // A leader: its place among the slots, rotated so the root's slot is position 0.
        int spos = (s - root_slot + l.slots) % l.slots;
        int p = binomial_parent(spos);
        out->parent = p < 0 ? -1 : leader_of(l, (p + root_slot) % l.slots, root);
        int k = binomial_children(spos, l.slots, tmp);
        for (int i = 0; i < k; i++)
            out->child[out->children++] = leader_of(l, (tmp[i] + root_slot) % l.slots, root);
    } else {
        out->parent = member_at(l, s, leader, binomial_parent(pos));
    }
    int k = binomial_children(pos, m, tmp);
    for (int i = 0; i < k; i++)
        out->child[out->children++] = member_at(l, s, leader, tmp[i]);
}

void ordered_tree_node(int ranks, int rank, TreeNode* out)
{
    out->parent = binomial_parent(rank);
    out->children = binomial_children(rank, ranks, out->child);
}

}  // namespace lwmpi
