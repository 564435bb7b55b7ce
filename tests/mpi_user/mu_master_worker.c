/* Master/worker, as task farms are written: rank 0 hands out tasks of varying length,
 * workers size each receive with MPI_Probe + MPI_Get_count, the master collects results
 * with MPI_ANY_SOURCE/MPI_ANY_TAG (the tag names the task), sizing them the same way, and
 * hands the sender its next task; a zero-byte message with the STOP tag ends a worker.
 * Needs 2 ranks or more. */
#include <stdlib.h>
#include <string.h>

#include "../mpi/mpi_check.h"

enum { TASKS = 40, STOP = 1000 };

/* Task t is t % 23 + 1 ints; its result is the prefix sums of the task's ints, then t. */
static int task_len(int t) { return t % 23 + 1 + (t % 5 == 0 ? 300 : 0); }
static int task_value(int t, int i) { return t * 31 + i; }

static void master(int size)
{
    int next = 0, done = 0, bad = 0;
    int *seen = calloc(TASKS, sizeof(int));
    int *buf = malloc(400 * sizeof(int));
    MPI_Request *pending = malloc((size_t)size * sizeof(MPI_Request));
    int *stop = calloc(1, sizeof(int));
    /* Prime every worker (workers beyond the task count get STOP at once). */
    for (int w = 1; w < size; w++) {
        if (next < TASKS) {
            int n = task_len(next);
            for (int i = 0; i < n; i++)
                buf[i] = task_value(next, i);
            MPI_Send(buf, n, MPI_INT, w, next, MPI_COMM_WORLD);
            next++;
        } else {
            MPI_Send(NULL, 0, MPI_INT, w, STOP, MPI_COMM_WORLD);
        }
    }
    while (done < TASKS) {
        MPI_Status st;
        CHECK_EQ(MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st), MPI_SUCCESS);
        int n = -1;
        MPI_Get_count(&st, MPI_INT, &n);
        int t = st.MPI_TAG, from = st.MPI_SOURCE;
        CHECK(t >= 0 && t < TASKS && from >= 1 && from < size);
        CHECK_EQ(n, task_len(t) + 1);
        int *res = malloc((size_t)n * sizeof(int));
        MPI_Status st2;
        MPI_Recv(res, n, MPI_INT, from, t, MPI_COMM_WORLD, &st2);
        CHECK_EQ(st2.MPI_SOURCE, from);
        CHECK_EQ(st2.MPI_TAG, t);
        int sum = 0;
        for (int i = 0; i < n - 1; i++) {
            sum += task_value(t, i);
            bad += res[i] != sum;
        }
        bad += res[n - 1] != t;
        free(res);
        seen[t]++;
        done++;
        if (next < TASKS) {
            int len = task_len(next);
            for (int i = 0; i < len; i++)
                buf[i] = task_value(next, i);
            MPI_Send(buf, len, MPI_INT, from, next, MPI_COMM_WORLD);
            next++;
        } else {
            MPI_Send(stop, 0, MPI_INT, from, STOP, MPI_COMM_WORLD);
        }
    }
    CHECK_EQ(bad, 0);
    int dup = 0;
    for (int t = 0; t < TASKS; t++)
        dup += seen[t] != 1;
    CHECK_EQ(dup, 0);
    free(seen);
    free(buf);
    free(pending);
    free(stop);
}

static int worker(void)
{
    int tasks = 0;
    for (;;) {
        MPI_Status st;
        MPI_Probe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        int n = -1;
        MPI_Get_count(&st, MPI_INT, &n);
        CHECK_EQ(st.MPI_SOURCE, 0);
        if (st.MPI_TAG == STOP) {
            CHECK_EQ(n, 0);
            MPI_Recv(NULL, 0, MPI_INT, 0, STOP, MPI_COMM_WORLD, &st);
            int c = -1;
            MPI_Get_count(&st, MPI_BYTE, &c);
            CHECK_EQ(c, 0);
            return tasks;
        }
        int *in = malloc((size_t)(n + 1) * sizeof(int));
        MPI_Recv(in, n, MPI_INT, 0, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 1; i < n; i++)
            in[i] += in[i - 1];
        in[n] = st.MPI_TAG;
        MPI_Send(in, n + 1, MPI_INT, 0, st.MPI_TAG, MPI_COMM_WORLD);
        free(in);
        tasks++;
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(size >= 2);
    int mine = 0, total = 0;
    if (size >= 2) {
        if (rank == 0)
            master(size);
        else
            mine = worker();
    }
    MPI_Reduce(&mine, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && size >= 2)
        CHECK_EQ(total, TASKS);
    int rc = check_finish("mu_master_worker");
    MPI_Finalize();
    return rc;
}
