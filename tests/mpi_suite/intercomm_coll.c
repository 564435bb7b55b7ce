/* Collectives on an intercommunicator (MPI 3.1 section 5.2.2): the rooted ones with MPI_ROOT
 * at the root, MPI_PROC_NULL at the rest of its group and the root's remote rank in the other
 * group (whose buffers they leave alone); the all-to-all ones give each group the other's
 * data. Every root position is tried, in both groups. */
#include <stdlib.h>
#include <string.h>

#include "inter.h"

enum { kUntouched = -77 };

struct view {
    const struct inter_groups *x;
    int me, other;         /* group numbers */
    int rank, remote_size;
    int world_size, interleaved;
};

/* The value member r of group g contributes. */
static int value_of(const struct view *v, int g, int r)
{
    return 1000 * (g + 1) + inter_world_rank(v->interleaved, v->world_size, g, r);
}

/* The root argument of my rank when rank `root` of group `g` is the root. */
static int root_arg(const struct view *v, int g, int root)
{
    if (g != v->me)
        return root;
    return v->rank == root ? MPI_ROOT : MPI_PROC_NULL;
}

static void bcast(const struct view *v, int g, int root)
{
    int arg = root_arg(v, g, root);
    int buf[3] = {kUntouched, kUntouched, kUntouched};
    if (arg == MPI_ROOT)
        for (int i = 0; i < 3; i++)
            buf[i] = value_of(v, g, root) + i;
    MPI_Bcast(buf, 3, MPI_INT, arg, v->x->inter);
    for (int i = 0; i < 3; i++) {
        int expect = arg == MPI_PROC_NULL ? kUntouched : value_of(v, g, root) + i;
        SUITE_CHECK(buf[i] == expect, "Bcast root %d of group %d: [%d] = %d, expected %d", root, g, i,
                    buf[i], expect);
    }
}

static void reduce(const struct view *v, int g, int root)
{
    int arg = root_arg(v, g, root);
    int in[2] = {value_of(v, v->me, v->rank), 1}, out[2] = {kUntouched, kUntouched};
    MPI_Reduce(in, out, 2, MPI_INT, MPI_SUM, arg, v->x->inter);
    if (arg == MPI_ROOT) {
        int sum = 0;
        for (int r = 0; r < v->remote_size; r++)
            sum += value_of(v, v->other, r);
        SUITE_CHECK(out[0] == sum && out[1] == v->remote_size, "Reduce at root: %d %d, expected %d %d",
                    out[0], out[1], sum, v->remote_size);
    } else {
        SUITE_CHECK(out[0] == kUntouched, "Reduce leaves a non-root's output alone");
    }
}

static void gather_scatter(const struct view *v, int g, int root)
{
    int arg = root_arg(v, g, root);
    int n = v->remote_size;
    int *many = malloc(sizeof(int) * 2 * n);
    for (int i = 0; i < 2 * n; i++)
        many[i] = kUntouched;
    int one[2] = {value_of(v, v->me, v->rank), v->rank};
    MPI_Gather(one, 2, MPI_INT, many, 2, MPI_INT, arg, v->x->inter);
    if (arg == MPI_ROOT)
        for (int j = 0; j < n; j++)
            SUITE_CHECK(many[2 * j] == value_of(v, v->other, j) && many[2 * j + 1] == j,
                        "Gather block %d: %d %d", j, many[2 * j], many[2 * j + 1]);

    /* Scatter: block j is for remote member j. */
    for (int j = 0; j < n; j++) {
        many[2 * j] = value_of(v, v->other, j) + 5;
        many[2 * j + 1] = j;
    }
    one[0] = one[1] = kUntouched;
    MPI_Scatter(many, 2, MPI_INT, one, 2, MPI_INT, arg, v->x->inter);
    if (arg != MPI_ROOT && arg != MPI_PROC_NULL)
        SUITE_CHECK(one[0] == value_of(v, v->me, v->rank) + 5 && one[1] == v->rank,
                    "Scatter from root %d of group %d: %d %d", root, g, one[0], one[1]);
    else
        SUITE_CHECK(one[0] == kUntouched, "Scatter leaves the root group's receive buffers alone");

    /* Gatherv: remote member j sends j + 1 elements, placed in reverse order of members. */
    int total = n * (n + 1) / 2;
    int *varied = malloc(sizeof(int) * (total > 0 ? total : 1));
    int *counts = malloc(sizeof(int) * n), *displs = malloc(sizeof(int) * n);
    for (int j = 0, at = total; j < n; j++) {
        counts[j] = j + 1;
        at -= j + 1;
        displs[j] = at;
    }
    int mine[64];
    int mine_count = v->rank + 1 < 64 ? v->rank + 1 : 64;
    for (int i = 0; i < mine_count; i++)
        mine[i] = value_of(v, v->me, v->rank) * 10 + i;
    MPI_Gatherv(mine, mine_count, MPI_INT, varied, counts, displs, MPI_INT, arg, v->x->inter);
    if (arg == MPI_ROOT)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < counts[j] && i < 64; i++)
                SUITE_CHECK(varied[displs[j] + i] == value_of(v, v->other, j) * 10 + i,
                            "Gatherv block %d element %d: %d", j, i, varied[displs[j] + i]);
    free(many);
    free(varied);
    free(counts);
    free(displs);
}

