/* The nonblocking neighbourhood collectives (7.7) on the topologies of neighbor.h: all five
 * outstanding at once on one communicator, with an Iallreduce among them and a blocking
 * neighbourhood call while they are pending, completed in reverse order; then the error
 * classes of bad arguments (reported by the I-call itself, which returns MPI_REQUEST_NULL). */
#include "neighbor.h"

enum { kOps = 7 };

static void run(Case *c)
{
    int in = c->in, out = c->out;
    int ag[4 * MAXN], agv[4 * MAXN], a2a_s[4 * MAXN], a2a[4 * MAXN], vs[4 * MAXN], v[4 * MAXN],
        w[4 * MAXN], blocking[4 * MAXN];
    int counts[MAXN], displs[MAXN], gcounts[MAXN], gdispls[MAXN], rcounts[MAXN], rdispls[MAXN];
    MPI_Aint sbytes[MAXN], rbytes[MAXN];
    MPI_Datatype stypes[MAXN], rtypes[MAXN], one_int;
    MPI_Type_contiguous(1, MPI_INT, &one_int);
    MPI_Type_commit(&one_int);
    for (int i = 0; i < 4 * MAXN; i++)
        ag[i] = agv[i] = a2a[i] = v[i] = w[i] = blocking[i] = UNTOUCHED;

    int mine[2] = {value(me, 0, 0), value(me, 0, 1)};
    for (int k = 0; k < in; k++) {
        gcounts[k] = 2;
        gdispls[k] = 3 * (in - 1 - k);
    }
    for (int k = 0; k < out; k++)
        for (int e = 0; e < 2; e++)
            a2a_s[2 * k + e] = value(me, k, e);
    int at = 0;
    for (int k = out - 1; k >= 0; k--) {
        counts[k] = vcount(me, k);
        displs[k] = at;
        for (int e = 0; e < counts[k]; e++)
            vs[at + e] = value(me, k, e);
        sbytes[k] = (MPI_Aint)at * (MPI_Aint)sizeof(int);
        stypes[k] = MPI_INT;
        at += counts[k];
    }
    at = 0;
    for (int k = in - 1; k >= 0; k--) {
        rcounts[k] = c->src[k] == MPI_PROC_NULL ? 3 : vcount(c->src[k], c->peer_block[k]);
        rdispls[k] = at;
        rbytes[k] = (MPI_Aint)at * (MPI_Aint)sizeof(int);
        rtypes[k] = k % 2 ? one_int : MPI_INT;
        at += rcounts[k];
    }

    MPI_Request reqs[kOps];
    int one = 1, sum = 0;
    MPI_Ineighbor_allgather(mine, 2, MPI_INT, ag, 2, MPI_INT, c->comm, &reqs[0]);
    MPI_Ineighbor_allgatherv(mine, 2, MPI_INT, agv, gcounts, gdispls, MPI_INT, c->comm, &reqs[1]);
    MPI_Iallreduce(&one, &sum, 1, MPI_INT, MPI_SUM, c->comm, &reqs[2]);
    MPI_Ineighbor_alltoall(a2a_s, 2, MPI_INT, a2a, 2, MPI_INT, c->comm, &reqs[3]);
    MPI_Ineighbor_alltoallv(vs, counts, displs, MPI_INT, v, rcounts, rdispls, MPI_INT, c->comm,
                            &reqs[4]);
    MPI_Ineighbor_alltoallw(vs, counts, sbytes, stypes, w, rcounts, rbytes, rtypes, c->comm,
                            &reqs[5]);
    reqs[6] = MPI_REQUEST_NULL;
    /* A blocking neighbourhood call while they are pending. */
    SUITE_CHECK(MPI_Neighbor_allgather(mine, 2, MPI_INT, blocking, 2, MPI_INT, c->comm) == MPI_SUCCESS,
                "%s: blocking allgather among pending ones", c->name);
    for (int i = kOps - 1; i >= 0; i--)
        SUITE_CHECK(MPI_Wait(&reqs[i], MPI_STATUS_IGNORE) == MPI_SUCCESS && reqs[i] == MPI_REQUEST_NULL,
                    "%s: wait %d", c->name, i);

    int n;
    MPI_Comm_size(c->comm, &n);
    SUITE_CHECK(sum == n, "%s: Iallreduce among them gave %d", c->name, sum);
    for (int k = 0; k < in; k++) {
        check_block(c, "ineighbor_allgather", ag + 2 * k, k, 2, 1);
        check_block(c, "blocking allgather", blocking + 2 * k, k, 2, 1);
        check_block(c, "ineighbor_allgatherv", agv + gdispls[k], k, 2, 1);
        SUITE_CHECK(agv[gdispls[k] + 2] == UNTOUCHED, "%s ineighbor_allgatherv wrote a gap", c->name);
        check_block(c, "ineighbor_alltoall", a2a + 2 * k, k, 2, 0);
        check_block(c, "ineighbor_alltoallv", v + rdispls[k], k, rcounts[k], 0);
        check_block(c, "ineighbor_alltoallw", w + rdispls[k], k, rcounts[k], 0);
    }
    MPI_Type_free(&one_int);
    MPI_Comm_free(&c->comm);
}

