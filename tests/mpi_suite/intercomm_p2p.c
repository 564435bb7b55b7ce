/* Intercommunicators (MPI 3.1 section 6.6): MPI_Intercomm_create from two groups of
 * MPI_COMM_WORLD (halves, then interleaved), the local and remote groups it reports, and
 * point-to-point both ways: ranks name the remote group, MPI_ANY_SOURCE and MPI_ANY_TAG
 * match any remote member and the status names its remote rank. */
#include <stdlib.h>

#include "inter.h"

static void check_groups(const struct inter_groups *x, int interleaved)
{
    int world_size, flag = -1, size, rank, remote_size;
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    int me = x->group, other = 1 - x->group;
    MPI_Comm_test_inter(x->inter, &flag);
    SUITE_CHECK(flag == 1, "MPI_Comm_test_inter on the intercommunicator: %d", flag);
    MPI_Comm_test_inter(x->half, &flag);
    SUITE_CHECK(flag == 0, "MPI_Comm_test_inter on an intracommunicator: %d", flag);
    MPI_Comm_size(x->inter, &size);
    MPI_Comm_remote_size(x->inter, &remote_size);
    SUITE_CHECK(size == x->size[me], "local size %d, expected %d", size, x->size[me]);
    SUITE_CHECK(remote_size == x->size[other], "remote size %d, expected %d", remote_size, x->size[other]);
    int half_rank;
    MPI_Comm_rank(x->half, &half_rank);
    MPI_Comm_rank(x->inter, &rank);
    SUITE_CHECK(rank == half_rank, "rank %d, expected the local comm's %d", rank, half_rank);

    MPI_Group local, half, remote, world;
    int result;
    MPI_Comm_group(x->inter, &local);
    MPI_Comm_group(x->half, &half);
    MPI_Group_compare(local, half, &result);
    SUITE_CHECK(result == MPI_IDENT, "the local group is the local comm's (%d)", result);
    MPI_Comm_remote_group(x->inter, &remote);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int n = x->size[other];
    int *ranks = malloc(sizeof(int) * n), *in_world = malloc(sizeof(int) * n);
    for (int j = 0; j < n; j++)
        ranks[j] = j;
    MPI_Group_translate_ranks(remote, n, ranks, world, in_world);
    for (int j = 0; j < n; j++)
        SUITE_CHECK(in_world[j] == inter_world_rank(interleaved, world_size, other, j),
                    "remote rank %d is world rank %d", j, in_world[j]);
    free(ranks);
    free(in_world);
    MPI_Group_free(&local);
    MPI_Group_free(&half);
    MPI_Group_free(&remote);
    MPI_Group_free(&world);
}

/* Every member sends to every remote member (tag: its own rank); each receives them all
 * with wildcards and checks the source, the tag and the payload. */
static void all_pairs(const struct inter_groups *x, int interleaved)
{
    int world_size, world_rank, rank, remote_size;
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_rank(x->inter, &rank);
    MPI_Comm_remote_size(x->inter, &remote_size);
    int *out = malloc(sizeof(int) * remote_size);
    MPI_Request *sends = malloc(sizeof(MPI_Request) * remote_size);
    int *seen = calloc(remote_size, sizeof(int));
    for (int j = 0; j < remote_size; j++) {
        out[j] = world_rank * 1000 + j;
        MPI_Isend(&out[j], 1, MPI_INT, j, rank, x->inter, &sends[j]);
    }
    for (int k = 0; k < remote_size; k++) {
        int in = -1;
        MPI_Status status;
        MPI_Recv(&in, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, x->inter, &status);
        int j = status.MPI_SOURCE;
        SUITE_CHECK(j >= 0 && j < remote_size, "source %d is a remote rank", j);
        if (j < 0 || j >= remote_size)
            continue;
        seen[j]++;
        SUITE_CHECK(status.MPI_TAG == j, "tag %d from remote rank %d", status.MPI_TAG, j);
        int from = inter_world_rank(interleaved, world_size, 1 - x->group, j);
        SUITE_CHECK(in == from * 1000 + rank, "payload %d from remote rank %d", in, j);
    }
    for (int j = 0; j < remote_size; j++)
        SUITE_CHECK(seen[j] == 1, "%d messages from remote rank %d", seen[j], j);
    MPI_Waitall(remote_size, sends, MPI_STATUSES_IGNORE);
    free(out);
    free(sends);
    free(seen);
}

