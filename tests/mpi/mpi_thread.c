/* MPI_THREAD_SERIALIZED: each rank starts a helper thread that makes MPI calls on the rank's
 * behalf (point-to-point, a wait on a request the main thread posted, collectives, a new
 * communicator) while the rank's main thread waits in join; a thread the helper starts
 * belongs to the rank too. Is_thread_main is true only on the rank's own thread. The check
 * counters are per thread, so the helpers record what they saw and the main thread checks. */
#include <nvx/thread.h>
#include <string.h>

#include "mpi_check.h"

struct seen {
    MPI_Request posted;  /* an Irecv of the main thread, completed by the helper */
    int is_main;         /* MPI_Is_thread_main on the helper */
    int rank, size;      /* MPI_Comm_rank / size on the helper */
    int ring_in;         /* Sendrecv from the left neighbour */
    int waited;          /* what the main thread's Irecv got */
    int sum;             /* Allreduce of the ranks */
    int bcast;           /* Bcast from the last rank */
    int gathered_ok;     /* Allgather of rank * 3 came out right */
    MPI_Comm dup;        /* created by the helper, used and freed by the main thread */
    int grandchild_rank, grandchild_is_main;
    int errors;          /* calls that did not return MPI_SUCCESS */
};

static void *grandchild(void *arg)
{
    struct seen *s = arg;
    s->errors += MPI_Comm_rank(MPI_COMM_WORLD, &s->grandchild_rank) != MPI_SUCCESS;
    s->errors += MPI_Is_thread_main(&s->grandchild_is_main) != MPI_SUCCESS;
    return NULL;
}

static void *helper(void *arg)
{
    struct seen *s = arg;
    s->errors += MPI_Is_thread_main(&s->is_main) != MPI_SUCCESS;
    s->errors += MPI_Comm_rank(MPI_COMM_WORLD, &s->rank) != MPI_SUCCESS;
    s->errors += MPI_Comm_size(MPI_COMM_WORLD, &s->size) != MPI_SUCCESS;
    int right = (s->rank + 1) % s->size, left = (s->rank + s->size - 1) % s->size;

    int out = 100 + s->rank;
    s->errors += MPI_Sendrecv(&out, 1, MPI_INT, right, 1, &s->ring_in, 1, MPI_INT, left, 1,
                              MPI_COMM_WORLD, MPI_STATUS_IGNORE) != MPI_SUCCESS;
    int to_main = 200 + s->rank;
    s->errors += MPI_Send(&to_main, 1, MPI_INT, right, 7, MPI_COMM_WORLD) != MPI_SUCCESS;
    MPI_Status st;
    s->errors += MPI_Wait(&s->posted, &st) != MPI_SUCCESS;
    s->errors += st.MPI_SOURCE != left || st.MPI_TAG != 7;

    s->errors += MPI_Allreduce(&s->rank, &s->sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD) != MPI_SUCCESS;
    s->bcast = s->rank == s->size - 1 ? 4242 : -1;
    s->errors += MPI_Bcast(&s->bcast, 1, MPI_INT, s->size - 1, MPI_COMM_WORLD) != MPI_SUCCESS;
    int all[64];
    int mine = s->rank * 3, n = s->size < 64 ? s->size : 64;
    s->errors += MPI_Allgather(&mine, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD) != MPI_SUCCESS;
    s->gathered_ok = 1;
    for (int i = 0; i < n; i++)
        s->gathered_ok &= all[i] == i * 3;
    s->errors += MPI_Comm_dup(MPI_COMM_WORLD, &s->dup) != MPI_SUCCESS;
    s->errors += MPI_Barrier(s->dup) != MPI_SUCCESS;

    nvx_thread_t t;
    s->grandchild_rank = -1;
    s->grandchild_is_main = -1;
    if (nvx_thread_create(&t, NULL, grandchild, s) != 0 || nvx_thread_join(t, NULL) != 0)
        s->errors++;
    return NULL;
}

int main(int argc, char **argv)
{
    int provided = -1, flag = -1;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
    CHECK_EQ(provided, MPI_THREAD_SERIALIZED);
    int q = -1;
    MPI_Query_thread(&q);
    CHECK_EQ(q, MPI_THREAD_SERIALIZED);
    MPI_Is_thread_main(&flag);
    CHECK_EQ(flag, 1);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int left = (rank + size - 1) % size;

    struct seen s;
    memset(&s, 0, sizeof s);
    s.is_main = -1;
    s.ring_in = s.waited = s.sum = -1;
    CHECK_EQ(MPI_Irecv(&s.waited, 1, MPI_INT, left, 7, MPI_COMM_WORLD, &s.posted), MPI_SUCCESS);
    nvx_thread_t t;
    CHECK_EQ(nvx_thread_create(&t, NULL, helper, &s), 0);
    CHECK_EQ(nvx_thread_join(t, NULL), 0);  /* the main thread makes no MPI call meanwhile */

    CHECK_EQ(s.errors, 0);
    CHECK_EQ(s.is_main, 0);
    CHECK_EQ(s.rank, rank);
    CHECK_EQ(s.size, size);
    CHECK_EQ(s.ring_in, 100 + left);
    CHECK_EQ(s.waited, 200 + left);
    CHECK(s.posted == MPI_REQUEST_NULL);
    CHECK_EQ(s.sum, size * (size - 1) / 2);
    CHECK_EQ(s.bcast, 4242);
    CHECK_EQ(s.gathered_ok, 1);
    CHECK_EQ(s.grandchild_rank, rank);
    CHECK_EQ(s.grandchild_is_main, 0);

    /* Back on the main thread: the helper's communicator is the rank's. */
    MPI_Is_thread_main(&flag);
    CHECK_EQ(flag, 1);
    CHECK(s.dup != MPI_COMM_NULL);
    int result = -1, sum = -1;
    MPI_Comm_compare(MPI_COMM_WORLD, s.dup, &result);
    CHECK_EQ(result, MPI_CONGRUENT);
    CHECK_EQ(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, s.dup), MPI_SUCCESS);
    CHECK_EQ(sum, size * (size - 1) / 2);
    CHECK_EQ(MPI_Comm_free(&s.dup), MPI_SUCCESS);

    int status = check_finish("mpi_thread");
    MPI_Finalize();
    return status;
}
