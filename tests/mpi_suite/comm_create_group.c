/* MPI_Comm_create_group (MPI 3.1 section 6.4.2): collective over the group only. Disjoint
 * groups create their communicators at the same time (same tag and different tags), a group
 * leaving a rank out works while that rank does something else, groups in reverse order,
 * from a derived communicator, and the errors. */
#include "suite.h"

/* The communicator of the parent's ranks `ranks[0..n)` (this rank among them). */
static MPI_Comm create(MPI_Comm parent, const int *ranks, int n, int tag)
{
    MPI_Group all, group;
    MPI_Comm_group(parent, &all);
    MPI_Group_incl(all, n, ranks, &group);
    MPI_Comm comm = MPI_COMM_NULL;
    int err = MPI_Comm_create_group(parent, group, tag, &comm);
    SUITE_CHECK(err == MPI_SUCCESS && comm != MPI_COMM_NULL, "MPI_Comm_create_group: %d", err);
    MPI_Group_free(&group);
    MPI_Group_free(&all);
    return comm;
}

/* The new communicator works: its members in order, an allreduce and a ring. */
static void check_comm(MPI_Comm comm, const int *world_ranks, int n)
{
    int size, rank, me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    SUITE_CHECK(size == n, "size %d, expected %d", size, n);
    SUITE_CHECK(world_ranks[rank] == me, "rank %d is world rank %d, not %d", rank,
                world_ranks[rank], me);
    int sum = 0, expected = 0;
    for (int i = 0; i < n; i++)
        expected += world_ranks[i];
    MPI_Allreduce(&me, &sum, 1, MPI_INT, MPI_SUM, comm);
    SUITE_CHECK(sum == expected, "allreduce %d, expected %d", sum, expected);
    int from = -1;
    MPI_Sendrecv(&me, 1, MPI_INT, (rank + 1) % size, 3, &from, 1, MPI_INT,
                 (rank + size - 1) % size, 3, comm, MPI_STATUS_IGNORE);
    SUITE_CHECK(from == world_ranks[(rank + size - 1) % size], "ring got %d", from);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int ranks[512], n = 0;

    /* Even and odd ranks at once, same tag, then different tags. */
    for (int tag = 0; tag < 2; tag++) {
        n = 0;
        for (int r = rank % 2; r < size; r += 2)
            ranks[n++] = r;
        MPI_Comm half = create(MPI_COMM_WORLD, ranks, n, tag * (1 + rank % 2));
        check_comm(half, ranks, n);
        MPI_Comm_free(&half);
    }

    /* Everyone but rank 0, in reverse order, while rank 0 makes a communicator of itself. */
    if (rank == 0) {
        int self_only = 0;
        MPI_Comm alone = create(MPI_COMM_WORLD, &self_only, 1, 7);
        check_comm(alone, &self_only, 1);
        MPI_Comm_free(&alone);
    } else {
        n = 0;
        for (int r = size - 1; r >= 1; r--)
            ranks[n++] = r;
        MPI_Comm rest = create(MPI_COMM_WORLD, ranks, n, 7);
        check_comm(rest, ranks, n);
        /* From the derived communicator: its first two members (by their rank in it). */
        int rest_rank;
        MPI_Comm_rank(rest, &rest_rank);
        if (n >= 2 && rest_rank < 2) {
            int pair[2] = {0, 1}, world_pair[2] = {ranks[0], ranks[1]};
            MPI_Comm two = create(rest, pair, 2, 32767);
            check_comm(two, world_pair, 2);
            MPI_Comm_free(&two);
        }
        MPI_Comm_free(&rest);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* The empty group gives MPI_COMM_NULL, locally. */
    MPI_Comm comm = MPI_COMM_WORLD;
    int err = MPI_Comm_create_group(MPI_COMM_WORLD, MPI_GROUP_EMPTY, 0, &comm);
    SUITE_CHECK(err == MPI_SUCCESS && comm == MPI_COMM_NULL, "the empty group: %d", err);

    /* Errors: tags, groups that are not groups or not inside the communicator. */
    MPI_Group world_group;
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    err = MPI_Comm_create_group(MPI_COMM_WORLD, world_group, MPI_ANY_TAG, &comm);
    SUITE_CHECK(err == MPI_ERR_TAG, "MPI_ANY_TAG: %d", err);
    err = MPI_Comm_create_group(MPI_COMM_WORLD, world_group, -5, &comm);
    SUITE_CHECK(err == MPI_ERR_TAG, "a negative tag: %d", err);
    err = MPI_Comm_create_group(MPI_COMM_WORLD, MPI_GROUP_NULL, 0, &comm);
    SUITE_CHECK(err == MPI_ERR_GROUP, "MPI_GROUP_NULL: %d", err);
    err = MPI_Comm_create_group(MPI_COMM_NULL, world_group, 0, &comm);
    SUITE_CHECK(err == MPI_ERR_COMM, "MPI_COMM_NULL: %d", err);
    err = MPI_Comm_create_group(MPI_COMM_SELF, world_group, 0, &comm);
    SUITE_CHECK(err == MPI_ERR_GROUP, "a group larger than the communicator's: %d", err);
    err = MPI_Comm_create_group(MPI_COMM_WORLD, world_group, 0, NULL);
    SUITE_CHECK(err == MPI_ERR_ARG, "no newcomm: %d", err);

    /* The whole world, then a collective on it. */
    comm = MPI_COMM_NULL;
    err = MPI_Comm_create_group(MPI_COMM_WORLD, world_group, 99, &comm);
    SUITE_CHECK(err == MPI_SUCCESS, "the world group: %d", err);
    n = 0;
    for (int r = 0; r < size; r++)
        ranks[n++] = r;
    check_comm(comm, ranks, n);
    MPI_Comm_free(&comm);
    MPI_Group_free(&world_group);
    return suite_finalize();
}
