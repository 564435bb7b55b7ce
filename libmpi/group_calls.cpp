// The MPI group calls (MPI 3.1 sections 6.3.1 - 6.3.3), built on group.hpp.
#include <mputil/mputil.hpp>
#include <stdint.h>
#include <stdlib.h>

#include "api.hpp"
#include "libmpi/error_class.hpp"
#include "libmpi/group.hpp"

namespace lwmpi {
namespace {

// A malloc'ed list of world ranks being assembled for a new group.
struct WorldList {
    int* world = nullptr;
    int count = 0;

    bool reserve(int n) {
        world = static_cast<int*>(malloc(sizeof(int) * static_cast<size_t>(n > 0 ? n : 1)));
        return world != nullptr;
    }
    void push(int w) { world[count++] = w; }
    // Makes the group and frees the list.
    int finish(MPI_Group* out) {
        const int rc = group_make(world, count, out);
        free(world);
        return rc;
    }
};

// Marks ranks[0..n) of a group of `size` members; MPI_ERR_RANK if one is out of range or
// repeated. `marks` has `size` entries, all false on entry.
int mark_ranks(const int* ranks, int n, int size, bool* marks) {
    for (int i = 0; i < n; i++) {
        if (ranks[i] < 0 || ranks[i] >= size || marks[ranks[i]]) return MPI_ERR_RANK;
        marks[ranks[i]] = true;
    }
    return MPI_SUCCESS;
}

bool* new_marks(int size) { return static_cast<bool*>(calloc(static_cast<size_t>(size > 0 ? size : 1), sizeof(bool))); }

// Group ranks chosen by incl/excl: with `include`, `ranks` in their order; otherwise every
// rank not in `ranks`, in group order.
int select_ranks(MPI_Group group, const int* ranks, int n, bool include, MPI_Group* out) {
    const int size = group_size(group);
    const int* world = group_world_ranks(group);
    bool* marks = new_marks(size);
    WorldList list;
    if (marks == nullptr || !list.reserve(size)) {
        free(marks);
        free(list.world);
        return MPI_ERR_NO_MEM;
    }
    int rc = mark_ranks(ranks, n, size, marks);
    if (rc == MPI_SUCCESS) {
        if (include) {
            for (int i = 0; i < n; i++) list.push(world[ranks[i]]);
        } else {
            for (int r = 0; r < size; r++) {
                if (!marks[r]) list.push(world[r]);
            }
        }
        rc = list.finish(out);
    } else {
        free(list.world);
    }
    free(marks);
    return rc;
}

// Expands (first, last, stride) triplets into ranks (section 6.3.2). A stride of 0 or one
// that walks away from `last` is MPI_ERR_ARG; a rank out of range, MPI_ERR_RANK; more ranks
// than the group has means a repeat, MPI_ERR_RANK.
int expand_ranges(int size, int n, const int ranges[][3], int** out, int* count) {
    int64_t total = 0;
    for (int i = 0; i < n; i++) {
        const int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        if (stride == 0) return MPI_ERR_ARG;
        if (first < 0 || first >= size || last < 0 || last >= size) return MPI_ERR_RANK;
        if ((stride > 0 && first > last) || (stride < 0 && first < last)) return MPI_ERR_ARG;
        total += (last - first) / stride + 1;
        if (total > size) return MPI_ERR_RANK;
    }
    int* ranks = static_cast<int*>(malloc(sizeof(int) * static_cast<size_t>(total > 0 ? total : 1)));
    if (ranks == nullptr) return MPI_ERR_NO_MEM;
    int k = 0;
    for (int i = 0; i < n; i++) {
        const int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        for (int r = first; stride > 0 ? r <= last : r >= last; r += stride) ranks[k++] = r;
    }
    *out = ranks;
    *count = k;
    return MPI_SUCCESS;
}

int select_ranges(MPI_Group group, int n, int ranges[][3], bool include, MPI_Group* out) {
    int* ranks = nullptr;
    int count = 0;
    int rc = expand_ranges(group_size(group), n, ranges, &ranks, &count);
    if (rc != MPI_SUCCESS) return rc;
    rc = select_ranks(group, ranks, count, include, out);
    free(ranks);
    return rc;
}

enum class SetOp { Union, Intersection, Difference };

int combine(MPI_Group a, MPI_Group b, SetOp op, MPI_Group* out) {
    const int size_a = group_size(a), size_b = group_size(b);
    const int* world_a = group_world_ranks(a);
    const int* world_b = group_world_ranks(b);
    WorldList list;
    if (!list.reserve(size_a + size_b)) return MPI_ERR_NO_MEM;
    for (int i = 0; i < size_a; i++) {
        const bool in_b = group_rank_of_world(b, world_a[i]) != MPI_UNDEFINED;
        const bool keep = op == SetOp::Union || (op == SetOp::Intersection) == in_b;
        if (keep) list.push(world_a[i]);
    }
    if (op == SetOp::Union) {
        for (int i = 0; i < size_b; i++) {
            if (group_rank_of_world(a, world_b[i]) == MPI_UNDEFINED) list.push(world_b[i]);
        }
    }
    return list.finish(out);
}

int compare(MPI_Group a, MPI_Group b) {
    const int size = group_size(a);
    if (size != group_size(b)) return MPI_UNEQUAL;
    const int* world_a = group_world_ranks(a);
    const int* world_b = group_world_ranks(b);
    bool same_order = true;
    for (int i = 0; i < size; i++) {
        if (world_a[i] != world_b[i]) same_order = false;
        if (group_rank_of_world(b, world_a[i]) == MPI_UNDEFINED) return MPI_UNEQUAL;
    }
    return same_order ? MPI_IDENT : MPI_SIMILAR;
}

int check_two(MPI_Group a, MPI_Group b, const void* out) {
    if (group_check(a) != MPI_SUCCESS || group_check(b) != MPI_SUCCESS) return MPI_ERR_GROUP;
    return out == nullptr ? MPI_ERR_ARG : MPI_SUCCESS;
}

// Checks of incl/excl/range calls: a valid group, n >= 0, the arrays and the result.
int check_selection(MPI_Group group, int n, const void* array, const void* out) {
    if (group_check(group) != MPI_SUCCESS) return MPI_ERR_GROUP;
    if (n < 0 || (n > 0 && array == nullptr) || out == nullptr) return MPI_ERR_ARG;
    return MPI_SUCCESS;
}

}  // namespace
}  // namespace lwmpi

