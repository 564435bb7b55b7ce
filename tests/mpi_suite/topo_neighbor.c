/* The blocking neighbourhood collectives (7.6) on the topologies of neighbor.h; blocks of
 * MPI_PROC_NULL neighbours and gaps between blocks must stay untouched. */
#include "neighbor.h"

static void run(Case *c)
{
    int in = c->in, out = c->out;
    int sbuf[4 * MAXN], rbuf[4 * MAXN], counts[MAXN], displs[MAXN], rcounts[MAXN], rdispls[MAXN];
    MPI_Aint sbytes[MAXN], rbytes[MAXN];
    MPI_Datatype stypes[MAXN], rtypes[MAXN], one_int;
    MPI_Type_contiguous(1, MPI_INT, &one_int);
    MPI_Type_commit(&one_int);

    /* Allgather: everyone's two values. */
    int mine[2] = {value(me, 0, 0), value(me, 0, 1)};
    for (int i = 0; i < 4 * MAXN; i++)
        rbuf[i] = UNTOUCHED;
    SUITE_CHECK(MPI_Neighbor_allgather(mine, 2, MPI_INT, rbuf, 2, MPI_INT, c->comm) == MPI_SUCCESS,
                "%s allgather", c->name);
    for (int k = 0; k < in; k++)
        check_block(c, "allgather", rbuf + 2 * k, k, 2, 1);

    /* Allgatherv: blocks in reverse order, one element of gap between them. */
    for (int i = 0; i < 4 * MAXN; i++)
        rbuf[i] = UNTOUCHED;
    for (int k = 0; k < in; k++) {
        rcounts[k] = 2;
        rdispls[k] = 3 * (in - 1 - k);
    }
    MPI_Neighbor_allgatherv(mine, 2, MPI_INT, rbuf, rcounts, rdispls, MPI_INT, c->comm);
    for (int k = 0; k < in; k++) {
        check_block(c, "allgatherv", rbuf + rdispls[k], k, 2, 1);
        SUITE_CHECK(rbuf[rdispls[k] + 2] == UNTOUCHED, "%s allgatherv wrote a gap", c->name);
    }

    /* Alltoall: block k to neighbour k. */
    for (int k = 0; k < out; k++)
        for (int e = 0; e < 2; e++)
            sbuf[2 * k + e] = value(me, k, e);
    for (int i = 0; i < 4 * MAXN; i++)
        rbuf[i] = UNTOUCHED;
    MPI_Neighbor_alltoall(sbuf, 2, MPI_INT, rbuf, 2, MPI_INT, c->comm);
    for (int k = 0; k < in; k++)
        check_block(c, "alltoall", rbuf + 2 * k, k, 2, 0);

    /* Alltoallv: counts per block, both sides laid out in reverse order. */
    int at = 0;
    for (int k = out - 1; k >= 0; k--) {
        counts[k] = vcount(me, k);
        displs[k] = at;
        for (int e = 0; e < counts[k]; e++)
            sbuf[at + e] = value(me, k, e);
        at += counts[k];
    }
    at = 0;
    for (int k = in - 1; k >= 0; k--) {
        rcounts[k] = c->src[k] == MPI_PROC_NULL ? 3 : vcount(c->src[k], c->peer_block[k]);
        rdispls[k] = at;
        at += rcounts[k];
    }
    for (int i = 0; i < 4 * MAXN; i++)
        rbuf[i] = UNTOUCHED;
    MPI_Neighbor_alltoallv(sbuf, counts, displs, MPI_INT, rbuf, rcounts, rdispls, MPI_INT, c->comm);
    for (int k = 0; k < in; k++)
        check_block(c, "alltoallv", rbuf + rdispls[k], k, rcounts[k], 0);

    /* Alltoallw: the same with byte displacements and a type per block (odd blocks are
     * received as a one-int contiguous type: the same type signature). */
    for (int k = 0; k < out; k++) {
        sbytes[k] = (MPI_Aint)displs[k] * (MPI_Aint)sizeof(int);
        stypes[k] = MPI_INT;
    }
    for (int k = 0; k < in; k++) {
        rbytes[k] = (MPI_Aint)rdispls[k] * (MPI_Aint)sizeof(int);
        rtypes[k] = k % 2 ? one_int : MPI_INT;
    }
    for (int i = 0; i < 4 * MAXN; i++)
        rbuf[i] = UNTOUCHED;
    MPI_Neighbor_alltoallw(sbuf, counts, sbytes, stypes, rbuf, rcounts, rbytes, rtypes, c->comm);
    for (int k = 0; k < in; k++)
        check_block(c, "alltoallw", rbuf + rdispls[k], k, rcounts[k], 0);

    MPI_Type_free(&one_int);
    MPI_Comm_free(&c->comm);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    neighbor_cases(run);
    return suite_finalize();
}
