/* Communicators made from intercommunicators: MPI_Comm_dup (a new context: its traffic never
 * matches the original's), MPI_Comm_compare of both groups, MPI_Intercomm_merge with every
 * high/low choice, MPI_Comm_split and MPI_Comm_create on an intercommunicator (MPI 3.1
 * sections 6.4 and 6.6). */
#include <stdlib.h>

#include "inter.h"

static int world_rank_in(MPI_Comm comm, int rank)
{
    MPI_Group group, world;
    int out = -1;
    MPI_Comm_group(comm, &group);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_translate_ranks(group, 1, &rank, world, &out);
    MPI_Group_free(&group);
    MPI_Group_free(&world);
    return out;
}

static void dup_compare_free(const struct inter_groups *x)
{
    MPI_Comm dup;
    int result, flag, rank, remote_size;
    SUITE_CHECK(MPI_Comm_dup(x->inter, &dup) == MPI_SUCCESS, "MPI_Comm_dup");
    MPI_Comm_test_inter(dup, &flag);
    MPI_Comm_remote_size(dup, &remote_size);
    SUITE_CHECK(flag && remote_size == x->size[1 - x->group], "the dup is an intercommunicator");
    MPI_Comm_compare(x->inter, x->inter, &result);
    SUITE_CHECK(result == MPI_IDENT, "compare with itself: %d", result);
    MPI_Comm_compare(x->inter, dup, &result);
    SUITE_CHECK(result == MPI_CONGRUENT, "compare with its dup: %d", result);
    MPI_Comm_compare(x->inter, x->half, &result);
    SUITE_CHECK(result == MPI_UNEQUAL, "compare with an intracommunicator: %d", result);

    /* One message on each: received in the opposite order, each on its own context. */
    MPI_Comm_rank(x->inter, &rank);
    int a = 100 + rank, b = 200 + rank, in_a = -1, in_b = -1;
    MPI_Request requests[2];
    MPI_Isend(&a, 1, MPI_INT, 0, 3, x->inter, &requests[0]);
    MPI_Isend(&b, 1, MPI_INT, 0, 3, dup, &requests[1]);
    if (rank == 0)
        for (int j = 0; j < remote_size; j++) {
            MPI_Recv(&in_b, 1, MPI_INT, j, 3, dup, MPI_STATUS_IGNORE);
            MPI_Recv(&in_a, 1, MPI_INT, j, 3, x->inter, MPI_STATUS_IGNORE);
            SUITE_CHECK(in_a == 100 + j && in_b == 200 + j, "from %d: %d on the original, %d on the dup",
                        j, in_a, in_b);
        }
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
    MPI_Comm_free(&dup);
    SUITE_CHECK(dup == MPI_COMM_NULL, "MPI_Comm_free sets MPI_COMM_NULL");
}

/* `high` of group g is highs[g]; checks the merged order and that the result works. */
static void merge(const struct inter_groups *x, int interleaved, const int highs[2])
{
    int world_size, rank, size;
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    MPI_Comm_rank(x->inter, &rank);
    MPI_Comm merged;
    SUITE_CHECK(MPI_Intercomm_merge(x->inter, highs[x->group], &merged) == MPI_SUCCESS, "merge");
    MPI_Comm_size(merged, &size);
    SUITE_CHECK(size == world_size, "merged size %d", size);
    /* Low group first; on a tie, the group of world rank 0 (group 0) first. */
    int first = highs[0] == highs[1] ? 0 : highs[0] ? 1 : 0;
    for (int r = 0; r < size; r++) {
        int g = r < x->size[first] ? first : 1 - first;
        int local = r < x->size[first] ? r : r - x->size[first];
        int expect = inter_world_rank(interleaved, world_size, g, local);
        int got = world_rank_in(merged, r);
        SUITE_CHECK(got == expect, "merged rank %d (high %d/%d) is world rank %d, expected %d", r,
                    highs[0], highs[1], got, expect);
    }
    int sum = 0, one = 1, flag;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, merged);
    SUITE_CHECK(sum == world_size, "Allreduce on the merged comm: %d", sum);
    MPI_Comm_test_inter(merged, &flag);
    SUITE_CHECK(!flag, "the merged comm is an intracommunicator");
    MPI_Comm_free(&merged);
}

/* Split by parity of the local rank, keys reversing the order; a color missing from either
 * group gives MPI_COMM_NULL. */
