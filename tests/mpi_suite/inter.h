/* Intercommunicators of the tests: MPI_COMM_WORLD in two groups, joined by
 * MPI_Intercomm_create over MPI_COMM_WORLD. Split in halves (group 0: the lower size/2
 * world ranks; odd sizes give groups of different sizes) or interleaved (group 0: the even
 * world ranks, so ranks of both groups share clusters). */
#ifndef LWMPI_TEST_INTER_H
#define LWMPI_TEST_INTER_H
#include "suite.h"

struct inter_groups {
    int group;         /* 0 or 1 */
    int size[2];       /* of each group */
    MPI_Comm half;     /* my group as an intracommunicator */
    MPI_Comm inter;
};

/* World rank of rank `r` of group `g`. */
static inline int inter_world_rank(int interleaved, int world_size, int g, int r)
{
    return interleaved ? 2 * r + g : g * (world_size / 2) + r;
}

static inline struct inter_groups inter_make(int interleaved, int tag)
{
    struct inter_groups x;
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    x.group = interleaved ? rank % 2 : rank >= size / 2;
    x.size[0] = interleaved ? (size + 1) / 2 : size / 2;
    x.size[1] = size - x.size[0];
    SUITE_CHECK(MPI_Comm_split(MPI_COMM_WORLD, x.group, rank, &x.half) == MPI_SUCCESS, "split");
    int remote_leader = inter_world_rank(interleaved, size, 1 - x.group, 0);
    int err = MPI_Intercomm_create(x.half, 0, MPI_COMM_WORLD, remote_leader, tag, &x.inter);
    SUITE_CHECK(err == MPI_SUCCESS, "MPI_Intercomm_create returned %d", err);
    return x;
}

static inline void inter_free(struct inter_groups *x)
{
    MPI_Comm_free(&x->inter);
    MPI_Comm_free(&x->half);
}

#endif
