/* Errors as a program sees them with MPI_ERRORS_RETURN: the error class MPI 3.1 requires
 * for an invalid rank, tag, count, datatype, communicator, root, operation, group and
 * request, null, overlapping and misplaced in-place buffers of every collective,
 * truncation (nothing written past the buffer), MPI_ERR_IN_STATUS from the array completion
 * calls with per-request MPI_ERROR fields, a user error handler and its
 * inheritance by MPI_Comm_dup; then MPI_Comm_compare and MPI_Group_compare results,
 * MPI_Wtime and MPI_Wtick. Any rank count. */
#include <stdlib.h>
#include <string.h>

#include "../mpi/mpi_check.h"

static _Thread_local int rank, size;

static int class_of(int code)
{
    int c = -1;
    MPI_Error_class(code, &c);
    return c;
}

#define CHECK_CLASS(call, cls) CHECK_EQ(class_of(call), cls)

static void argument_errors(void)
{
    int v = 1, buf[4];
    MPI_Request r = MPI_REQUEST_NULL;
    MPI_Status st;
    /* Ranks */
    CHECK_CLASS(MPI_Send(&v, 1, MPI_INT, size, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Send(&v, 1, MPI_INT, -5, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Send(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Recv(buf, 1, MPI_INT, size + 3, 0, MPI_COMM_WORLD, &st), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Irecv(buf, 1, MPI_INT, size, 0, MPI_COMM_WORLD, &r), MPI_ERR_RANK);
    CHECK_EQ(r, MPI_REQUEST_NULL);
    CHECK_CLASS(MPI_Isend(&v, 1, MPI_INT, size, 0, MPI_COMM_SELF, &r), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_SELF), MPI_ERR_RANK);
    int flag;
    CHECK_CLASS(MPI_Iprobe(size, 0, MPI_COMM_WORLD, &flag, &st), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Sendrecv(&v, 1, MPI_INT, size, 0, buf, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &st),
                MPI_ERR_RANK);
    /* Tags */
    CHECK_CLASS(MPI_Send(&v, 1, MPI_INT, 0, -3, MPI_COMM_WORLD), MPI_ERR_TAG);
    CHECK_CLASS(MPI_Send(&v, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD), MPI_ERR_TAG);
    int *tag_ub, found = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &found);
    CHECK(found && *tag_ub >= 32767);
    CHECK_CLASS(MPI_Send(&v, 1, MPI_INT, 0, *tag_ub + 1, MPI_COMM_WORLD), MPI_ERR_TAG);
    CHECK_CLASS(MPI_Irecv(buf, 1, MPI_INT, 0, -7, MPI_COMM_WORLD, &r), MPI_ERR_TAG);
    /* Counts */
    CHECK_CLASS(MPI_Send(&v, -1, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Recv(buf, -2, MPI_INT, 0, 0, MPI_COMM_WORLD, &st), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Bcast(buf, -1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Allreduce(&v, buf, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_COUNT);
    CHECK_CLASS(MPI_Type_contiguous(-1, MPI_INT, &(MPI_Datatype){0}), MPI_ERR_COUNT);
    /* Datatypes: null, uncommitted, freed */
    CHECK_CLASS(MPI_Send(&v, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    MPI_Datatype t;
    MPI_Type_contiguous(2, MPI_INT, &t);
    CHECK_CLASS(MPI_Send(buf, 1, t, 0, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    CHECK_CLASS(MPI_Bcast(buf, 1, t, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    MPI_Type_free(&t);
    CHECK_CLASS(MPI_Send(&v, 1, MPI_COMM_WORLD, 0, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    MPI_Datatype predefined = MPI_INT;
    CHECK_CLASS(MPI_Type_free(&predefined), MPI_ERR_TYPE);
    CHECK_EQ(predefined, MPI_INT);
    /* Communicators */
    CHECK_CLASS(MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_NULL), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Barrier(MPI_COMM_NULL), MPI_ERR_COMM);
    int n;
    CHECK_CLASS(MPI_Comm_size(MPI_COMM_NULL, &n), MPI_ERR_COMM);
    CHECK_CLASS(MPI_Comm_rank(MPI_INT, &n), MPI_ERR_COMM);
    MPI_Comm world = MPI_COMM_WORLD, freed;
    CHECK_CLASS(MPI_Comm_free(&world), MPI_ERR_COMM);
    MPI_Comm_dup(MPI_COMM_WORLD, &freed);
    MPI_Comm stale = freed;
    MPI_Comm_free(&freed);
    CHECK_CLASS(MPI_Barrier(stale), MPI_ERR_COMM);
    /* Roots */
    CHECK_CLASS(MPI_Bcast(buf, 1, MPI_INT, size, MPI_COMM_WORLD), MPI_ERR_ROOT);
    CHECK_CLASS(MPI_Bcast(buf, 1, MPI_INT, -1, MPI_COMM_WORLD), MPI_ERR_ROOT);
    CHECK_CLASS(MPI_Reduce(&v, buf, 1, MPI_INT, MPI_SUM, size + 1, MPI_COMM_WORLD), MPI_ERR_ROOT);
    CHECK_CLASS(MPI_Gather(&v, 1, MPI_INT, buf, 1, MPI_INT, -4, MPI_COMM_WORLD), MPI_ERR_ROOT);
    /* Operations */
    CHECK_CLASS(MPI_Allreduce(&v, buf, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD), MPI_ERR_OP);
    CHECK_CLASS(MPI_Allreduce(&v, buf, 1, MPI_INT, MPI_INT, MPI_COMM_WORLD), MPI_ERR_OP);
    double d = 1, dr;
    CHECK_CLASS(MPI_Allreduce(&d, &dr, 1, MPI_DOUBLE, MPI_BAND, MPI_COMM_WORLD), MPI_ERR_OP);
    MPI_Op predefined_op = MPI_SUM;
    CHECK_CLASS(MPI_Op_free(&predefined_op), MPI_ERR_OP);
    /* Groups */
    MPI_Group g, ng;
    MPI_Comm_group(MPI_COMM_WORLD, &g);
    int bad_rank = size;
    CHECK_CLASS(MPI_Group_incl(g, 1, &bad_rank, &ng), MPI_ERR_RANK);
    CHECK_CLASS(MPI_Group_size(MPI_GROUP_NULL, &n), MPI_ERR_GROUP);
    MPI_Comm nc;
    CHECK_CLASS(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_NULL, &nc), MPI_ERR_GROUP);
    MPI_Group_free(&g);
    /* Requests */
    MPI_Request bogus = MPI_COMM_WORLD;
    CHECK_CLASS(MPI_Wait(&bogus, &st), MPI_ERR_REQUEST);
    MPI_Request nb;
    MPI_Irecv(buf, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &nb);
    CHECK_CLASS(MPI_Start(&nb), MPI_ERR_REQUEST); /* not persistent */
    MPI_Wait(&nb, &st);
    CHECK_EQ(st.MPI_SOURCE, MPI_PROC_NULL);
    /* Error strings for every class. */
    int bad = 0;
    for (int c = MPI_SUCCESS; c <= MPI_ERR_LASTCODE; c++) {
        char text[MPI_MAX_ERROR_STRING];
        int len = -1;
        bad += MPI_Error_string(c, text, &len) != MPI_SUCCESS || len <= 0 ||
               len >= MPI_MAX_ERROR_STRING || (int)strlen(text) != len;
        bad += class_of(c) != c;
    }
    CHECK_EQ(bad, 0);
}

/* Every collective with a null buffer holding data, with its send and receive buffers
 * overlapping (no MPI_IN_PLACE), with MPI_IN_PLACE where it is not allowed, and every
 * reduction with MPI_REPLACE and MPI_NO_OP (one-sided only): every rank gets the class, the
 * rooted calls included where only the root's buffer is wrong, and nobody hangs. */
static void collective_errors(void)
{
    int *b = calloc(4 * size, sizeof(int)), *o = calloc(4 * size, sizeof(int));
    int *counts = malloc(size * sizeof(int)), *displs = malloc(size * sizeof(int));
    for (int r = 0; r < size; r++) {
        counts[r] = 1;
        displs[r] = r;
    }
    int root = size - 1;
    /* Null buffers with a non-zero count */
    CHECK_CLASS(MPI_Bcast(NULL, 1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Reduce(NULL, o, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Reduce(b, NULL, 1, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Allreduce(b, NULL, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Reduce_scatter(NULL, o, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
                MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Reduce_scatter_block(b, NULL, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD),
                MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Scan(NULL, o, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Exscan(NULL, o, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Gather(b, 1, MPI_INT, NULL, 1, MPI_INT, root, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Gatherv(NULL, 1, MPI_INT, o, counts, displs, MPI_INT, 0, MPI_COMM_WORLD),
                MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Scatter(NULL, 1, MPI_INT, o, 1, MPI_INT, root, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Scatterv(b, counts, displs, MPI_INT, NULL, 1, MPI_INT, 0, MPI_COMM_WORLD),
                MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Allgather(NULL, 1, MPI_INT, o, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Allgatherv(b, 1, MPI_INT, NULL, counts, displs, MPI_INT, MPI_COMM_WORLD),
                MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Alltoall(NULL, 1, MPI_INT, o, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Alltoallv(b, counts, displs, MPI_INT, NULL, counts, displs, MPI_INT,
                              MPI_COMM_WORLD),
                MPI_ERR_BUFFER);
    /* The same or overlapping buffers as input and output */
    CHECK_CLASS(MPI_Reduce(b, b, 1, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Allreduce(b, b + 1, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Reduce_scatter(b, b, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Reduce_scatter_block(b, b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Scan(b, b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Exscan(b, b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Gather(b + size - 1, 1, MPI_INT, b, 1, MPI_INT, 0, MPI_COMM_WORLD),
                MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Gatherv(b, 1, MPI_INT, b, counts, displs, MPI_INT, root, MPI_COMM_WORLD),
                MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Scatter(b, 1, MPI_INT, b, 1, MPI_INT, root, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Scatterv(b, counts, displs, MPI_INT, b, 1, MPI_INT, 0, MPI_COMM_WORLD),
                MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Allgather(b, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Allgatherv(b, 1, MPI_INT, b, counts, displs, MPI_INT, MPI_COMM_WORLD),
                MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Alltoall(b, 1, MPI_INT, b, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Alltoallv(b, counts, displs, MPI_INT, b, counts, displs, MPI_INT,
                              MPI_COMM_WORLD),
                MPI_ERR_BUFFER);
    /* MPI_IN_PLACE where the standard does not allow it */
    CHECK_CLASS(MPI_Bcast(MPI_IN_PLACE, 1, MPI_INT, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Allreduce(b, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Gather(b, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, root, MPI_COMM_WORLD),
                MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Scatter(MPI_IN_PLACE, 1, MPI_INT, o, 1, MPI_INT, 0, MPI_COMM_WORLD),
                MPI_ERR_BUFFER);
    CHECK_CLASS(MPI_Alltoall(b, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, MPI_COMM_WORLD),
                MPI_ERR_BUFFER);
    /* One-sided operations in the reductions */
    MPI_Op one_sided[] = {MPI_REPLACE, MPI_NO_OP};
    for (int i = 0; i < 2; i++) {
        MPI_Op op = one_sided[i];
        CHECK_CLASS(MPI_Reduce(b, o, 1, MPI_INT, op, 0, MPI_COMM_WORLD), MPI_ERR_OP);
        CHECK_CLASS(MPI_Allreduce(b, o, 1, MPI_INT, op, MPI_COMM_WORLD), MPI_ERR_OP);
        CHECK_CLASS(MPI_Reduce_scatter(b, o, counts, MPI_INT, op, MPI_COMM_WORLD), MPI_ERR_OP);
        CHECK_CLASS(MPI_Reduce_scatter_block(b, o, 1, MPI_INT, op, MPI_COMM_WORLD), MPI_ERR_OP);
        CHECK_CLASS(MPI_Scan(b, o, 1, MPI_INT, op, MPI_COMM_WORLD), MPI_ERR_OP);
        CHECK_CLASS(MPI_Exscan(b, o, 1, MPI_INT, op, MPI_COMM_WORLD), MPI_ERR_OP);
    }
    /* The communicator still works */
    int one = 1, sum = 0;
    CHECK_EQ(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_SUCCESS);
    CHECK_EQ(sum, size);
    CHECK_EQ(MPI_Gather(&rank, 1, MPI_INT, o, 1, MPI_INT, root, MPI_COMM_WORLD), MPI_SUCCESS);
    if (rank == root)
        CHECK_EQ(o[size - 1], size - 1);
    free(b);
    free(o);
    free(counts);
    free(displs);
}

static void truncation(void)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out[8], in[8];
    for (int i = 0; i < 8; i++) {
        out[i] = rank * 10 + i;
        in[i] = -1;
    }
    MPI_Status st;
    MPI_Request rs;
    MPI_Isend(out, 6, MPI_INT, right, 11, MPI_COMM_WORLD, &rs);
    CHECK_CLASS(MPI_Recv(in, 4, MPI_INT, left, 11, MPI_COMM_WORLD, &st), MPI_ERR_TRUNCATE);
    MPI_Wait(&rs, MPI_STATUS_IGNORE);
    CHECK_EQ(in[4], -1);
    CHECK_EQ(in[5], -1);
    CHECK_EQ(in[3], left * 10 + 3);
    CHECK_EQ(st.MPI_SOURCE, left);
    CHECK_EQ(st.MPI_TAG, 11);

    /* Waitall: a good receive, a truncated one, a send: MPI_ERR_IN_STATUS, and each
     * status's MPI_ERROR says which. */
    MPI_Request rq[3];
    MPI_Status sts[3];
    for (int i = 0; i < 3; i++)
        sts[i].MPI_ERROR = -99;
    MPI_Irecv(in, 2, MPI_INT, left, 12, MPI_COMM_WORLD, &rq[0]);
    MPI_Irecv(&in[2], 1, MPI_INT, left, 13, MPI_COMM_WORLD, &rq[1]);
    MPI_Isend(out, 2, MPI_INT, right, 12, MPI_COMM_WORLD, &rq[2]);
    MPI_Send(out, 3, MPI_INT, right, 13, MPI_COMM_WORLD);
    CHECK_EQ(MPI_Waitall(3, rq, sts), MPI_ERR_IN_STATUS);
    CHECK_EQ(sts[0].MPI_ERROR, MPI_SUCCESS);
    CHECK_EQ(class_of(sts[1].MPI_ERROR), MPI_ERR_TRUNCATE);
    CHECK_EQ(sts[2].MPI_ERROR, MPI_SUCCESS);
    CHECK_EQ(rq[1], MPI_REQUEST_NULL);
    CHECK_EQ(in[3], left * 10 + 3); /* untouched beyond the one int */

    /* Waitsome and Testall report the same way. */
    MPI_Irecv(in, 1, MPI_INT, left, 14, MPI_COMM_WORLD, &rq[0]);
    MPI_Send(out, 2, MPI_INT, right, 14, MPI_COMM_WORLD);
    int outcount = 0, idx[1];
    MPI_Status one[1];
    int err = MPI_Waitsome(1, rq, &outcount, idx, one);
    CHECK_EQ(err, MPI_ERR_IN_STATUS);
    CHECK_EQ(outcount, 1);
    CHECK_EQ(class_of(one[0].MPI_ERROR), MPI_ERR_TRUNCATE);
    /* Wait on a truncated receive: the error is returned, not put in status (3.7.5). */
    MPI_Irecv(in, 1, MPI_INT, left, 15, MPI_COMM_WORLD, &rq[0]);
    MPI_Send(out, 2, MPI_INT, right, 15, MPI_COMM_WORLD);
    st.MPI_ERROR = -99;
    CHECK_CLASS(MPI_Wait(&rq[0], &st), MPI_ERR_TRUNCATE);
    CHECK_EQ(st.MPI_ERROR, -99);
    CHECK_EQ(rq[0], MPI_REQUEST_NULL);
    /* A truncated Sendrecv. */
    CHECK_CLASS(MPI_Sendrecv(out, 5, MPI_INT, right, 16, in, 2, MPI_INT, left, 16, MPI_COMM_WORLD,
                             &st), MPI_ERR_TRUNCATE);
}

static _Thread_local int handler_calls, handler_code;
static _Thread_local MPI_Comm handler_comm;

static void my_handler(MPI_Comm *comm, int *code, ...)
{
    handler_calls++;
    handler_code = *code;
    handler_comm = *comm;
}

static void user_handler(void)
{
    MPI_Errhandler eh, got;
    MPI_Comm dup;
    CHECK_EQ(MPI_Comm_create_errhandler(my_handler, &eh), MPI_SUCCESS);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    CHECK_EQ(MPI_Comm_set_errhandler(dup, eh), MPI_SUCCESS);
    CHECK_EQ(MPI_Errhandler_free(&eh), MPI_SUCCESS); /* dup keeps it alive */
    int v = 0;
    int err = MPI_Send(&v, 1, MPI_INT, size, 0, dup);
    CHECK_EQ(class_of(err), MPI_ERR_RANK);
    CHECK_EQ(handler_calls, 1);
    CHECK_EQ(class_of(handler_code), MPI_ERR_RANK);
    CHECK_EQ(handler_comm, dup);
    MPI_Comm dup2;
    MPI_Comm_dup(dup, &dup2); /* inherits the handler */
    MPI_Barrier(MPI_COMM_NULL); /* world's handler: returns */
    CHECK_EQ(handler_calls, 1);
    MPI_Bcast(&v, 1, MPI_INT, -1, dup2);
    CHECK_EQ(handler_calls, 2);
    CHECK_EQ(class_of(handler_code), MPI_ERR_ROOT);
    CHECK_EQ(handler_comm, dup2);
    MPI_Comm_get_errhandler(dup2, &got);
    CHECK(got != MPI_ERRORS_RETURN && got != MPI_ERRORS_ARE_FATAL);
    MPI_Errhandler_free(&got);
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got);
    CHECK_EQ(got, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&got);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&dup2);
}

static void compare(void)
{
    MPI_Comm dup, reversed, parity, self_dup;
    int res = -1;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_split(MPI_COMM_WORLD, 5, size - rank, &reversed);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &parity);
    MPI_Comm_dup(MPI_COMM_SELF, &self_dup);
    MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &res);
    CHECK_EQ(res, MPI_IDENT);
    MPI_Comm_compare(MPI_COMM_WORLD, dup, &res);
    CHECK_EQ(res, MPI_CONGRUENT);
    MPI_Comm_compare(MPI_COMM_WORLD, reversed, &res);
    CHECK_EQ(res, size > 1 ? MPI_SIMILAR : MPI_CONGRUENT);
    MPI_Comm_compare(MPI_COMM_WORLD, parity, &res);
    CHECK_EQ(res, size > 1 ? MPI_UNEQUAL : MPI_CONGRUENT);
    MPI_Comm_compare(MPI_COMM_SELF, self_dup, &res);
    CHECK_EQ(res, MPI_CONGRUENT);
    MPI_Comm_compare(MPI_COMM_SELF, MPI_COMM_WORLD, &res);
    CHECK_EQ(res, size > 1 ? MPI_UNEQUAL : MPI_CONGRUENT);
    CHECK_CLASS(MPI_Comm_compare(MPI_COMM_NULL, dup, &res), MPI_ERR_COMM);

    MPI_Group gw, gd, gr, gp, gi, ge;
    MPI_Comm_group(MPI_COMM_WORLD, &gw);
    MPI_Comm_group(dup, &gd);
    MPI_Comm_group(reversed, &gr);
    MPI_Comm_group(parity, &gp);
    int *all = malloc(size * sizeof(int));
    for (int i = 0; i < size; i++)
        all[i] = i;
    MPI_Group_incl(gw, size, all, &gi);
    MPI_Group_compare(gw, gd, &res);
    CHECK_EQ(res, MPI_IDENT);
    MPI_Group_compare(gw, gi, &res);
    CHECK_EQ(res, MPI_IDENT);
    MPI_Group_compare(gw, gr, &res);
    CHECK_EQ(res, size > 1 ? MPI_SIMILAR : MPI_IDENT);
    MPI_Group_compare(gw, gp, &res);
    CHECK_EQ(res, size > 1 ? MPI_UNEQUAL : MPI_IDENT);
    MPI_Group_excl(gw, size, all, &ge);
    MPI_Group_compare(ge, MPI_GROUP_EMPTY, &res);
    CHECK_EQ(res, MPI_IDENT);
    MPI_Group_size(ge, &res);
    CHECK_EQ(res, 0);
    int r = -5;
    MPI_Group_rank(gp, &r);
    CHECK_EQ(r, rank / 2);
    /* Translate the reversed group's ranks into the world's. */
    int back[2] = {-9, -9}, from[2] = {0, size - 1};
    MPI_Group_translate_ranks(gr, 2, from, gw, back);
    CHECK_EQ(back[0], size - 1);
    CHECK_EQ(back[1], 0);
    free(all);
    MPI_Group_free(&gw);
    MPI_Group_free(&gd);
    MPI_Group_free(&gr);
    MPI_Group_free(&gp);
    MPI_Group_free(&gi);
    MPI_Group_free(&ge);
    CHECK_EQ(gw, MPI_GROUP_NULL);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&reversed);
    MPI_Comm_free(&parity);
    MPI_Comm_free(&self_dup);
}

static void clocks(void)
{
    double tick = MPI_Wtick(), t0 = MPI_Wtime(), prev = t0;
    CHECK(tick > 0 && tick < 1);
    int backwards = 0;
    for (int i = 0; i < 1000; i++) {
        double t = MPI_Wtime();
        backwards += t < prev;
        prev = t;
    }
    CHECK_EQ(backwards, 0);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_Wtime() >= t0);
    int *global, found = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &global, &found);
    CHECK(found && (*global == 0 || *global == 1));
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_EQ(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN), MPI_SUCCESS);
    CHECK_EQ(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN), MPI_SUCCESS);
    argument_errors();
    collective_errors();
    truncation();
    user_handler();
    compare();
    clocks();
    MPI_Barrier(MPI_COMM_WORLD);
    int rc = check_finish("mu_errors");
    MPI_Finalize();
    return rc;
}