/* Named sources, probes and MPI_PROC_NULL: remote rank 0 of each group gets one message
 * from every member of the other group, probed with MPI_ANY_SOURCE first. */
static void to_remote_leader(const struct inter_groups *x)
{
    int rank, remote_size;
    MPI_Comm_rank(x->inter, &rank);
    MPI_Comm_remote_size(x->inter, &remote_size);
    int value = 7 * rank + 1;
    MPI_Request request;
    MPI_Isend(&value, 1, MPI_INT, 0, 5, x->inter, &request);
    MPI_Send(&value, 1, MPI_INT, MPI_PROC_NULL, 5, x->inter);
    if (rank == 0) {
        for (int k = 0; k < remote_size; k++) {
            MPI_Status status;
            MPI_Probe(MPI_ANY_SOURCE, 5, x->inter, &status);
            int j = status.MPI_SOURCE, in = -1;
            SUITE_CHECK(j >= 0 && j < remote_size, "probed source %d", j);
            MPI_Recv(&in, 1, MPI_INT, j, 5, x->inter, &status);
            SUITE_CHECK(status.MPI_SOURCE == j && in == 7 * j + 1, "from %d: %d", status.MPI_SOURCE, in);
        }
    }
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    /* Remote rank 0 (named) answers every member with Sendrecv. */
    int answer = -1;
    MPI_Status status;
    if (rank == 0) {
        for (int j = 1; j < remote_size; j++)
            MPI_Send(&j, 1, MPI_INT, j, 6, x->inter);
        int zero = 0;
        MPI_Sendrecv(&zero, 1, MPI_INT, 0, 6, &answer, 1, MPI_INT, 0, 6, x->inter, &status);
    } else {
        MPI_Recv(&answer, 1, MPI_INT, 0, 6, x->inter, &status);
    }
    SUITE_CHECK(answer == rank && status.MPI_SOURCE == 0 && status.MPI_TAG == 6,
                "answer %d from %d", answer, status.MPI_SOURCE);
}

/* A payload far above a mailbox message (rendezvous) from each member to remote rank
 * (rank % remote size), received with MPI_ANY_SOURCE. */
static void large(const struct inter_groups *x)
{
    enum { kCount = 5000 };
    int rank, remote_size, size;
    MPI_Comm_rank(x->inter, &rank);
    MPI_Comm_size(x->inter, &size);
    MPI_Comm_remote_size(x->inter, &remote_size);
    int *out = malloc(sizeof(int) * kCount), *in = malloc(sizeof(int) * kCount);
    for (int i = 0; i < kCount; i++)
        out[i] = rank * kCount + i;
    MPI_Request request;
    MPI_Isend(out, kCount, MPI_INT, rank % remote_size, 8, x->inter, &request);
    /* The remote members j with j % size == rank send to me. */
    for (int j = rank; j < remote_size; j += size) {
        MPI_Status status;
        MPI_Recv(in, kCount, MPI_INT, MPI_ANY_SOURCE, 8, x->inter, &status);
        int from = status.MPI_SOURCE, wrong = 0;
        for (int i = 0; i < kCount; i++)
            wrong += in[i] != from * kCount + i;
        SUITE_CHECK(wrong == 0 && from % size == rank, "large message from %d: %d wrong", from, wrong);
    }
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    free(out);
    free(in);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    for (int interleaved = 0; interleaved < 2; interleaved++) {
        struct inter_groups x = inter_make(interleaved, 10 + interleaved);
        check_groups(&x, interleaved);
        all_pairs(&x, interleaved);
        /* The wildcard receives above would match the next phase's messages too. */
        MPI_Barrier(x.inter);
        to_remote_leader(&x);
        large(&x);
        inter_free(&x);
        SUITE_CHECK(x.inter == MPI_COMM_NULL, "MPI_Comm_free leaves MPI_COMM_NULL");
    }
    return suite_finalize();
}
