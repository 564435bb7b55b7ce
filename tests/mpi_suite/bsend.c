/* Buffered mode (MPI 3.1 sections 3.4, 3.6): MPI_Bsend, MPI_Ibsend and MPI_Bsend_init copy
 * into the attached buffer and complete at once; a buffer of the standard's size (packed
 * size + MPI_BSEND_OVERHEAD per pending message) holds exactly that many pending messages
 * (large ones stay pending until received); detach waits for delivery and returns the
 * buffer; the error classes of misuse. */
#include <stdlib.h>
#include <string.h>

#include "suite.h"

enum { SMALL = 4, LARGE = 3000, PENDING = 3 }; /* LARGE: no eager or local cell holds it */

/* Every rank sends PENDING large messages to the right before the left receives any: the
 * buffer must hold them all, and one more does not fit. */
static void pending_messages(int rank, int size)
{
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int pack = 0;
    MPI_Pack_size(LARGE, MPI_INT, MPI_COMM_WORLD, &pack);
    const int bytes = PENDING * (pack + MPI_BSEND_OVERHEAD);
    char *buffer = malloc(bytes);
    int *out = malloc(sizeof(int) * LARGE), *in = malloc(sizeof(int) * LARGE);
    MPI_Buffer_attach(buffer, bytes);
    for (int k = 0; k < PENDING; k++) {
        suite_fill(out, LARGE, rank * 10 + k);
        int err = MPI_Bsend(out, LARGE, MPI_INT, right, k, MPI_COMM_WORLD);
        SUITE_CHECK(err == MPI_SUCCESS, "Bsend %d of %d returned %d", k, PENDING, err);
    }
    suite_fill(out, LARGE, 99); /* the copies went out: the program may reuse its buffer */
    int err = MPI_Bsend(out, LARGE, MPI_INT, right, 77, MPI_COMM_WORLD);
    SUITE_CHECK(err == MPI_ERR_BUFFER, "Bsend past the buffer's room returned %d", err);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int k = PENDING - 1; k >= 0; k--) { /* any order: tags tell them apart */
        MPI_Status st;
        MPI_Recv(in, LARGE, MPI_INT, left, k, MPI_COMM_WORLD, &st);
        SUITE_CHECK(suite_filled(in, LARGE, left * 10 + k), "message %d from %d corrupted", k, left);
        SUITE_CHECK(st.MPI_SOURCE == left && st.MPI_TAG == k, "status %d/%d", st.MPI_SOURCE, st.MPI_TAG);
    }
    void *back = NULL;
    int back_size = -1;
    MPI_Buffer_detach(&back, &back_size);
    SUITE_CHECK(back == buffer && back_size == bytes, "detach gave %p/%d, attached %p/%d", back,
                back_size, (void *)buffer, bytes);
    free(buffer);
    free(out);
    free(in);
}

