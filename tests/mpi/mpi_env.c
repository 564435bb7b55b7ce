/* Environment and errors: Init_thread, Initialized/Finalized, versions (the library names
 * the build variant), processor name, clock, attributes, names, memory; every argument error
 * class with MPI_ERRORS_RETURN; a program error handler. */
#include <string.h>

#include "mpi_check.h"

static _Thread_local int handler_calls, handler_code;

static void on_error(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    handler_calls++;
    handler_code = *code;
}

int main(int argc, char **argv)
{
    int flag = 1, provided = -1;
    MPI_Initialized(&flag);
    int was_initialized = flag;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
    CHECK_EQ(was_initialized, 0);
    CHECK(provided >= MPI_THREAD_SINGLE && provided <= MPI_THREAD_SERIALIZED);
    int q;
    MPI_Query_thread(&q);
    CHECK_EQ(q, provided);
    MPI_Is_thread_main(&flag);
    CHECK_EQ(flag, 1);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    int version, sub, len;
    MPI_Get_version(&version, &sub);
    CHECK_EQ(version * 10 + sub, 31);
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    MPI_Get_library_version(lib, &len);
    CHECK(strstr(lib, "LWMPI") != NULL);
    CHECK(strstr(lib, "variant opt") != NULL || strstr(lib, "variant unopt") != NULL);
    if (rank == 0)
        printf("library: %s\n", lib);
    char name[MPI_MAX_PROCESSOR_NAME];
    CHECK_EQ(MPI_Get_processor_name(name, &len), MPI_SUCCESS);
    CHECK(len > 0 && strncmp(name, "nvx-cluster", 11) == 0);
    double t0 = MPI_Wtime();
    CHECK(MPI_Wtick() > 0.0);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(MPI_Wtime() >= t0);

    int *value, found = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &found);
    CHECK(found && *value >= 32767);
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &value, &found);
    CHECK(found && (*value == 0 || *value == 1));
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &value, &found);
    CHECK(found && *value == size);
    char nm[MPI_MAX_OBJECT_NAME];
    MPI_Comm_get_name(MPI_COMM_WORLD, nm, &len);
    CHECK(strcmp(nm, "MPI_COMM_WORLD") == 0);
    double *mem = NULL;
    CHECK_EQ(MPI_Alloc_mem(4096, MPI_INFO_NULL, &mem), MPI_SUCCESS);
    CHECK(mem != NULL);
    if (mem)
        mem[511] = 1.0;
    CHECK_EQ(MPI_Free_mem(mem), MPI_SUCCESS);

    /* Errors come back as their classes. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm w = MPI_COMM_WORLD;
    int v[4] = {0};
    MPI_Request r;
    CHECK_EQ(MPI_Send(v, 1, MPI_INT, 0, 0, MPI_COMM_NULL), MPI_ERR_COMM);
    CHECK_EQ(MPI_Send(v, -1, MPI_INT, 0, 0, w), MPI_ERR_COUNT);
    CHECK_EQ(MPI_Send(v, 1, MPI_DATATYPE_NULL, 0, 0, w), MPI_ERR_TYPE);
    CHECK_EQ(MPI_Send(NULL, 1, MPI_INT, 0, 0, w), MPI_ERR_BUFFER);
    CHECK_EQ(MPI_Send(v, 1, MPI_INT, size, 0, w), MPI_ERR_RANK);
    CHECK_EQ(MPI_Send(v, 1, MPI_INT, 0, -2, w), MPI_ERR_TAG);
    CHECK_EQ(MPI_Recv(v, 1, MPI_INT, -5, 0, w, MPI_STATUS_IGNORE), MPI_ERR_RANK);
    CHECK_EQ(MPI_Irecv(v, 1, MPI_INT, 0, 0, w, NULL), MPI_ERR_ARG);
    r = 12345;
    CHECK_EQ(MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
    CHECK_EQ(MPI_Bcast(v, 1, MPI_INT, -1, w), MPI_ERR_ROOT);
    CHECK_EQ(MPI_Reduce(v, v + 1, 1, MPI_INT, MPI_OP_NULL, 0, w), MPI_ERR_OP);
    CHECK_EQ(MPI_Allreduce(v, v + 1, 1, MPI_FLOAT, MPI_BXOR, w), MPI_ERR_OP);
    CHECK_EQ(MPI_Comm_get_attr(w, 9999, &value, &found), MPI_ERR_KEYVAL);
    CHECK_EQ(MPI_Alloc_mem(-1, MPI_INFO_NULL, &mem), MPI_ERR_ARG);
    MPI_Comm bad = MPI_COMM_WORLD;
    CHECK_EQ(MPI_Comm_free(&bad), MPI_ERR_COMM);
    char text[MPI_MAX_ERROR_STRING];
    CHECK_EQ(MPI_Error_string(MPI_ERR_TRUNCATE, text, &len), MPI_SUCCESS);
    CHECK(len > 0);

    /* A program handler sees the error, and a duplicate inherits it. */
    MPI_Errhandler eh, got;
    CHECK_EQ(MPI_Comm_create_errhandler(on_error, &eh), MPI_SUCCESS);
    MPI_Comm_set_errhandler(w, eh);
    MPI_Comm_get_errhandler(w, &got);
    CHECK(got == eh);
    MPI_Errhandler_free(&got);
    MPI_Errhandler_free(&eh);
    CHECK_EQ(MPI_Send(v, 1, MPI_INT, size + 3, 0, w), MPI_ERR_RANK);
    CHECK_EQ(handler_calls, 1);
    CHECK_EQ(handler_code, MPI_ERR_RANK);
    MPI_Comm d;
    MPI_Comm_dup(w, &d);
    MPI_Send(v, 1, MPI_INT, 0, -9, d);
    CHECK_EQ(handler_calls, 2);
    MPI_Comm_free(&d);
    MPI_Comm_set_errhandler(w, MPI_ERRORS_ARE_FATAL);

    int finalized = 1;
    MPI_Finalized(&finalized);
    CHECK_EQ(finalized, 0);
    int status = mpi_check_finish("mpi_env");
    MPI_Finalize();
    MPI_Finalized(&finalized);
    if (!finalized)
        printf("FAIL rank %d: MPI_Finalized says no after MPI_Finalize\n", rank);
    return status;
}
