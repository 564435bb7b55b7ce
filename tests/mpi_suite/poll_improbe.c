/* Polling with MPI_Improbe (MPI 3.1 section 3.8.2): a loop of Improbe ends once a message is
 * there, with wildcards and for one source and tag while other messages wait unmatched;
 * MPI_Mrecv receives exactly the matched message. */
#include "poll.h"

static void receive_matched(int rank, MPI_Message *msg, const MPI_Status *st, int base)
{
    const int kind = st->MPI_TAG - base;
    SUITE_CHECK(kind >= 0 && kind < POLL_KINDS, "matched tag %d", st->MPI_TAG);
    if (kind < 0 || kind >= POLL_KINDS)
        return;
    int *v = malloc(sizeof(int) * poll_sizes[kind]);
    MPI_Status rst;
    MPI_Mrecv(v, poll_sizes[kind], MPI_INT, msg, &rst);
    SUITE_CHECK(*msg == MPI_MESSAGE_NULL, "Mrecv left the message handle set");
    SUITE_CHECK(rst.MPI_SOURCE == st->MPI_SOURCE && rst.MPI_TAG == st->MPI_TAG, "Mrecv status differs from the probe's");
    SUITE_CHECK(poll_matches(v, st->MPI_SOURCE, rank, kind), "wrong data from rank %d, kind %d", st->MPI_SOURCE, kind);
    free(v);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    struct poll_sends s;

    poll_start_sends(&s, 10);
    for (int got = 0; got < (size - 1) * POLL_KINDS; got++) {
        int flag = 0;
        MPI_Message msg = MPI_MESSAGE_NULL;
        MPI_Status st;
        while (!flag)
            MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &st);
        receive_matched(rank, &msg, &st, 10);
    }
    poll_end_sends(&s);

    poll_start_sends(&s, 20);
    for (int d = 1; d < size; d++)
        for (int k = POLL_KINDS - 1; k >= 0; k--) {
            const int source = (rank + size - d) % size;
            int flag = 0;
            MPI_Message msg = MPI_MESSAGE_NULL;
            MPI_Status st;
            while (!flag)
                MPI_Improbe(source, 20 + k, MPI_COMM_WORLD, &flag, &msg, &st);
            SUITE_CHECK(st.MPI_SOURCE == source && st.MPI_TAG == 20 + k, "matched (%d, %d), expected (%d, %d)",
                        st.MPI_SOURCE, st.MPI_TAG, source, 20 + k);
            receive_matched(rank, &msg, &st, 20);
        }
    poll_end_sends(&s);
    return suite_finalize();
}
