/* Communicators: size/rank, dup (congruent, separate traffic), split (key order, undefined
 * color), split_type SHARED (the ranks of one cluster), create from a group, compare, group,
 * names, free and context-id reuse. */
#include <stdlib.h>
#include <string.h>

#include "mpi_check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* A duplicate: congruent, and its messages never match the world's. */
    MPI_Comm dup;
    CHECK_EQ(MPI_Comm_dup(MPI_COMM_WORLD, &dup), MPI_SUCCESS);
    int result = -1;
    MPI_Comm_compare(MPI_COMM_WORLD, dup, &result);
    CHECK_EQ(result, MPI_CONGRUENT);
    MPI_Comm_compare(dup, dup, &result);
    CHECK_EQ(result, MPI_IDENT);
    int right = (rank + 1) % size, left = (rank + size - 1) % size, a = rank, b = -rank, v = 0;
    MPI_Request r[2];
    MPI_Isend(&a, 1, MPI_INT, right, 0, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(&b, 1, MPI_INT, right, 0, dup, &r[1]);
    MPI_Recv(&v, 1, MPI_INT, left, 0, dup, MPI_STATUS_IGNORE);
    CHECK_EQ(v, -left);
    MPI_Recv(&v, 1, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK_EQ(v, left);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);

    /* Split: thirds, reverse key order; the last rank stays out. */
    int color = rank == size - 1 ? MPI_UNDEFINED : rank % 3;
    MPI_Comm third;
    CHECK_EQ(MPI_Comm_split(MPI_COMM_WORLD, color, -rank, &third), MPI_SUCCESS);
    if (color == MPI_UNDEFINED) {
        CHECK(third == MPI_COMM_NULL);
    } else {
        int n = 0, higher = 0;
        for (int q = 0; q < size - 1; q++)
            if (q % 3 == color) {
                n++;
                higher += q > rank;
            }
        int me, sz;
        MPI_Comm_rank(third, &me);
        MPI_Comm_size(third, &sz);
        CHECK_EQ(sz, n);
        CHECK_EQ(me, higher);
        int sum = 0, want = 0;
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, third);
        for (int q = color; q < size - 1; q += 3)
            want += q;
        CHECK_EQ(sum, want);
        MPI_Comm_compare(MPI_COMM_WORLD, third, &result);
        CHECK_EQ(result, size == 1 ? MPI_CONGRUENT : MPI_UNEQUAL);
        MPI_Comm_free(&third);
        CHECK(third == MPI_COMM_NULL);
    }

    /* Split by cluster: every member is on my cluster (its processor name says which). */
    MPI_Comm node;
    CHECK_EQ(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node), MPI_SUCCESS);
    char name[MPI_MAX_PROCESSOR_NAME], theirs[MPI_MAX_PROCESSOR_NAME];
    int len, node_size, node_rank;
    MPI_Get_processor_name(name, &len);
    char *pe = strstr(name, "-pe");
    if (pe)
        *pe = '\0'; /* "nvx-clusterC" */
    MPI_Comm_size(node, &node_size);
    MPI_Comm_rank(node, &node_rank);
    for (int q = 0; q < node_size; q++) {
        memcpy(theirs, name, sizeof name);
        MPI_Bcast(theirs, sizeof theirs, MPI_CHAR, q, node);
        CHECK(strcmp(theirs, name) == 0);
    }
    /* The clusters' communicators partition the world. */
    int mine = node_rank == 0 ? node_size : 0, covered = 0;
    MPI_Allreduce(&mine, &covered, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK_EQ(covered, size);
    MPI_Comm_free(&node);

    /* Create from a group: the even ranks in reverse order. */
    MPI_Group world, evens;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int *ranks = malloc(size * sizeof(int)), ne = 0;
    for (int q = (size - 1) / 2 * 2; q >= 0; q -= 2)
        ranks[ne++] = q;
    MPI_Group_incl(world, ne, ranks, &evens);
    MPI_Comm ec;
    CHECK_EQ(MPI_Comm_create(MPI_COMM_WORLD, evens, &ec), MPI_SUCCESS);
    if (rank % 2) {
        CHECK(ec == MPI_COMM_NULL);
    } else {
        int me;
        MPI_Comm_rank(ec, &me);
        CHECK_EQ(me, ((size - 1) / 2 * 2 - rank) / 2);
        MPI_Group g;
        MPI_Comm_group(ec, &g);
        MPI_Group_compare(g, evens, &result);
        CHECK_EQ(result, MPI_IDENT);
        MPI_Group_free(&g);
        int token = me == 0 ? 4242 : 0;
        MPI_Bcast(&token, 1, MPI_INT, 0, ec);
        CHECK_EQ(token, 4242);
        MPI_Comm_set_name(ec, "evens");
        char nm[MPI_MAX_OBJECT_NAME];
        MPI_Comm_get_name(ec, nm, &len);
        CHECK(strcmp(nm, "evens") == 0);
        MPI_Comm_free(&ec);
    }
    MPI_Group_free(&evens);
    MPI_Group_free(&world);
    free(ranks);

    /* Context ids are reused: many more dups than ids in flight at once. */
    int ok = 1;
    for (int i = 0; i < 300 && ok; i++) {
        MPI_Comm c;
        ok = MPI_Comm_dup(dup, &c) == MPI_SUCCESS && MPI_Comm_free(&c) == MPI_SUCCESS;
    }
    CHECK(ok);
    MPI_Comm_free(&dup);

    int self_size;
    MPI_Comm_size(MPI_COMM_SELF, &self_size);
    CHECK_EQ(self_size, 1);
    int status = mpi_check_finish("mpi_comm");
    MPI_Finalize();
    return status;
}
