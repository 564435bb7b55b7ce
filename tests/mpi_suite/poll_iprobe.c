/* Polling with MPI_Iprobe (MPI 3.1 section 3.8.1): a loop of Iprobe ends once a message is
 * there, with wildcards (any source, any tag) and for one source and tag while other
 * messages wait unmatched; then MPI_Recv takes what the probe reported. */
#include "poll.h"

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
        MPI_Status st;
        while (!flag)
            MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        poll_receive_checked(rank, &st, 10);
    }
    poll_end_sends(&s);

    /* One source and tag at a time, the largest first: the others stay unexpected. */
    poll_start_sends(&s, 20);
    for (int d = 1; d < size; d++)
        for (int k = POLL_KINDS - 1; k >= 0; k--) {
            const int source = (rank + size - d) % size;
            int flag = 0;
            MPI_Status st;
            while (!flag)
                MPI_Iprobe(source, 20 + k, MPI_COMM_WORLD, &flag, &st);
            SUITE_CHECK(st.MPI_SOURCE == source, "probe for rank %d reported rank %d", source, st.MPI_SOURCE);
            poll_receive_checked(rank, &st, 20);
        }
    poll_end_sends(&s);
    return suite_finalize();
}