static void allreduce(const struct view *v)
{
    int in[2] = {value_of(v, v->me, v->rank), 1}, out[2] = {kUntouched, kUntouched};
    MPI_Allreduce(in, out, 2, MPI_INT, MPI_SUM, v->x->inter);
    int sum = 0;
    for (int r = 0; r < v->remote_size; r++)
        sum += value_of(v, v->other, r);
    SUITE_CHECK(out[0] == sum && out[1] == v->remote_size, "Allreduce: %d %d, expected the remote sum %d %d",
                out[0], out[1], sum, v->remote_size);
    double dmax = -1, dmine = value_of(v, v->me, v->rank);
    MPI_Allreduce(&dmine, &dmax, 1, MPI_DOUBLE, MPI_MAX, v->x->inter);
    int expect = value_of(v, v->other, v->remote_size - 1);
    SUITE_CHECK(dmax == expect, "Allreduce MPI_MAX: %g, expected %d", dmax, expect);
}

/* Reduce_scatter(_block): both groups reduce vectors of n0 * n1 elements; each member gets
 * its block of the other group's sum. Reduce_scatter's blocks: member 0 twice the share,
 * member 1 none (when there are two or more). */
static void reduce_scatter(const struct view *v)
{
    int n = v->x->size[v->me], share = v->remote_size, total = n * share;
    int *in = malloc(sizeof(int) * total), *out = malloc(sizeof(int) * 2 * share);
    int *counts = malloc(sizeof(int) * n);
    for (int e = 0; e < total; e++)
        in[e] = value_of(v, v->me, v->rank) + e;
    int sum = 0;
    for (int r = 0; r < v->remote_size; r++)
        sum += value_of(v, v->other, r);
    for (int i = 0; i < share; i++)
        out[i] = kUntouched;
    MPI_Reduce_scatter_block(in, out, share, MPI_INT, MPI_SUM, v->x->inter);
    for (int i = 0; i < share; i++) {
        int e = v->rank * share + i;
        SUITE_CHECK(out[i] == sum + v->remote_size * e, "Reduce_scatter_block element %d: %d", e, out[i]);
    }
    int first = 0;
    for (int r = 0; r < n; r++) {
        counts[r] = n < 2 ? share : r == 0 ? 2 * share : r == 1 ? 0 : share;
        if (r < v->rank)
            first += counts[r];
    }
    for (int i = 0; i < 2 * share; i++)
        out[i] = kUntouched;
    MPI_Reduce_scatter(in, out, counts, MPI_INT, MPI_SUM, v->x->inter);
    for (int i = 0; i < 2 * share; i++) {
        int expect = i < counts[v->rank] ? sum + v->remote_size * (first + i) : kUntouched;
        SUITE_CHECK(out[i] == expect, "Reduce_scatter element %d: %d, expected %d", first + i, out[i], expect);
    }
    free(in);
    free(out);
    free(counts);
}