/* Small messages through every buffered call, the buffer reused many times over. */
static void every_call(int rank, int size)
{
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    const int bytes = 2 * (SMALL * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
    char *buffer = malloc(bytes);
    MPI_Buffer_attach(buffer, bytes);
    int out[SMALL], in[SMALL];
    for (int round = 0; round < 20; round++) {
        suite_fill(out, SMALL, rank + round);
        MPI_Request req;
        MPI_Status st;
        if (round % 2 == 0) {
            MPI_Bsend(out, SMALL, MPI_INT, right, round, MPI_COMM_WORLD);
        } else {
            MPI_Ibsend(out, SMALL, MPI_INT, right, round, MPI_COMM_WORLD, &req);
            MPI_Wait(&req, &st);
            SUITE_CHECK(req == MPI_REQUEST_NULL, "Ibsend request not freed");
        }
        MPI_Recv(in, SMALL, MPI_INT, left, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        SUITE_CHECK(suite_filled(in, SMALL, left + round), "round %d: wrong data", round);
    }
    /* Persistent: each Start buffers the data as it is then. */
    MPI_Request persistent;
    MPI_Bsend_init(out, SMALL, MPI_INT, right, 500, MPI_COMM_WORLD, &persistent);
    for (int round = 0; round < 5; round++) {
        suite_fill(out, SMALL, 1000 + rank + round);
        MPI_Start(&persistent);
        int flag = 0;
        MPI_Test(&persistent, &flag, MPI_STATUS_IGNORE);
        SUITE_CHECK(flag, "a started buffered send is complete at once");
        if (!flag)
            MPI_Wait(&persistent, MPI_STATUS_IGNORE);
        MPI_Recv(in, SMALL, MPI_INT, left, 500, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        SUITE_CHECK(suite_filled(in, SMALL, 1000 + left + round), "persistent round %d", round);
    }
    MPI_Request_free(&persistent);
    /* A derived, non-contiguous type is packed into the buffer. */
    int grid[2 * SMALL], got[SMALL];
    for (int i = 0; i < 2 * SMALL; i++)
        grid[i] = rank * 1000 + i;
    MPI_Datatype every_other;
    MPI_Type_vector(SMALL, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    MPI_Bsend(grid, 1, every_other, right, 600, MPI_COMM_WORLD);
    MPI_Type_free(&every_other);
    MPI_Recv(got, SMALL, MPI_INT, left, 600, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < SMALL; i++)
        SUITE_CHECK(got[i] == left * 1000 + 2 * i, "vector element %d: %d", i, got[i]);
    void *back;
    int back_size;
    MPI_Buffer_detach(&back, &back_size);
    SUITE_CHECK(back == buffer && back_size == bytes, "detach after small sends");
    free(buffer);
}

static void errors(int rank, int size)
{
    const int right = (rank + 1) % size;
    int v = rank, err;
    void *back = (void *)&v;
    int back_size = -1;
    err = MPI_Buffer_detach(&back, &back_size);
    SUITE_CHECK(err == MPI_SUCCESS && back == NULL && back_size == 0,
                "detach with none attached: %d %p %d", err, back, back_size);
    err = MPI_Bsend(&v, 1, MPI_INT, right, 1, MPI_COMM_WORLD);
    SUITE_CHECK(err == MPI_ERR_BUFFER, "Bsend without a buffer returned %d", err);
    MPI_Request req = MPI_REQUEST_NULL;
    err = MPI_Ibsend(&v, 1, MPI_INT, right, 1, MPI_COMM_WORLD, &req);
    SUITE_CHECK(err == MPI_ERR_BUFFER && req == MPI_REQUEST_NULL, "Ibsend without a buffer: %d", err);
    err = MPI_Bsend(&v, 1, MPI_INT, MPI_PROC_NULL, 1, MPI_COMM_WORLD);
    SUITE_CHECK(err == MPI_SUCCESS, "Bsend to MPI_PROC_NULL needs no buffer: %d", err);
    err = MPI_Bsend(&v, 1, MPI_INT, size, 1, MPI_COMM_WORLD);
    SUITE_CHECK(err == MPI_ERR_RANK, "Bsend to rank %d returned %d", size, err);
    err = MPI_Bsend(&v, -1, MPI_INT, right, 1, MPI_COMM_WORLD);
    SUITE_CHECK(err == MPI_ERR_COUNT, "Bsend of count -1 returned %d", err);
    err = MPI_Bsend(&v, 1, MPI_INT, right, -5, MPI_COMM_WORLD);
    SUITE_CHECK(err == MPI_ERR_TAG, "Bsend with tag -5 returned %d", err);
    char small[MPI_BSEND_OVERHEAD + 8];
    err = MPI_Buffer_attach(small, -1);
    SUITE_CHECK(err == MPI_ERR_ARG, "attach of size -1 returned %d", err);
    err = MPI_Buffer_attach(small, sizeof small);
    SUITE_CHECK(err == MPI_SUCCESS, "attach returned %d", err);
    err = MPI_Buffer_attach(small, sizeof small);
    SUITE_CHECK(err == MPI_ERR_BUFFER, "second attach returned %d", err);
    int big[64] = {0};
    err = MPI_Bsend(big, 64, MPI_INT, right, 1, MPI_COMM_WORLD);
    SUITE_CHECK(err == MPI_ERR_BUFFER, "Bsend larger than the buffer returned %d", err);
    err = MPI_Buffer_detach(NULL, &back_size);
    SUITE_CHECK(err == MPI_ERR_ARG, "detach to NULL returned %d", err);
    err = MPI_Buffer_detach(&back, &back_size);
    SUITE_CHECK(err == MPI_SUCCESS && back == small, "detach returned %d", err);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    errors(rank, size);
    every_call(rank, size);
    pending_messages(rank, size);
    return suite_finalize();
}
