// Matched probes and receives (MPI 3.1 section 3.8.2-3.8.3): MPI_Mprobe and MPI_Improbe take
// a message out of matching and name it by an MPI_Message handle (per rank, like requests);
// MPI_Mrecv and MPI_Imrecv receive exactly that message.
#include <stdlib.h>

#include <mputil/mputil.hpp>

#include "api.hpp"
#include "call.hpp"
#include "comm.hpp"
#include "errhandler.hpp"
#include "handles.hpp"
#include "p2p_check.hpp"
#include "rank_context.hpp"
#include "request.hpp"

namespace lwmpi {

struct MatchedMessage {
    mputil::Message* held;
    Comm* comm;  // retained: the receive reports ranks of this communicator
    int source;  // communicator rank
    int tag;
};

namespace {

MatchedMessage* message_get(MPI_Message handle)
{
    return is_user(handle, LWMPI_KIND_MESSAGE) ? rank_context().messages.get(handle_index(handle)) : nullptr;
}

void message_delete(MPI_Message handle)
{
    MatchedMessage* m = rank_context().messages.remove(handle_index(handle));
    comm_release(m->comm);
    free(m);
}

// Mprobe (blocking) and Improbe.
int matched_probe(int source, int tag, MPI_Comm comm, bool block, int* flag, MPI_Message* message,
                  MPI_Status* status)
{
    Comm* c = comm_get(comm);
    if (!c)
        return fail(comm, MPI_ERR_COMM);
    int err = check_recv_rank(*c, source);
    if (err == MPI_SUCCESS)
        err = check_recv_tag(tag);
    if (err == MPI_SUCCESS && (!message || (!block && !flag)))
        err = MPI_ERR_ARG;
    if (err != MPI_SUCCESS)
        return fail(comm, err);
    if (source == MPI_PROC_NULL) {
        MPI_Status none;
        status_proc_null(&none);
        status_report(status, none);
        *message = MPI_MESSAGE_NO_PROC;
        if (flag)
            *flag = 1;
        return MPI_SUCCESS;
    }
    // The handle exists before the probe, so a message is never taken without one to name it.
    MatchedMessage* m = static_cast<MatchedMessage*>(calloc(1, sizeof(MatchedMessage)));
    int index = m ? rank_context().messages.add(m) : -1;
    if (index < 0) {
        free(m);
        return fail(comm, MPI_ERR_NO_MEM);
    }
    const int want_source = source == MPI_ANY_SOURCE ? mputil::kAnySource : c->world[source];
    const int want_tag = tag == MPI_ANY_TAG ? mputil::kAnyTag : tag;
    mputil::Completion found;
    m->held = block ? mputil::mprobe(want_source, p2p_context(*c), want_tag, &found)
                    : mputil::improbe(want_source, p2p_context(*c), want_tag, &found);
    if (flag)
        *flag = m->held != nullptr;
    if (!m->held) {
        rank_context().messages.remove(index);
        free(m);
        mputil::poll_idle();
        return MPI_SUCCESS;  // Improbe found nothing: message and status are left alone
    }
    m->comm = c;
    comm_retain(c);
    m->source = comm_rank_of_world(*c, found.source);
    m->tag = found.tag;
    MPI_Status s;
    status_empty(&s);
    s.MPI_SOURCE = m->source;
    s.MPI_TAG = m->tag;
    s.lwmpi_count = static_cast<MPI_Count>(found.bytes);
    status_report(status, s);
    *message = user_handle(LWMPI_KIND_MESSAGE, index);
    return MPI_SUCCESS;
}

// Describes the receive of *message into `r`. A message of MPI_MESSAGE_NO_PROC becomes a
// receive from MPI_PROC_NULL. Errors: MPI_ERR_ARG (no handle), MPI_ERR_REQUEST (not a
// message of this rank: MPI 3.1 has no class of its own for message handles), and those of
// the buffer; *comm is the communicator whose handler reports them.
int prepare_mrecv(void* buf, int count, MPI_Datatype type, const MPI_Message* message, Request* r,
                  MPI_Comm* comm)
{
    *comm = MPI_COMM_WORLD;
    if (!message)
        return MPI_ERR_ARG;
    if (*message == MPI_MESSAGE_NO_PROC) {
        int err = check_data(buf, count, type);
        if (err == MPI_SUCCESS)
            request_setup(r, false, mputil::SendMode::Standard, comm_get(MPI_COMM_WORLD), 0, buf,
                          count, type, MPI_PROC_NULL, MPI_ANY_TAG);
        return err;
    }
    MatchedMessage* m = message_get(*message);
    if (!m)
        return MPI_ERR_REQUEST;
    *comm = m->comm->handle;
    int err = check_data(buf, count, type);
    if (err != MPI_SUCCESS)
        return err;
    request_setup(r, false, mputil::SendMode::Standard, m->comm, p2p_context(*m->comm), buf, count,
                  type, m->source, m->tag);
    r->message = m->held;
    return MPI_SUCCESS;
}

// After the receive of *message started: the handle is spent.
void message_received(MPI_Message* message)
{
    if (*message != MPI_MESSAGE_NO_PROC)
        message_delete(*message);
    *message = MPI_MESSAGE_NULL;
}

}  // namespace

}  // namespace lwmpi

using namespace lwmpi;

int api::Mprobe(int source, int tag, MPI_Comm comm, MPI_Message* message, MPI_Status* status)
{
    return matched_probe(source, tag, comm, true, nullptr, message, status);
}

int api::Improbe(int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message,
                 MPI_Status* status)
{
    return matched_probe(source, tag, comm, false, flag, message, status);
}

int api::Mrecv(void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Status* status)
{
    Request r = {};
    MPI_Comm comm;
    int err = prepare_mrecv(buf, count, type, message, &r, &comm);
    if (err != MPI_SUCCESS)
        return fail(comm, err);
    err = request_run(&r, status);
    if (!r.message)  // started (else out of memory: the message stays matched, for a later try)
        message_received(message);
    return err == MPI_SUCCESS ? err : fail(comm, err);
}

int api::Imrecv(void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Request* request)
{
    if (!request)
        return fail(MPI_COMM_WORLD, MPI_ERR_ARG);
    Request* r = request_new();
    if (!r)
        return fail(MPI_COMM_WORLD, MPI_ERR_NO_MEM);
    MPI_Comm comm;
    int err = prepare_mrecv(buf, count, type, message, r, &comm);  // sets nothing up on error
    if (err == MPI_SUCCESS) {
        err = request_start(r);
        if (err != MPI_SUCCESS)
            request_teardown(r);
    }
    if (err != MPI_SUCCESS) {
        request_delete(r);
        return fail(comm, err);
    }
    message_received(message);
    *request = r->handle;
    return MPI_SUCCESS;
}