static void split(const struct inter_groups *x)
{
    int rank, color;
    MPI_Comm_rank(x->inter, &rank);
    color = rank % 2;
    MPI_Comm part;
    SUITE_CHECK(MPI_Comm_split(x->inter, color, -rank, &part) == MPI_SUCCESS, "split");
    int me = x->group, other = 1 - x->group;
    int nlocal = (x->size[me] + 1 - color) / 2, nremote = (x->size[other] + 1 - color) / 2;
    if (nremote == 0) {
        SUITE_CHECK(part == MPI_COMM_NULL, "color %d has no remote member", color);
    } else {
        int size, remote_size, part_rank;
        MPI_Comm_size(part, &size);
        MPI_Comm_remote_size(part, &remote_size);
        MPI_Comm_rank(part, &part_rank);
        SUITE_CHECK(size == nlocal && remote_size == nremote, "split sizes %d/%d, expected %d/%d",
                    size, remote_size, nlocal, nremote);
        /* Keys reverse the order: the highest local rank of my color is rank 0. */
        SUITE_CHECK(part_rank == (nlocal - 1) - rank / 2, "split rank %d of local rank %d", part_rank, rank);
        /* The remote members, as ranks of the original intercommunicator: every one sends
         * its original rank to every remote member. */
        MPI_Request *requests = malloc(sizeof(MPI_Request) * remote_size);
        for (int j = 0; j < remote_size; j++)
            MPI_Isend(&rank, 1, MPI_INT, j, 1, part, &requests[j]);
        for (int j = 0; j < remote_size; j++) {
            int from = -1;
            MPI_Recv(&from, 1, MPI_INT, j, 1, part, MPI_STATUS_IGNORE);
            int expect = 2 * (nremote - 1 - j) + color;
            SUITE_CHECK(from == expect, "split remote rank %d was rank %d, expected %d", j, from, expect);
        }
        MPI_Waitall(remote_size, requests, MPI_STATUSES_IGNORE);
        free(requests);
        MPI_Barrier(part);
        MPI_Comm_free(&part);
    }
    MPI_Comm none;
    MPI_Comm_split(x->inter, MPI_UNDEFINED, 0, &none);
    SUITE_CHECK(none == MPI_COMM_NULL, "MPI_UNDEFINED gives MPI_COMM_NULL");
}

/* MPI_Comm_create: each group names its part (all but local rank 0 when it has more). */
static void create(const struct inter_groups *x)
{
    int me = x->group, other = 1 - x->group, rank;
    MPI_Comm_rank(x->inter, &rank);
    MPI_Group local, part;
    MPI_Comm_group(x->inter, &local);
    int zero = 0;
    if (x->size[me] > 1)
        MPI_Group_excl(local, 1, &zero, &part);
    else
        MPI_Group_incl(local, 1, &zero, &part);
    MPI_Comm made;
    SUITE_CHECK(MPI_Comm_create(x->inter, part, &made) == MPI_SUCCESS, "MPI_Comm_create");
    int in_part = x->size[me] == 1 || rank > 0;
    if (!in_part) {
        SUITE_CHECK(made == MPI_COMM_NULL, "not in the group: MPI_COMM_NULL");
    } else {
        int size, remote_size, made_rank;
        MPI_Comm_size(made, &size);
        MPI_Comm_remote_size(made, &remote_size);
        MPI_Comm_rank(made, &made_rank);
        int expect_local = x->size[me] > 1 ? x->size[me] - 1 : 1;
        int expect_remote = x->size[other] > 1 ? x->size[other] - 1 : 1;
        SUITE_CHECK(size == expect_local && remote_size == expect_remote, "created sizes %d/%d", size,
                    remote_size);
        SUITE_CHECK(made_rank == (x->size[me] > 1 ? rank - 1 : 0), "created rank %d", made_rank);
        MPI_Barrier(made);
        MPI_Comm_free(&made);
    }
    MPI_Group_free(&part);
    MPI_Group_free(&local);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    static const int highs[4][2] = {{0, 1}, {1, 0}, {0, 0}, {1, 1}};
    for (int interleaved = 0; interleaved < 2; interleaved++) {
        struct inter_groups x = inter_make(interleaved, 20);
        dup_compare_free(&x);
        for (int h = 0; h < 4; h++)
            merge(&x, interleaved, highs[h]);
        split(&x);
        create(&x);
        inter_free(&x);
    }
    return suite_finalize();
}