using namespace lwmpi;

int api::Group_size(MPI_Group group, int* size) {
    int rc = group_check(group);
    if (rc == MPI_SUCCESS && size == nullptr) rc = MPI_ERR_ARG;
    if (rc != MPI_SUCCESS) return world_error(rc);
    *size = group_size(group);
    return MPI_SUCCESS;
}

int api::Group_rank(MPI_Group group, int* rank) {
    int rc = group_check(group);
    if (rc == MPI_SUCCESS && rank == nullptr) rc = MPI_ERR_ARG;
    if (rc != MPI_SUCCESS) return world_error(rc);
    *rank = group_rank_of_world(group, mputil::world_rank());
    return MPI_SUCCESS;
}

int api::Group_translate_ranks(MPI_Group group1, int n, const int ranks1[],
                                         MPI_Group group2, int ranks2[]) {
    int rc = group_check(group1) == MPI_SUCCESS ? group_check(group2) : MPI_ERR_GROUP;
    if (rc == MPI_SUCCESS && (n < 0 || (n > 0 && (ranks1 == nullptr || ranks2 == nullptr)))) {
        rc = MPI_ERR_ARG;
    }
    const int size1 = group_size(group1);
    for (int i = 0; rc == MPI_SUCCESS && i < n; i++) {
        if (ranks1[i] != MPI_PROC_NULL && (ranks1[i] < 0 || ranks1[i] >= size1)) rc = MPI_ERR_RANK;
    }
    if (rc != MPI_SUCCESS) return world_error(rc);
    const int* world1 = group_world_ranks(group1);
    for (int i = 0; i < n; i++) {
        ranks2[i] = ranks1[i] == MPI_PROC_NULL ? MPI_PROC_NULL
                                               : group_rank_of_world(group2, world1[ranks1[i]]);
    }
    return MPI_SUCCESS;
}

int api::Group_compare(MPI_Group group1, MPI_Group group2, int* result) {
    const int rc = check_two(group1, group2, result);
    if (rc != MPI_SUCCESS) return world_error(rc);
    *result = compare(group1, group2);
    return MPI_SUCCESS;
}

int api::Group_union(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
    int rc = check_two(group1, group2, newgroup);
    if (rc == MPI_SUCCESS) rc = combine(group1, group2, SetOp::Union, newgroup);
    return world_error(rc);
}

int api::Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
    int rc = check_two(group1, group2, newgroup);
    if (rc == MPI_SUCCESS) rc = combine(group1, group2, SetOp::Intersection, newgroup);
    return world_error(rc);
}

int api::Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
    int rc = check_two(group1, group2, newgroup);
    if (rc == MPI_SUCCESS) rc = combine(group1, group2, SetOp::Difference, newgroup);
    return world_error(rc);
}

int api::Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup) {
    int rc = check_selection(group, n, ranks, newgroup);
    if (rc == MPI_SUCCESS) rc = select_ranks(group, ranks, n, true, newgroup);
    return world_error(rc);
}

int api::Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup) {
    int rc = check_selection(group, n, ranks, newgroup);
    if (rc == MPI_SUCCESS) rc = select_ranks(group, ranks, n, false, newgroup);
    return world_error(rc);
}

int api::Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup) {
    int rc = check_selection(group, n, ranges, newgroup);
    if (rc == MPI_SUCCESS) rc = select_ranges(group, n, ranges, true, newgroup);
    return world_error(rc);
}

int api::Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup) {
    int rc = check_selection(group, n, ranges, newgroup);
    if (rc == MPI_SUCCESS) rc = select_ranges(group, n, ranges, false, newgroup);
    return world_error(rc);
}

int api::Group_free(MPI_Group* group) {
    if (group == nullptr) return world_error(MPI_ERR_ARG);
    if (group_check(*group) != MPI_SUCCESS) return world_error(MPI_ERR_GROUP);
    group_release(*group);  // MPI_GROUP_EMPTY is never destroyed
    *group = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}
