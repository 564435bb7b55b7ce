/* The profiling interface for every function (MPI 3.1 chapter 14): the program defines
 * MPI_x for every function LWMPI has (from LWMPI's own table, mpi_functions.h), counts each
 * call and forwards it to PMPI_x. Every call the program makes reaches its wrapper once, and
 * no call LWMPI makes on its own behalf does: calls built on others (Sendrecv_replace over
 * Sendrecv, Start over Startall, the collectives over point-to-point, Comm_dup over an
 * allreduce, Finalize over a barrier) never call the program's MPI_x. */
#include <string.h>

#include "suite.h"

static _Thread_local int seen;      /* calls that reached a wrapper */
static _Thread_local int expected;  /* calls the program made */

/* One counter per function, then the wrappers. */
#define LWMPI_CALL(name, when, params, args) static _Thread_local int calls_##name;
#define LWMPI_PLAIN(ret, name, params, args) static _Thread_local int calls_##name;
#include <mpi_functions.h>
#undef LWMPI_CALL
#undef LWMPI_PLAIN

#define LWMPI_CALL(name, when, params, args) \
    int MPI_##name params { seen++; calls_##name++; return PMPI_##name args; }
#define LWMPI_PLAIN(ret, name, params, args) \
    ret MPI_##name params { seen++; calls_##name++; return PMPI_##name args; }
#include <mpi_functions.h>
#undef LWMPI_CALL
#undef LWMPI_PLAIN

/* A call the program makes: counted on both sides (a failed SUITE_CHECK makes three more,
 * so only the first failure counts). */
#define CALL(x) (expected++, (x))

int main(int argc, char **argv)
{
    CALL(MPI_Init(&argc, &argv));
    int rank, size;
    CALL(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
    CALL(MPI_Comm_size(MPI_COMM_WORLD, &size));
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;

    SUITE_CHECK(CALL(MPI_Pcontrol(0)) == MPI_SUCCESS, "MPI_Pcontrol(0) failed");
    SUITE_CHECK(CALL(MPI_Pcontrol(1)) == MPI_SUCCESS, "MPI_Pcontrol(1) failed");
    SUITE_CHECK(CALL(MPI_Pcontrol(5, "library-defined", 3.5)) == MPI_SUCCESS,
                "MPI_Pcontrol with extra arguments failed");

    int v[2] = {rank, -rank};
    MPI_Status st;
    CALL(MPI_Sendrecv_replace(v, 2, MPI_INT, right, 1, left, 1, MPI_COMM_WORLD, &st));
    SUITE_CHECK(v[0] == left && v[1] == -left, "Sendrecv_replace got %d %d", v[0], v[1]);
    SUITE_CHECK(calls_Sendrecv == 0, "MPI_Sendrecv reached the program %d times", calls_Sendrecv);

    int in = -1, out = rank;
    MPI_Request r[2];
    CALL(MPI_Recv_init(&in, 1, MPI_INT, left, 2, MPI_COMM_WORLD, &r[0]));
    CALL(MPI_Send_init(&out, 1, MPI_INT, right, 2, MPI_COMM_WORLD, &r[1]));
    CALL(MPI_Start(&r[0]));
    CALL(MPI_Start(&r[1]));
    CALL(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    SUITE_CHECK(in == left, "persistent receive got %d", in);
    SUITE_CHECK(calls_Startall == 0, "MPI_Startall reached the program %d times", calls_Startall);
    CALL(MPI_Request_free(&r[0]));
    CALL(MPI_Request_free(&r[1]));

    int sum = 0, all[64];
    CALL(MPI_Allreduce(&out, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CALL(MPI_Bcast(&sum, 1, MPI_INT, 0, MPI_COMM_WORLD));
    CALL(MPI_Reduce(&out, &sum, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD));
    if (size <= 64)
        CALL(MPI_Allgather(&out, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD));
    CALL(MPI_Barrier(MPI_COMM_WORLD));
    MPI_Comm dup, split;
    CALL(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CALL(MPI_Comm_split(dup, rank % 2, rank, &split));
    CALL(MPI_Comm_free(&split));
    CALL(MPI_Comm_free(&dup));
    SUITE_CHECK(calls_Send + calls_Recv + calls_Isend + calls_Irecv + calls_Wait +
                calls_Sendrecv == 0,
                "point-to-point calls of the collectives reached the program");
    SUITE_CHECK(calls_Allreduce == 1 && calls_Barrier == 1 && calls_Bcast == 1,
                "collectives reached the program %d %d %d times, expected once each",
                calls_Allreduce, calls_Barrier, calls_Bcast);

    MPI_Datatype pair;
    CALL(MPI_Type_contiguous(2, MPI_INT, &pair));
    CALL(MPI_Type_commit(&pair));
    CALL(MPI_Type_free(&pair));
    /* A nonblocking duplication and a neighbourhood collective run on the engine, whose
     * allreduces and transfers never reach the program; handle conversions are calls too. */
    MPI_Comm idup, ring;
    MPI_Request ir;
    CALL(MPI_Comm_idup(MPI_COMM_WORLD, &idup, &ir));
    CALL(MPI_Wait(&ir, MPI_STATUS_IGNORE));
    int dims[1] = {size}, periodic[1] = {1}, got[2];
    CALL(MPI_Cart_create(idup, 1, dims, periodic, 0, &ring));
    CALL(MPI_Ineighbor_allgather(&out, 1, MPI_INT, got, 1, MPI_INT, ring, &ir));
    CALL(MPI_Wait(&ir, MPI_STATUS_IGNORE));
    SUITE_CHECK(got[0] == left && got[1] == right, "Ineighbor_allgather got %d %d", got[0], got[1]);
    SUITE_CHECK(CALL(MPI_Comm_f2c(CALL(MPI_Comm_c2f(ring)))) == ring, "Comm_f2c(Comm_c2f) differs");
    CALL(MPI_Comm_free(&ring));
    CALL(MPI_Comm_free(&idup));
    SUITE_CHECK(calls_Allreduce == 1 && calls_Wait == 2 && calls_Request_free == 2,
                "the engine's calls reached the program (%d %d %d)", calls_Allreduce, calls_Wait,
                calls_Request_free);

    double t = CALL(MPI_Wtime());
    SUITE_CHECK(t >= 0.0, "MPI_Wtime %f", t);

    SUITE_CHECK(seen == expected, "the wrappers saw %d calls, the program made %d", seen,
                expected);
    /* MPI_Finalize's own barrier: checked after it, so it ends the run with a status. */
    const int barriers = calls_Barrier;
    suite_finalize();
    if (calls_Barrier != barriers) {
        printf("FAIL rank %d: MPI_Finalize called the program's MPI_Barrier\n", rank);
        return 1;
    }
    return 0;
}
