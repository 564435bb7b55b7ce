/* Error classes and codes of the program (MPI 3.1 section 8.5) and MPI_Comm_call_errhandler
 * (8.3.4): added classes and codes get their own values past MPI_ERR_LASTCODE, MPI_Error_class
 * and MPI_Error_string answer for them, MPI_LASTUSEDCODE follows, and a program's handler
 * receives the code. Classes are per rank (MPI: per process): each rank adds a different
 * number and sees only its own. */
#include <string.h>

#include "suite.h"

static _Thread_local int handled_code, handled_calls;
static _Thread_local MPI_Comm handled_comm;

static void remember(MPI_Comm *comm, int *code, ...)
{
    handled_comm = *comm;
    handled_code = *code;
    handled_calls++;
}

static int last_used(void)
{
    int *value = NULL, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &value, &flag);
    return flag && value ? *value : -1;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, err;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    SUITE_CHECK(last_used() == MPI_ERR_LASTCODE, "MPI_LASTUSEDCODE before any: %d", last_used());
    /* Rank r adds r classes first: the values differ between ranks, which is fine per rank. */
    for (int i = 0; i < rank; i++) {
        int c;
        MPI_Add_error_class(&c);
    }
    int cls = -1, code = -1, code2 = -1;
    MPI_Add_error_class(&cls);
    SUITE_CHECK(cls == MPI_ERR_LASTCODE + 1 + rank, "rank %d's class %d", rank, cls);
    MPI_Add_error_code(cls, &code);
    MPI_Add_error_code(MPI_ERR_OTHER, &code2);
    SUITE_CHECK(code > cls && code2 > code && last_used() == code2, "codes %d %d, last used %d", code, code2,
                last_used());
    int got = -1;
    MPI_Error_class(cls, &got);
    SUITE_CHECK(got == cls, "an added class is its own class: %d", got);
    MPI_Error_class(code, &got);
    SUITE_CHECK(got == cls, "class of the added code: %d", got);
    MPI_Error_class(code2, &got);
    SUITE_CHECK(got == MPI_ERR_OTHER, "class of a code of MPI_ERR_OTHER: %d", got);

    char text[MPI_MAX_ERROR_STRING];
    int length = -1;
    MPI_Error_string(code, text, &length);
    SUITE_CHECK(length == 0 && text[0] == '\0', "a code with no string yet: '%s'", text);
    MPI_Add_error_string(cls, "my class");
    MPI_Add_error_string(code, "first text");
    MPI_Add_error_string(code, "the replacing text");
    MPI_Error_string(code, text, &length);
    SUITE_CHECK(strcmp(text, "the replacing text") == 0 && length == 18, "code text '%s'", text);
    MPI_Error_string(cls, text, &length);
    SUITE_CHECK(strcmp(text, "my class") == 0, "class text '%s'", text);

    /* Misuse. */
    err = MPI_Add_error_code(cls + 1000, &got);
    SUITE_CHECK(err == MPI_ERR_ARG, "a code of a class that does not exist: %d", err);
    err = MPI_Add_error_code(code, &got);
    SUITE_CHECK(err == MPI_ERR_ARG, "a code of a code that is not a class: %d", err);
    err = MPI_Add_error_string(MPI_ERR_TRUNCATE, "mine");
    SUITE_CHECK(err == MPI_ERR_ARG, "changing a predefined string: %d", err);
    err = MPI_Add_error_string(code2 + 1, "nobody");
    SUITE_CHECK(err == MPI_ERR_ARG, "a string for a code not added: %d", err);
    char too_long[MPI_MAX_ERROR_STRING + 1];
    memset(too_long, 'x', sizeof too_long - 1);
    too_long[sizeof too_long - 1] = '\0';
    err = MPI_Add_error_string(code, too_long);
    SUITE_CHECK(err == MPI_ERR_ARG, "a string longer than MPI_MAX_ERROR_STRING - 1: %d", err);
    err = MPI_Add_error_class(NULL);
    SUITE_CHECK(err == MPI_ERR_ARG, "Add_error_class(NULL): %d", err);
    err = MPI_Error_class(code2 + 1, &got);
    SUITE_CHECK(err == MPI_ERR_ARG, "Error_class of a value no code has: %d", err);

    /* MPI_Comm_call_errhandler runs the communicator's handler with the code. */
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Errhandler handler;
    MPI_Comm_create_errhandler(remember, &handler);
    MPI_Comm_set_errhandler(dup, handler);
    err = MPI_Comm_call_errhandler(dup, code);
    SUITE_CHECK(err == MPI_SUCCESS && handled_calls == 1 && handled_code == code && handled_comm == dup,
                "call_errhandler: %d, %d calls, code %d", err, handled_calls, handled_code);
    /* A failing call hands its class to the same handler. */
    int v;
    MPI_Send(&v, 1, MPI_INT, 0, -9, dup);
    SUITE_CHECK(handled_calls == 2 && handled_code == MPI_ERR_TAG, "handler got %d", handled_code);
    err = MPI_Comm_call_errhandler(MPI_COMM_WORLD, code2); /* MPI_ERRORS_RETURN: nothing runs */
    SUITE_CHECK(err == MPI_SUCCESS && handled_calls == 2, "call_errhandler with ERRORS_RETURN: %d", err);
    err = MPI_Comm_call_errhandler(MPI_COMM_NULL, code);
    SUITE_CHECK(err == MPI_ERR_COMM, "call_errhandler on MPI_COMM_NULL: %d", err);
    MPI_Errhandler_free(&handler);
    MPI_Comm_free(&dup);
    return suite_finalize();
}