#define EXPECT_CLASS(call, want)                                                            \
    do {                                                                                    \
        req = (MPI_Request)12345;                                                           \
        int err_ = (call), cls_ = -1;                                                       \
        MPI_Error_class(err_, &cls_);                                                       \
        SUITE_CHECK(cls_ == (want), "%s: class %d, expected %d", #call, cls_, (want));      \
        SUITE_CHECK(req == MPI_REQUEST_NULL || (want) == MPI_ERR_ARG || (want) == MPI_ERR_COMM, \
                    "%s: the request is not MPI_REQUEST_NULL", #call);                      \
    } while (0)

static void errors(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int n, dims[1], periods[1] = {1};
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    dims[0] = n;
    MPI_Comm ring;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);  /* inherits ERRORS_RETURN */
    int v[8] = {0}, zero[2] = {0, 0}, neg[2] = {-1, -1};
    MPI_Aint bytes[2] = {0, 0};
    MPI_Datatype types[2] = {MPI_INT, MPI_INT};
    MPI_Request req;
    EXPECT_CLASS(MPI_Ineighbor_allgather(v, 1, MPI_INT, v + 4, 1, MPI_INT, MPI_COMM_WORLD, &req),
                 MPI_ERR_TOPOLOGY);
    EXPECT_CLASS(MPI_Ineighbor_alltoallw(v, zero, bytes, types, v + 4, zero, bytes, types,
                                         MPI_COMM_WORLD, &req), MPI_ERR_TOPOLOGY);
    EXPECT_CLASS(MPI_Ineighbor_alltoall(v, 1, MPI_INT, v + 4, 1, MPI_INT, MPI_COMM_NULL, &req),
                 MPI_ERR_COMM);
    EXPECT_CLASS(MPI_Ineighbor_alltoall(v, 1, MPI_INT, v + 4, 1, MPI_INT, ring, NULL), MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Ineighbor_allgather(v, -1, MPI_INT, v + 4, 1, MPI_INT, ring, &req), MPI_ERR_COUNT);
    EXPECT_CLASS(MPI_Ineighbor_allgather(v, 1, MPI_DATATYPE_NULL, v + 4, 1, MPI_INT, ring, &req),
                 MPI_ERR_TYPE);
    EXPECT_CLASS(MPI_Ineighbor_allgather(MPI_IN_PLACE, 1, MPI_INT, v + 4, 1, MPI_INT, ring, &req),
                 MPI_ERR_BUFFER);
    EXPECT_CLASS(MPI_Ineighbor_alltoall(v, 1, MPI_INT, v + 1, 1, MPI_INT, ring, &req), MPI_ERR_BUFFER);
    EXPECT_CLASS(MPI_Ineighbor_allgatherv(v, 1, MPI_INT, v + 4, NULL, zero, MPI_INT, ring, &req),
                 MPI_ERR_ARG);
    EXPECT_CLASS(MPI_Ineighbor_alltoallv(v, zero, zero, MPI_INT, v + 4, neg, zero, MPI_INT, ring,
                                         &req), MPI_ERR_COUNT);
    EXPECT_CLASS(MPI_Ineighbor_alltoallw(v, zero, NULL, types, v + 4, zero, bytes, types, ring,
                                         &req), MPI_ERR_ARG);
    /* The communicator still works after every refused call. */
    MPI_Request ok;
    int got[2] = {UNTOUCHED, UNTOUCHED};
    SUITE_CHECK(MPI_Ineighbor_allgather(&me, 1, MPI_INT, got, 1, MPI_INT, ring, &ok) == MPI_SUCCESS,
                "a good call after the refused ones");
    MPI_Wait(&ok, MPI_STATUS_IGNORE);
    SUITE_CHECK(got[0] == (me + n - 1) % n && got[1] == (me + 1) % n, "ring neighbours %d %d",
                got[0], got[1]);
    MPI_Comm_free(&ring);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    neighbor_cases(run);
    errors();
    return suite_finalize();
}
