/* Memory exhaustion is an error the program survives: rank 0 takes every byte of its
 * cluster's heap, then starts sends to rank 1; each returns MPI_SUCCESS or MPI_ERR_NO_MEM
 * (never a crash, a hang or the end of the run). Once it gives the memory back, the sends
 * that started arrive intact and in order, and the pair goes on talking. */
#include <stdlib.h>
#include <string.h>

#include "mpi_check.h"
#include "../mpi_suite/heap_exhaust.h"

#define TRIES 64

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    static _Thread_local int payload[TRIES];
    if (rank == 0) {
        int ready;
        CHECK_EQ(MPI_Recv(&ready, 1, MPI_INT, 1, 98, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_SUCCESS);
        struct block *hog = take_all_memory();
        MPI_Request reqs[TRIES];
        int started = 0, refused = 0, other = 0;
        for (int i = 0; i < TRIES; i++) {
            payload[started] = 1000 + started;
            int err = MPI_Isend(&payload[started], 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &reqs[started]);
            int cls = MPI_SUCCESS;
            MPI_Error_class(err, &cls);
            if (cls == MPI_SUCCESS) started++;
            else if (cls == MPI_ERR_NO_MEM) refused++;
            else other++;
        }
        give_back(hog);
        CHECK(refused > 0);
        CHECK_EQ(other, 0);
        CHECK_EQ(MPI_Send(&started, 1, MPI_INT, 1, 99, MPI_COMM_WORLD), MPI_SUCCESS);
        CHECK_EQ(MPI_Waitall(started, reqs, MPI_STATUSES_IGNORE), MPI_SUCCESS);
        printf("nomem: %d sends started, %d refused with MPI_ERR_NO_MEM\n", started, refused);
    } else if (rank == 1) {
        int started = -1, ready = 1;
        MPI_Request go;
        CHECK_EQ(MPI_Irecv(&started, 1, MPI_INT, 0, 99, MPI_COMM_WORLD, &go), MPI_SUCCESS);
        CHECK_EQ(MPI_Send(&ready, 1, MPI_INT, 0, 98, MPI_COMM_WORLD), MPI_SUCCESS);
        CHECK_EQ(MPI_Wait(&go, MPI_STATUS_IGNORE), MPI_SUCCESS);
        for (int i = 0; i < started; i++) {
            int v = -1;
            CHECK_EQ(MPI_Recv(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE), MPI_SUCCESS);
            CHECK_EQ(v, 1000 + i);
        }
    }
    /* Everyone still talks. */
    int one = 1, sum = 0;
    CHECK_EQ(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD), MPI_SUCCESS);
    CHECK_EQ(sum, size);
    int status = check_finish("mpi_nomem");
    MPI_Finalize();
    return status;
}
