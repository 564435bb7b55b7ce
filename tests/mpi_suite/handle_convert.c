/* Handle and status conversion between C and Fortran (MPI 3.1 section 17.2.4): every kind's
 * c2f/f2c round trip for predefined and program-created handles, f2c of freed, foreign-kind
 * and made-up values giving the kind's null handle, and statuses that keep source, tag,
 * error, count, elements and the cancelled flag through MPI_Fint[MPI_STATUS_SIZE]. */
#include "suite.h"

#define ROUND_TRIP(kind, h) SUITE_CHECK(MPI_##kind##_f2c(MPI_##kind##_c2f(h)) == (h), \
                                        #kind " round trip of " #h " differs")
#define TO_NULL(kind, f, null) SUITE_CHECK(MPI_##kind##_f2c(f) == (null), \
                                           #kind "_f2c(" #f ") is not the null handle")

static void add_ints(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

static void my_handler(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    (void)code;
}

static void check_status(const MPI_Status *a, const MPI_Status *b, const char *what)
{
    int ca, cb, ea, eb, xa, xb;
    MPI_Get_count(a, MPI_INT, &ca);
    MPI_Get_count(b, MPI_INT, &cb);
    MPI_Get_elements(a, MPI_INT, &ea);
    MPI_Get_elements(b, MPI_INT, &eb);
    MPI_Test_cancelled(a, &xa);
    MPI_Test_cancelled(b, &xb);
    SUITE_CHECK(a->MPI_SOURCE == b->MPI_SOURCE && a->MPI_TAG == b->MPI_TAG &&
                a->MPI_ERROR == b->MPI_ERROR && ca == cb && ea == eb && xa == xb,
                "%s: source %d/%d tag %d/%d error %d/%d count %d/%d elements %d/%d cancelled %d/%d",
                what, a->MPI_SOURCE, b->MPI_SOURCE, a->MPI_TAG, b->MPI_TAG, a->MPI_ERROR,
                b->MPI_ERROR, ca, cb, ea, eb, xa, xb);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int right = (rank + 1) % n, left = (rank + n - 1) % n;

    /* Predefined handles. */
    ROUND_TRIP(Comm, MPI_COMM_WORLD);
    ROUND_TRIP(Comm, MPI_COMM_SELF);
    ROUND_TRIP(Type, MPI_INT);
    ROUND_TRIP(Type, MPI_DOUBLE_INT);
    ROUND_TRIP(Group, MPI_GROUP_EMPTY);
    ROUND_TRIP(Op, MPI_SUM);
    ROUND_TRIP(Op, MPI_MAXLOC);
    ROUND_TRIP(Info, MPI_INFO_ENV);
    ROUND_TRIP(Errhandler, MPI_ERRORS_RETURN);
    ROUND_TRIP(Errhandler, MPI_ERRORS_ARE_FATAL);
    ROUND_TRIP(Message, MPI_MESSAGE_NO_PROC);
    /* Null handles map to themselves. */
    TO_NULL(Comm, MPI_Comm_c2f(MPI_COMM_NULL), MPI_COMM_NULL);
    TO_NULL(Type, MPI_Type_c2f(MPI_DATATYPE_NULL), MPI_DATATYPE_NULL);
    TO_NULL(Group, MPI_Group_c2f(MPI_GROUP_NULL), MPI_GROUP_NULL);
    TO_NULL(Request, MPI_Request_c2f(MPI_REQUEST_NULL), MPI_REQUEST_NULL);
    TO_NULL(Op, MPI_Op_c2f(MPI_OP_NULL), MPI_OP_NULL);
    TO_NULL(Info, MPI_Info_c2f(MPI_INFO_NULL), MPI_INFO_NULL);
    TO_NULL(Errhandler, MPI_Errhandler_c2f(MPI_ERRHANDLER_NULL), MPI_ERRHANDLER_NULL);
    TO_NULL(Message, MPI_Message_c2f(MPI_MESSAGE_NULL), MPI_MESSAGE_NULL);
    /* Made-up values and other kinds' handles. */
    MPI_Fint made_up[3] = {12345, -7, 0};
    for (int i = 0; i < 3; i++) {
        TO_NULL(Comm, made_up[i], MPI_COMM_NULL);
        TO_NULL(Type, made_up[i], MPI_DATATYPE_NULL);
        TO_NULL(Group, made_up[i], MPI_GROUP_NULL);
        TO_NULL(Request, made_up[i], MPI_REQUEST_NULL);
        TO_NULL(Op, made_up[i], MPI_OP_NULL);
        TO_NULL(Info, made_up[i], MPI_INFO_NULL);
        TO_NULL(Errhandler, made_up[i], MPI_ERRHANDLER_NULL);
        TO_NULL(Message, made_up[i], MPI_MESSAGE_NULL);
    }
    TO_NULL(Comm, MPI_Type_c2f(MPI_INT), MPI_COMM_NULL);
    TO_NULL(Type, MPI_Comm_c2f(MPI_COMM_WORLD), MPI_DATATYPE_NULL);
    TO_NULL(Op, MPI_Errhandler_c2f(MPI_ERRORS_RETURN), MPI_OP_NULL);

    /* Program-created handles, then the same values once freed. */
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Group group;
    MPI_Comm_group(dup, &group);
    MPI_Op op;
    MPI_Op_create(add_ints, 1, &op);
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Errhandler handler;
    MPI_Comm_create_errhandler(my_handler, &handler);
    ROUND_TRIP(Comm, dup);
    ROUND_TRIP(Type, pair);  /* uncommitted types are handles too */
    ROUND_TRIP(Group, group);
    ROUND_TRIP(Op, op);
    ROUND_TRIP(Info, info);
    ROUND_TRIP(Errhandler, handler);
    MPI_Fint f_dup = MPI_Comm_c2f(dup), f_pair = MPI_Type_c2f(pair), f_group = MPI_Group_c2f(group),
             f_op = MPI_Op_c2f(op), f_info = MPI_Info_c2f(info),
             f_handler = MPI_Errhandler_c2f(handler);
    /* The Fortran value works where the C handle does. */
    int sum = 0;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_Op_f2c(f_op), MPI_Comm_f2c(f_dup));
    SUITE_CHECK(sum == n * (n - 1) / 2, "Allreduce over converted handles gave %d", sum);
    MPI_Comm_free(&dup);
    MPI_Type_free(&pair);
    MPI_Group_free(&group);
    MPI_Op_free(&op);
    MPI_Info_free(&info);
    MPI_Errhandler_free(&handler);
    TO_NULL(Comm, f_dup, MPI_COMM_NULL);
    TO_NULL(Type, f_pair, MPI_DATATYPE_NULL);
    TO_NULL(Group, f_group, MPI_GROUP_NULL);
    TO_NULL(Op, f_op, MPI_OP_NULL);
    TO_NULL(Info, f_info, MPI_INFO_NULL);
    TO_NULL(Errhandler, f_handler, MPI_ERRHANDLER_NULL);

    /* Requests and messages: live while pending, null once completed. */
    int out[3] = {rank, rank + 1, rank + 2}, in[3] = {0, 0, 0};
    MPI_Request req;
    MPI_Irecv(in, 3, MPI_INT, left, 4, MPI_COMM_WORLD, &req);
    ROUND_TRIP(Request, req);
    MPI_Fint f_req = MPI_Request_c2f(req);
    MPI_Send(out, 3, MPI_INT, right, 4, MPI_COMM_WORLD);
    MPI_Status st, back;
    MPI_Request live = MPI_Request_f2c(f_req);
    MPI_Wait(&live, &st);
    TO_NULL(Request, f_req, MPI_REQUEST_NULL);
    MPI_Send(out, 2, MPI_INT, right, 5, MPI_COMM_WORLD);
    MPI_Message msg;
    MPI_Mprobe(left, 5, MPI_COMM_WORLD, &msg, &st);
    ROUND_TRIP(Message, msg);
    MPI_Fint f_msg = MPI_Message_c2f(msg);
    MPI_Message again = MPI_Message_f2c(f_msg);
    MPI_Mrecv(in, 3, MPI_INT, &again, &st);
    TO_NULL(Message, f_msg, MPI_MESSAGE_NULL);

    /* Statuses. */
    MPI_Fint f_status[MPI_STATUS_SIZE];
    SUITE_CHECK(MPI_Status_c2f(&st, f_status) == MPI_SUCCESS, "Status_c2f failed");
    SUITE_CHECK(f_status[0] == left && f_status[1] == 5, "the Fortran status holds %d %d",
                (int)f_status[0], (int)f_status[1]);
    SUITE_CHECK(MPI_Status_f2c(f_status, &back) == MPI_SUCCESS, "Status_f2c failed");
    check_status(&st, &back, "received status");
    MPI_Status_set_elements_x(&st, MPI_CHAR, (MPI_Count)3 << 33);  /* a count past 32 bits */
    MPI_Status_set_cancelled(&st, 1);
    st.MPI_ERROR = MPI_ERR_TRUNCATE;
    MPI_Status_c2f(&st, f_status);
    MPI_Status_f2c(f_status, &back);
    MPI_Count big = 0;
    MPI_Get_elements_x(&back, MPI_CHAR, &big);
    SUITE_CHECK(big == (MPI_Count)3 << 33, "a large count came back as %lld", (long long)big);
    check_status(&st, &back, "set status");
    int err = MPI_Status_c2f(MPI_STATUS_IGNORE, f_status);
    SUITE_CHECK(err == MPI_ERR_ARG, "Status_c2f(MPI_STATUS_IGNORE): %d", err);
    err = MPI_Status_c2f(&st, NULL);
    SUITE_CHECK(err == MPI_ERR_ARG, "Status_c2f to NULL: %d", err);
    err = MPI_Status_f2c(MPI_F_STATUS_IGNORE, &back);
    SUITE_CHECK(err == MPI_ERR_ARG, "Status_f2c(MPI_F_STATUS_IGNORE): %d", err);
    err = MPI_Status_f2c(f_status, MPI_STATUS_IGNORE);
    SUITE_CHECK(err == MPI_ERR_ARG, "Status_f2c to MPI_STATUS_IGNORE: %d", err);
    return suite_finalize();
}
