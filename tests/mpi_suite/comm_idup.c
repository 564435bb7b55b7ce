/* MPI_Comm_idup (MPI 3.1 section 6.4.2): several duplications outstanding on the same and on
 * different communicators, completed in reverse order and through Waitany/Testany/Waitall,
 * or started in opposite orders on different ranks;
 * the new communicators are congruent to their parents, isolated from them and from each
 * other, and carry the attributes the copy callbacks keep (as they were at the call) and the
 * topology; duplications overlapping other nonblocking collectives on the parent; the error
 * classes of bad arguments. */
#include <stdlib.h>

#include "suite.h"

enum { kOut = 6, kMany = 12 };

static int copy_plus_one(MPI_Comm oldcomm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)oldcomm;
    (void)keyval;
    (void)extra;
    *(MPI_Aint *)out = (MPI_Aint)in + 1;
    *flag = 1;
    return MPI_SUCCESS;
}

static int copy_fails(MPI_Comm oldcomm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)oldcomm;
    (void)keyval;
    (void)extra;
    (void)in;
    (void)out;
    *flag = 0;
    return MPI_ERR_OTHER;
}

/* The duplicate works and is isolated from its parent: a message on each with the same tag,
 * received on the duplicate first, and an Allreduce on both. */
static void check_usable(MPI_Comm parent, MPI_Comm dup, const char *what)
{
    int result;
    MPI_Comm_compare(parent, dup, &result);
    SUITE_CHECK(result == MPI_CONGRUENT, "%s: compare gave %d", what, result);
    int rank, n;
    MPI_Comm_rank(dup, &rank);
    MPI_Comm_size(dup, &n);
    int right = (rank + 1) % n, left = (rank + n - 1) % n;
    int on_parent = 1000 + rank, on_dup = 2000 + rank, got_parent = -1, got_dup = -1;
    MPI_Request reqs[4];
    MPI_Isend(&on_parent, 1, MPI_INT, right, 5, parent, &reqs[0]);
    MPI_Isend(&on_dup, 1, MPI_INT, right, 5, dup, &reqs[1]);
    MPI_Recv(&got_dup, 1, MPI_INT, left, 5, dup, MPI_STATUS_IGNORE);
    MPI_Recv(&got_parent, 1, MPI_INT, left, 5, parent, MPI_STATUS_IGNORE);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    SUITE_CHECK(got_dup == 2000 + left && got_parent == 1000 + left,
                "%s: got %d on the duplicate, %d on the parent", what, got_dup, got_parent);
    int sum = 0;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, dup);
    SUITE_CHECK(sum == n * (n - 1) / 2, "%s: Allreduce gave %d", what, sum);
}

/* Distinct communicators do not match each other's messages: rank 0 sends one message on
 * each of `comms`, all with the same tag; every other rank receives them in reverse order. */
