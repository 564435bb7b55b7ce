/* Polling receives (MPI 3.1 section 3.7.5): loops of MPI_Test, MPI_Testany, MPI_Testall and
 * MPI_Testsome end once the messages arrive, and each receive gets its own message. */
#include "poll.h"

enum { TEST, TESTANY, TESTALL, TESTSOME, WAYS };
static const char *const way_name[WAYS] = {"Test", "Testany", "Testall", "Testsome"};

static void poll_round(int rank, int size, int way)
{
    const int base = 10 * (way + 1), n = (size - 1) * POLL_KINDS;
    struct poll_sends s;
    MPI_Request req[POLL_KINDS * 64];
    int *buf[POLL_KINDS * 64], from[POLL_KINDS * 64], kind[POLL_KINDS * 64];
    for (int i = 0; i < n; i++) {
        from[i] = (rank + size - 1 - i / POLL_KINDS) % size;
        kind[i] = i % POLL_KINDS;
        buf[i] = malloc(sizeof(int) * poll_sizes[kind[i]]);
        MPI_Irecv(buf[i], poll_sizes[kind[i]], MPI_INT, from[i], base + kind[i], MPI_COMM_WORLD, &req[i]);
    }
    poll_start_sends(&s, base);
    int done = 0, flag = 0, index, outcount, indices[POLL_KINDS * 64];
    switch (way) {
    case TEST:
        for (int i = 0; i < n; i++, done++)
            for (flag = 0; !flag;)
                MPI_Test(&req[i], &flag, MPI_STATUS_IGNORE);
        break;
    case TESTANY:
        while (done < n) {
            MPI_Testany(n, req, &index, &flag, MPI_STATUS_IGNORE);
            if (flag)
                done++;
        }
        break;
    case TESTALL:
        while (!flag)
            MPI_Testall(n, req, &flag, MPI_STATUSES_IGNORE);
        done = n;
        break;
    case TESTSOME:
        while (done < n) {
            MPI_Testsome(n, req, &outcount, indices, MPI_STATUSES_IGNORE);
            SUITE_CHECK(outcount != MPI_UNDEFINED, "Testsome found no active request after %d of %d", done, n);
            if (outcount == MPI_UNDEFINED)
                break;
            done += outcount;
        }
        break;
    }
    SUITE_CHECK(done == n, "%s completed %d of %d receives", way_name[way], done, n);
    for (int i = 0; i < n; i++) {
        SUITE_CHECK(req[i] == MPI_REQUEST_NULL, "%s left receive %d active", way_name[way], i);
        SUITE_CHECK(poll_matches(buf[i], from[i], rank, kind[i]), "%s: wrong data from rank %d, kind %d",
                    way_name[way], from[i], kind[i]);
        free(buf[i]);
    }
    poll_end_sends(&s);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int way = 0; way < WAYS; way++)
        poll_round(rank, size, way);
    return suite_finalize();
}
