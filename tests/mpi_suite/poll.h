/* Shared frame of the poll_* programs: every rank sends every other rank one message of each
 * size (eager or local cell, rendezvous, several portal pieces), so each rank has peers on
 * its own cluster and on others whatever the mapping; then it collects them with a loop of
 * a nonblocking call (a poll) that must end, as polling loops do in real programs. */
#ifndef LWMPI_TEST_MPI_SUITE_POLL_H
#define LWMPI_TEST_MPI_SUITE_POLL_H
#include <stdlib.h>

#include "suite.h"

static const int poll_sizes[] = {3, 700, 2000}; /* ints */
enum { POLL_KINDS = 3 };

static inline int poll_seed(int source, int dest, int kind) { return (source * 64 + dest) * 4 + kind; }

static inline int *poll_message(int source, int dest, int kind)
{
    const int n = poll_sizes[kind];
    int *v = malloc(sizeof(int) * n);
    for (int i = 0; v && i < n; i++)
        v[i] = poll_seed(source, dest, kind) * 7919 + i;
    return v;
}

static inline int poll_matches(const int *v, int source, int dest, int kind)
{
    for (int i = 0; i < poll_sizes[kind]; i++)
        if (v[i] != poll_seed(source, dest, kind) * 7919 + i)
            return 0;
    return 1;
}

/* The sends of one round, tag base + kind, to every other rank. */
struct poll_sends {
    int n;
    MPI_Request req[POLL_KINDS * 64];
    int *buf[POLL_KINDS * 64];
};

static inline void poll_start_sends(struct poll_sends *s, int base)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    s->n = 0;
    for (int d = 1; d < size; d++)
        for (int k = 0; k < POLL_KINDS; k++) {
            const int dest = (rank + d) % size;
            s->buf[s->n] = poll_message(rank, dest, k);
            MPI_Isend(s->buf[s->n], poll_sizes[k], MPI_INT, dest, base + k, MPI_COMM_WORLD, &s->req[s->n]);
            s->n++;
        }
}

/* Completes the round's sends by polling them with MPI_Testall. */
static inline void poll_end_sends(struct poll_sends *s)
{
    int flag = 0;
    while (!flag)
        MPI_Testall(s->n, s->req, &flag, MPI_STATUSES_IGNORE);
    for (int i = 0; i < s->n; i++)
        free(s->buf[i]);
    MPI_Barrier(MPI_COMM_WORLD); /* rounds never see each other's messages */
}

/* Receives the message a probe reported, from (source, tag base + kind), and checks it. */
static inline void poll_receive_checked(int rank, const MPI_Status *st, int base)
{
    const int kind = st->MPI_TAG - base;
    SUITE_CHECK(kind >= 0 && kind < POLL_KINDS, "probed tag %d, expected %d..%d", st->MPI_TAG, base,
                base + POLL_KINDS - 1);
    if (kind < 0 || kind >= POLL_KINDS)
        return;
    int count = -1;
    MPI_Get_count(st, MPI_INT, &count);
    SUITE_CHECK(count == poll_sizes[kind], "probed count %d, expected %d", count, poll_sizes[kind]);
    int *v = malloc(sizeof(int) * poll_sizes[kind]);
    MPI_Recv(v, poll_sizes[kind], MPI_INT, st->MPI_SOURCE, st->MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    SUITE_CHECK(poll_matches(v, st->MPI_SOURCE, rank, kind), "wrong data from rank %d, kind %d", st->MPI_SOURCE, kind);
    free(v);
}

#endif
