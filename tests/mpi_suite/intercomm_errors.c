/* Error classes of the intercommunicator calls under MPI_ERRORS_RETURN: bad arguments of
 * MPI_Intercomm_create (every rank of a group learns its leader's verdict), overlapping
 * groups, calls that need an intercommunicator given an intracommunicator and the reverse,
 * ranks and roots that must name the remote group, MPI_IN_PLACE. */
#include "inter.h"

#define EXPECT_CLASS(call, want)                                                        \
    do {                                                                                \
        int err_ = (call), class_ = -1;                                                 \
        MPI_Error_class(err_, &class_);                                                 \
        SUITE_CHECK(class_ == (want), "%s: class %d, expected %d (%s)", #call, class_, \
                    (want), #want);                                                     \
    } while (0)

static void create_errors(const struct inter_groups *x)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm out = MPI_COMM_NULL;
    int leader = inter_world_rank(0, size, 1 - x->group, 0);
    EXPECT_CLASS(MPI_Intercomm_create(x->inter, 0, MPI_COMM_WORLD, leader, 1, &out), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Intercomm_create(MPI_COMM_NULL, 0, MPI_COMM_WORLD, leader, 1, &out), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Intercomm_create(x->half, x->size[x->group], MPI_COMM_WORLD, leader, 1, &out),
                 MPI_ERR_RANK);
    EXPECT_CLASS(MPI_Intercomm_create(x->half, 0, MPI_COMM_WORLD, leader, 1, NULL), MPI_ERR_ARG);
    /* Arguments only the leaders give: both leaders pass the bad one, every member hears. */
    EXPECT_CLASS(MPI_Intercomm_create(x->half, 0, MPI_COMM_WORLD, size, 1, &out), MPI_ERR_RANK);
    EXPECT_CLASS(MPI_Intercomm_create(x->half, 0, MPI_COMM_WORLD, leader, -5, &out), MPI_ERR_TAG);
    EXPECT_CLASS(MPI_Intercomm_create(x->half, 0, MPI_COMM_NULL, leader, 1, &out), MPI_ERR_COMM);
    /* The groups must be disjoint: my own group, leader = myself. */
    EXPECT_CLASS(MPI_Intercomm_create(MPI_COMM_SELF, 0, MPI_COMM_WORLD, rank, 2, &out), MPI_ERR_GROUP);
    SUITE_CHECK(out == MPI_COMM_NULL, "no communicator after the errors");
}

static void kind_errors(const struct inter_groups *x)
{
    int value, flag;
    MPI_Group group;
    MPI_Comm out;
    EXPECT_CLASS(MPI_Comm_remote_size(MPI_COMM_WORLD, &value), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Comm_remote_size(x->inter, NULL), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Comm_remote_group(x->half, &group), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Comm_test_inter(MPI_COMM_NULL, &flag), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Comm_test_inter(x->inter, NULL), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Intercomm_merge(MPI_COMM_WORLD, 0, &out), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Intercomm_merge(x->inter, 0, NULL), MPI_ERR_ARG);
    /* Calls defined on intracommunicators only. */
    int in = 1, result = 0;
    EXPECT_CLASS(MPI_Scan(&in, &result, 1, MPI_INT, MPI_SUM, x->inter), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Exscan(&in, &result, 1, MPI_INT, MPI_SUM, x->inter), MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Comm_split_type(x->inter, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &out),
                 MPI_ERR_COMM);
}

static void rank_errors(const struct inter_groups *x)
{
    int remote_size, value = 0;
    MPI_Comm_remote_size(x->inter, &remote_size);
    int local_size = x->size[x->group];
    EXPECT_CLASS(MPI_Send(&value, 1, MPI_INT, remote_size, 0, x->inter), MPI_ERR_RANK);
    EXPECT_CLASS(MPI_Recv(&value, 1, MPI_INT, remote_size, 0, x->inter, MPI_STATUS_IGNORE),
                 MPI_ERR_RANK);
    EXPECT_CLASS(MPI_Bcast(&value, 1, MPI_INT, remote_size, x->inter), MPI_ERR_ROOT);
    EXPECT_CLASS(MPI_Bcast(&value, 1, MPI_INT, -7, x->inter), MPI_ERR_ROOT);
    EXPECT_CLASS(MPI_Reduce(&value, &value, 1, MPI_INT, MPI_SUM, remote_size, x->inter), MPI_ERR_ROOT);
    EXPECT_CLASS(MPI_Gather(&value, 1, MPI_INT, &value, 1, MPI_INT, remote_size + 3, x->inter),
                 MPI_ERR_ROOT);
    /* A local rank is not a remote one when the groups differ in size. */
    if (local_size > remote_size)
        EXPECT_CLASS(MPI_Send(&value, 1, MPI_INT, local_size - 1, 0, x->inter), MPI_ERR_RANK);
}

static void buffer_errors(const struct inter_groups *x)
{
    int value = 0, result = 0, all[64];
    EXPECT_CLASS(MPI_Allreduce(MPI_IN_PLACE, &result, 1, MPI_INT, MPI_SUM, x->inter), MPI_ERR_BUFFER);
    EXPECT_CLASS(MPI_Allreduce(&value, &result, 1, MPI_INT, MPI_REPLACE, x->inter), MPI_ERR_OP);
    EXPECT_CLASS(MPI_Allgather(&value, -1, MPI_INT, all, 1, MPI_INT, x->inter), MPI_ERR_COUNT);
    EXPECT_CLASS(MPI_Allgather(MPI_IN_PLACE, 1, MPI_INT, all, 1, MPI_INT, x->inter), MPI_ERR_BUFFER);
    EXPECT_CLASS(MPI_Alltoall(&value, 1, MPI_DATATYPE_NULL, all, 1, MPI_INT, x->inter), MPI_ERR_TYPE);
    EXPECT_CLASS(MPI_Reduce_scatter(&value, &result, NULL, MPI_INT, MPI_SUM, x->inter), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Reduce_scatter_block(&value, &result, -1, MPI_INT, MPI_SUM, x->inter), MPI_ERR_COUNT);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    /* The communicators inherit the handler: split from WORLD, the intercommunicator from
     * its local communicator. */
    struct inter_groups x = inter_make(0, 40);
    create_errors(&x);
    kind_errors(&x);
    rank_errors(&x);
    buffer_errors(&x);
    /* Still usable after the errors. */
    MPI_Barrier(x.inter);
    inter_free(&x);
    return suite_finalize();
}