static void allgather_alltoall(const struct view *v)
{
    int n = v->remote_size;
    int *all = malloc(sizeof(int) * 2 * n);
    int one[2] = {value_of(v, v->me, v->rank), v->rank};
    MPI_Allgather(one, 2, MPI_INT, all, 2, MPI_INT, v->x->inter);
    for (int j = 0; j < n; j++)
        SUITE_CHECK(all[2 * j] == value_of(v, v->other, j) && all[2 * j + 1] == j,
                    "Allgather block %d: %d %d", j, all[2 * j], all[2 * j + 1]);

    /* Alltoall: block j goes to remote member j and says who sent it to whom. */
    int *out = malloc(sizeof(int) * 2 * n);
    for (int j = 0; j < n; j++) {
        out[2 * j] = value_of(v, v->me, v->rank);
        out[2 * j + 1] = j;
    }
    MPI_Alltoall(out, 2, MPI_INT, all, 2, MPI_INT, v->x->inter);
    for (int j = 0; j < n; j++)
        SUITE_CHECK(all[2 * j] == value_of(v, v->other, j) && all[2 * j + 1] == v->rank,
                    "Alltoall block from %d: %d %d", j, all[2 * j], all[2 * j + 1]);

    /* Alltoallv: remote member j gets (my rank + j) % 3 elements. */
    int *scounts = malloc(sizeof(int) * n), *sdispls = malloc(sizeof(int) * n);
    int *rcounts = malloc(sizeof(int) * n), *rdispls = malloc(sizeof(int) * n);
    int *sbuf = malloc(sizeof(int) * 3 * n), *rbuf = malloc(sizeof(int) * 3 * n);
    for (int j = 0; j < n; j++) {
        scounts[j] = (v->rank + j) % 3;
        rcounts[j] = (j + v->rank) % 3;
        sdispls[j] = rdispls[j] = 3 * j;
        for (int i = 0; i < 3; i++) {
            sbuf[3 * j + i] = value_of(v, v->me, v->rank) * 10 + i;
            rbuf[3 * j + i] = kUntouched;
        }
    }
    MPI_Alltoallv(sbuf, scounts, sdispls, MPI_INT, rbuf, rcounts, rdispls, MPI_INT, v->x->inter);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < 3; i++) {
            int expect = i < rcounts[j] ? value_of(v, v->other, j) * 10 + i : kUntouched;
            SUITE_CHECK(rbuf[3 * j + i] == expect, "Alltoallv from %d element %d: %d, expected %d", j, i,
                        rbuf[3 * j + i], expect);
        }
    free(all);
    free(out);
    free(scounts);
    free(sdispls);
    free(rcounts);
    free(rdispls);
    free(sbuf);
    free(rbuf);
}

/* Payloads far above a mailbox message (the rendezvous protocol): Bcast from group 0's
 * leader, Allreduce, Alltoall. */
static void large(const struct view *v)
{
    enum { kCount = 3000, kBlock = 600 };
    int *buf = malloc(sizeof(int) * kCount);
    int arg = root_arg(v, 0, 0);
    for (int i = 0; i < kCount; i++)
        buf[i] = arg == MPI_ROOT ? i * 3 + 1 : kUntouched;
    MPI_Bcast(buf, kCount, MPI_INT, arg, v->x->inter);
    int wrong = 0;
    for (int i = 0; i < kCount; i++)
        wrong += buf[i] != (arg == MPI_PROC_NULL ? kUntouched : i * 3 + 1);
    SUITE_CHECK(wrong == 0, "large Bcast: %d wrong elements", wrong);

    double *in = malloc(sizeof(double) * kCount), *out = malloc(sizeof(double) * kCount);
    for (int i = 0; i < kCount; i++)
        in[i] = value_of(v, v->me, v->rank) + i;
    MPI_Allreduce(in, out, kCount, MPI_DOUBLE, MPI_SUM, v->x->inter);
    double sum = 0;
    for (int r = 0; r < v->remote_size; r++)
        sum += value_of(v, v->other, r);
    wrong = 0;
    for (int i = 0; i < kCount; i++)
        wrong += out[i] != sum + (double)v->remote_size * i;
    SUITE_CHECK(wrong == 0, "large Allreduce: %d wrong elements", wrong);

    int n = v->remote_size;
    int *send = malloc(sizeof(int) * kBlock * n), *recv = malloc(sizeof(int) * kBlock * n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < kBlock; i++)
            send[j * kBlock + i] = value_of(v, v->me, v->rank) * 7 + j * kBlock + i;
    MPI_Alltoall(send, kBlock, MPI_INT, recv, kBlock, MPI_INT, v->x->inter);
    wrong = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < kBlock; i++)
            wrong += recv[j * kBlock + i] != value_of(v, v->other, j) * 7 + v->rank * kBlock + i;
    SUITE_CHECK(wrong == 0, "large Alltoall: %d wrong elements", wrong);
    free(buf);
    free(in);
    free(out);
    free(send);
    free(recv);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    for (int interleaved = 0; interleaved < 2; interleaved++) {
        struct inter_groups x = inter_make(interleaved, 30);
        struct view v = {&x, x.group, 1 - x.group, 0, 0, 0, interleaved};
        MPI_Comm_rank(x.inter, &v.rank);
        MPI_Comm_remote_size(x.inter, &v.remote_size);
        MPI_Comm_size(MPI_COMM_WORLD, &v.world_size);
        MPI_Barrier(x.inter);
        for (int g = 0; g < 2; g++)
            for (int root = 0; root < x.size[g]; root++) {
                bcast(&v, g, root);
                reduce(&v, g, root);
                gather_scatter(&v, g, root);
            }
        allreduce(&v);
        reduce_scatter(&v);
        large(&v);
        allgather_alltoall(&v);
        MPI_Barrier(x.inter);
        inter_free(&x);
    }
    return suite_finalize();
}
