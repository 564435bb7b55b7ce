// Group objects: world ranks in group order plus a sorted index for world-to-group lookups
// (every received message's source goes through it), in a per-rank handle table. A group of
// world ranks 0..n-1 in order (MPI_COMM_WORLD's, its duplicates') keeps neither: its list is
// the cluster's one copy (mputil::world_in_order) and a lookup is a bounds check.
#include "libmpi/group.hpp"

#include <stdlib.h>
#include <string.h>

#include <mputil/mputil.hpp>

#include "libmpi/handles.hpp"
#include "libmpi/rank_context.hpp"

namespace lwmpi {

struct Member {
    int world;
    int rank;
};

struct Group {
    int refs;
    int index;
    int size;
    const int* world; // size entries, in group order
    Member* by_world; // size entries, sorted by world rank; nullptr: world ranks in order
    // both arrays follow in the same allocation, unless in order
};

namespace {

Group* group_of(MPI_Group group) {
    return is_user(group, LWMPI_KIND_GROUP) ? rank_context().groups.get(handle_index(group)) : nullptr;
}

int by_world_order(const void* a, const void* b) {
    const int x = static_cast<const Member*>(a)->world;
    const int y = static_cast<const Member*>(b)->world;
    return (x > y) - (x < y);
}

}  // namespace

bool in_world_order(const int* world_ranks, int n) {
    if (n > mputil::world_size()) return false;
    for (int i = 0; i < n; i++)
        if (world_ranks[i] != i) return false;
    return true;
}

int group_make(const int* world_ranks, int n, MPI_Group* out) {
    if (n < 0 || (n > 0 && world_ranks == nullptr)) return MPI_ERR_ARG;
    if (n == 0) {
        *out = MPI_GROUP_EMPTY;
        return MPI_SUCCESS;
    }
    const size_t count = static_cast<size_t>(n);
    const bool in_order = in_world_order(world_ranks, n);
    Group* g = static_cast<Group*>(malloc(sizeof(Group) + (in_order ? 0 : count * (sizeof(Member) + sizeof(int)))));
    if (g == nullptr) return MPI_ERR_NO_MEM;
    g->size = n;
    g->refs = 1;
    if (in_order) {
        g->world = mputil::world_in_order();
        g->by_world = nullptr;
    } else {
        g->by_world = reinterpret_cast<Member*>(g + 1);
        int* world = reinterpret_cast<int*>(g->by_world + count);
        memcpy(world, world_ranks, count * sizeof(int));
        g->world = world;
        for (int i = 0; i < n; i++) g->by_world[i] = Member{world_ranks[i], i};
        qsort(g->by_world, count, sizeof(Member), by_world_order);
        for (int i = 0; i < n; i++) {
            const bool repeated = i > 0 && g->by_world[i].world == g->by_world[i - 1].world;
            if (g->by_world[i].world < 0 || repeated) {
                free(g);
                return MPI_ERR_RANK;
            }
        }
    }
    g->index = rank_context().groups.add(g);
    if (g->index < 0) {
        free(g);
        return MPI_ERR_NO_MEM;
    }
    *out = user_handle(LWMPI_KIND_GROUP, g->index);
    return MPI_SUCCESS;
}

int group_check(MPI_Group group) {
    return group == MPI_GROUP_EMPTY || group_of(group) != nullptr ? MPI_SUCCESS : MPI_ERR_GROUP;
}

int group_size(MPI_Group group) {
    const Group* g = group_of(group);
    return g == nullptr ? 0 : g->size;
}

const int* group_world_ranks(MPI_Group group) {
    const Group* g = group_of(group);
    return g == nullptr ? nullptr : g->world;
}

int group_rank_of_world(MPI_Group group, int world_rank) {
    const Group* g = group_of(group);
    if (g == nullptr) return MPI_UNDEFINED;
    if (g->by_world == nullptr) return world_rank >= 0 && world_rank < g->size ? world_rank : MPI_UNDEFINED;
    int low = 0, high = g->size;  // binary search in [low, high)
    while (low < high) {
        const int mid = low + (high - low) / 2;
        const int w = g->by_world[mid].world;
        if (w == world_rank) return g->by_world[mid].rank;
        if (w < world_rank) {
            low = mid + 1;
        } else {
            high = mid;
        }
    }
    return MPI_UNDEFINED;
}

void group_retain(MPI_Group group) {
    Group* g = group_of(group);
    if (g != nullptr) g->refs++;
}

void group_release(MPI_Group group) {
    Group* g = group_of(group);
    if (g == nullptr || --g->refs > 0) return;
    rank_context().groups.remove(g->index);
    free(g);
}

void group_finalize() {
    HandleTable<Group>& groups = rank_context().groups;
    for (int i = 0; i < groups.limit(); i++) free(groups.remove(i));
    groups.clear();
}

}  // namespace lwmpi