static void check_distinct(MPI_Comm *comms, int count)
{
    int rank;
    MPI_Comm_rank(comms[0], &rank);
    int n;
    MPI_Comm_size(comms[0], &n);
    if (rank == 0) {
        /* Nonblocking: the receivers take them in another order than they are sent. */
        int *values = malloc(sizeof(int) * n * count);
        MPI_Request *reqs = malloc(sizeof(MPI_Request) * n * count);
        int k = 0;
        for (int dest = 1; dest < n; dest++)
            for (int i = 0; i < count; i++, k++) {
                values[k] = 100 * dest + i;
                MPI_Isend(&values[k], 1, MPI_INT, dest, 9, comms[i], &reqs[k]);
            }
        MPI_Waitall(k, reqs, MPI_STATUSES_IGNORE);
        free(values);
        free(reqs);
    } else {
        for (int i = count - 1; i >= 0; i--) {
            int v = -1;
            MPI_Recv(&v, 1, MPI_INT, 0, 9, comms[i], MPI_STATUS_IGNORE);
            SUITE_CHECK(v == 100 * rank + i, "communicator %d delivered %d", i, v);
        }
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);

    /* Outstanding on the same (world, twice and more) and different communicators, with
     * attributes set before and after the calls. */
    int keyval;
    MPI_Comm_create_keyval(copy_plus_one, MPI_COMM_NULL_DELETE_FN, &keyval, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, (void *)(MPI_Aint)10);
    MPI_Comm_set_attr(half, keyval, (void *)(MPI_Aint)20);
    MPI_Comm parents[kOut] = {MPI_COMM_WORLD, half, MPI_COMM_WORLD, half, MPI_COMM_WORLD,
                              MPI_COMM_WORLD};
    MPI_Comm dups[kOut];
    MPI_Request reqs[kOut];
    for (int i = 0; i < kOut; i++) {
        MPI_Comm_idup(parents[i], &dups[i], &reqs[i]);
        SUITE_CHECK(reqs[i] != MPI_REQUEST_NULL, "idup %d gave no request", i);
    }
    MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, (void *)(MPI_Aint)30);  /* after the calls */
    for (int i = kOut - 1; i >= 0; i--) {
        MPI_Status status;
        int err = MPI_Wait(&reqs[i], &status);
        SUITE_CHECK(err == MPI_SUCCESS && reqs[i] == MPI_REQUEST_NULL, "wait %d: %d", i, err);
    }
    for (int i = 0; i < kOut; i++) {
        check_usable(parents[i], dups[i], "outstanding idup");
        void *value;
        int flag = 0;
        MPI_Comm_get_attr(dups[i], keyval, &value, &flag);
        MPI_Aint expect = parents[i] == MPI_COMM_WORLD ? 11 : 21;
        SUITE_CHECK(flag && (MPI_Aint)value == expect, "idup %d: attribute %d (flag %d), expected %d",
                    i, (int)(MPI_Aint)value, flag, (int)expect);
    }
    MPI_Comm world_dups[4] = {dups[0], dups[2], dups[4], dups[5]};
    check_distinct(world_dups, 4);
    MPI_Comm half_dups[3] = {half, dups[1], dups[3]};
    check_distinct(half_dups, 3);

    /* A duplicate of a duplicate, and several at once completed through Waitany, one
     * Testany and Waitall. */
    MPI_Comm again[kMany];
    MPI_Request many[kMany];
    for (int i = 0; i < kMany; i++)
        MPI_Comm_idup(i % 2 ? dups[0] : dups[1], &again[i], &many[i]);
    int index = -1, flag = 0;
    MPI_Testany(kMany, many, &index, &flag, MPI_STATUS_IGNORE);
    MPI_Waitany(kMany, many, &index, MPI_STATUS_IGNORE);
    SUITE_CHECK(index >= 0 && index < kMany, "Waitany gave %d", index);
    MPI_Waitall(kMany, many, MPI_STATUSES_IGNORE);
    for (int i = 0; i < kMany; i++)
        check_usable(i % 2 ? dups[0] : dups[1], again[i], "duplicate of a duplicate");
    MPI_Comm odd[kMany / 2];
    for (int i = 0; i < kMany / 2; i++)
        odd[i] = again[2 * i + 1];
    check_distinct(odd, kMany / 2);
    for (int i = 0; i < kMany; i++)
        MPI_Comm_free(&again[i]);

    /* Overlapping other nonblocking collectives on the parent, and a blocking one meanwhile. */
    int one = rank + 1, sum = 0, bval = rank == 0 ? 77 : -1;
    MPI_Comm over[2];
    MPI_Request mixed[5];
    MPI_Iallreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &mixed[0]);
    MPI_Comm_idup(MPI_COMM_WORLD, &over[0], &mixed[1]);
    MPI_Ibcast(&bval, 1, MPI_INT, 0, MPI_COMM_WORLD, &mixed[2]);
    MPI_Comm_idup(MPI_COMM_WORLD, &over[1], &mixed[3]);
    MPI_Ibarrier(MPI_COMM_WORLD, &mixed[4]);
    MPI_Comm blocking;
    MPI_Comm_dup(half, &blocking);
    MPI_Waitall(5, mixed, MPI_STATUSES_IGNORE);
    SUITE_CHECK(sum == n * (n + 1) / 2 && bval == 77, "overlapped collectives: %d %d", sum, bval);
    check_usable(MPI_COMM_WORLD, over[0], "idup among collectives");
    check_usable(MPI_COMM_WORLD, over[1], "idup among collectives");
    check_usable(half, blocking, "Comm_dup during idups");
    MPI_Comm mix[3] = {over[0], over[1], dups[0]};
    check_distinct(mix, 3);
    MPI_Comm_free(&over[0]);
    MPI_Comm_free(&over[1]);
    MPI_Comm_free(&blocking);

    /* Duplications of two communicators started in opposite orders on even and odd ranks
     * (collectives on different communicators need no common order), one of them waited for
     * before the other starts on odd ranks: each completes without the other, and both get
     * ids that no other communicator of their members has. */
    MPI_Comm a, b, from_a, from_b;
    MPI_Comm_dup(MPI_COMM_WORLD, &a);
    MPI_Comm_dup(MPI_COMM_WORLD, &b);
    for (int round = 0; round < 3; round++) {
        MPI_Request ra, rb;
        if (rank % 2 == 0) {
            MPI_Comm_idup(a, &from_a, &ra);
            MPI_Comm_idup(b, &from_b, &rb);
            MPI_Wait(&rb, MPI_STATUS_IGNORE);
            MPI_Wait(&ra, MPI_STATUS_IGNORE);
        } else {
            MPI_Comm_idup(b, &from_b, &rb);
            MPI_Wait(&rb, MPI_STATUS_IGNORE);
            MPI_Comm_idup(a, &from_a, &ra);
            MPI_Wait(&ra, MPI_STATUS_IGNORE);
        }
        check_usable(a, from_a, "idup in crossed order");
        check_usable(b, from_b, "idup in crossed order");
        MPI_Comm crossed[5] = {a, b, from_a, from_b, dups[0]};
        check_distinct(crossed, 5);
        MPI_Comm_free(&from_a);
        MPI_Comm_free(&from_b);
    }
    MPI_Comm_free(&a);
    MPI_Comm_free(&b);

    /* The topology comes along. */
    int dims[1] = {n}, periods[1] = {1};
    MPI_Comm ring, ring_dup;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
    MPI_Request req;
    MPI_Comm_idup(ring, &ring_dup, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    int topo = MPI_UNDEFINED;
    MPI_Topo_test(ring_dup, &topo);
    SUITE_CHECK(topo == MPI_CART, "the duplicate's topology is %d", topo);
    MPI_Comm_free(&ring_dup);
    MPI_Comm_free(&ring);

    /* A failing copy callback fails the call on this rank (the others take part alike). */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int bad_keyval;
    MPI_Comm_create_keyval(copy_fails, MPI_COMM_NULL_DELETE_FN, &bad_keyval, NULL);
    MPI_Comm_set_attr(dups[0], bad_keyval, NULL);
    MPI_Comm_set_errhandler(dups[0], MPI_ERRORS_RETURN);
    MPI_Comm failed = MPI_COMM_WORLD;
    req = MPI_REQUEST_NULL;
    int err = MPI_Comm_idup(dups[0], &failed, &req);
    SUITE_CHECK(err == MPI_ERR_OTHER && failed == MPI_COMM_NULL && req == MPI_REQUEST_NULL,
                "failing copy callback: error %d", err);
    MPI_Comm_delete_attr(dups[0], bad_keyval);
    MPI_Comm_free_keyval(&bad_keyval);
    MPI_Barrier(dups[0]);  /* the abandoned agreement finished in the background */
    check_usable(MPI_COMM_WORLD, dups[0], "after an abandoned idup");

    /* Error classes. */
    MPI_Comm nc;
    err = MPI_Comm_idup(MPI_COMM_NULL, &nc, &req);
    SUITE_CHECK(err == MPI_ERR_COMM, "null communicator: %d", err);
    err = MPI_Comm_idup((MPI_Comm)0x7fff0000, &nc, &req);
    SUITE_CHECK(err == MPI_ERR_COMM, "invalid communicator: %d", err);
    err = MPI_Comm_idup(MPI_COMM_WORLD, NULL, &req);
    SUITE_CHECK(err == MPI_ERR_ARG, "NULL newcomm: %d", err);
    err = MPI_Comm_idup(MPI_COMM_WORLD, &nc, NULL);
    SUITE_CHECK(err == MPI_ERR_ARG, "NULL request: %d", err);

    for (int i = 0; i < kOut; i++)
        MPI_Comm_free(&dups[i]);
    MPI_Comm_free_keyval(&keyval);
    MPI_Comm_free(&half);
    return suite_finalize();
}
