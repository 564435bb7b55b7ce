/* Nonblocking collectives overlapping each other and point-to-point traffic: several
 * outstanding on MPI_COMM_WORLD, a duplicate and a split at once, completed in different
 * orders (Waitany, Testall then Waitall, Waitall), a point-to-point ring that only completes
 * while the collectives are pending, a blocking collective while nonblocking ones are
 * pending, and MPI_Request_free on an active collective (it finishes in the background). */
#include <stdlib.h>

#include "nbc.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm dup, half;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half); /* reversed order in each half */
    int hrank, hn;
    MPI_Comm_rank(half, &hrank);
    MPI_Comm_size(half, &hn);

    int right = (rank + 1) % n, left = (rank + n - 1) % n;
    for (int round = 0; round < 3; round++) {
        int sum_world = 0, sum_dup = 0, max_half = -1, bval = rank == 0 ? 42 + round : -1;
        int one = rank + round, token = -1, out = rank * 7 + round;
        MPI_Request reqs[6];
        MPI_Irecv(&token, 1, MPI_INT, left, round, MPI_COMM_WORLD, &reqs[0]);
        MPI_Iallreduce(&one, &sum_world, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[1]);
        MPI_Iallreduce(&one, &max_half, 1, MPI_INT, MPI_MAX, half, &reqs[2]);
        MPI_Ibcast(&bval, 1, MPI_INT, 0, MPI_COMM_WORLD, &reqs[3]);
        MPI_Iallreduce(&one, &sum_dup, 1, MPI_INT, MPI_SUM, dup, &reqs[4]);
        MPI_Isend(&out, 1, MPI_INT, right, round, MPI_COMM_WORLD, &reqs[5]);
        if (round == 0) {
            /* Completion in any order. */
            for (int k = 0; k < 6; k++) {
                int index;
                MPI_Waitany(6, reqs, &index, MPI_STATUS_IGNORE);
                SUITE_CHECK(index != MPI_UNDEFINED, "Waitany found nothing at %d", k);
            }
        } else if (round == 1) {
            /* A blocking collective on another communicator first. */
            int b = 1, c = 0;
            MPI_Allreduce(&b, &c, 1, MPI_INT, MPI_SUM, dup);
            SUITE_CHECK(c == n, "blocking Allreduce among pending ones gave %d", c);
            /* One Testall (a loop of them would spin the hart), then Waitall. */
            int flag = 0;
            MPI_Testall(6, reqs, &flag, MPI_STATUSES_IGNORE);
            if (!flag)
                MPI_Waitall(6, reqs, MPI_STATUSES_IGNORE);
        } else {
            MPI_Waitall(6, reqs, MPI_STATUSES_IGNORE);
        }
        int expect_sum = n * (n - 1) / 2 + n * round, expect_max = -1;
        for (int r = rank % 2; r < n; r += 2)
            expect_max = r + round > expect_max ? r + round : expect_max;
        SUITE_CHECK(sum_world == expect_sum && sum_dup == expect_sum,
                    "round %d: sums %d and %d, expected %d", round, sum_world, sum_dup, expect_sum);
        SUITE_CHECK(max_half == expect_max, "round %d: half max %d, expected %d", round, max_half,
                    expect_max);
        SUITE_CHECK(bval == 42 + round, "round %d: broadcast %d", round, bval);
        SUITE_CHECK(token == left * 7 + round, "round %d: ring token %d from %d", round, token, left);
    }

    /* A freed collective finishes in the background: the barrier after it cannot pass
     * before every rank entered it, and the data arrives. */
    int bval = rank == 0 ? 99 : -1;
    MPI_Request req;
    MPI_Ibcast(&bval, 1, MPI_INT, 0, dup, &req);
    MPI_Request_free(&req);
    SUITE_CHECK(req == MPI_REQUEST_NULL, "MPI_Request_free left the handle");
    MPI_Barrier(dup);
    int again = 0;
    MPI_Allreduce(&bval, &again, 1, MPI_INT, MPI_MIN, dup);
    SUITE_CHECK(again == 99, "the freed Ibcast delivered %d", again);

    /* Many outstanding barriers on the same communicator. */
    enum { kMany = 16 };
    MPI_Request many[kMany];
    for (int i = 0; i < kMany; i++)
        MPI_Ibarrier(i % 2 ? dup : half, &many[i]);
    MPI_Waitall(kMany, many, MPI_STATUSES_IGNORE);

    MPI_Comm_free(&dup);
    MPI_Comm_free(&half);
    return suite_finalize();
}
