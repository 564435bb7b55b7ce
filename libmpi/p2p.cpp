// Point-to-point calls: blocking, nonblocking and persistent sends and receives, Sendrecv,
// probes, Get_count, Test_cancelled. Every one builds a Request (request.hpp); the blocking
// ones keep theirs on the stack, or take the transport's blocking calls where they can.
#include <stdlib.h>

#include "api.hpp"
#include "comm.hpp"
#include "datatype.hpp"
#include "env.hpp"
#include "errhandler.hpp"
#include "p2p_check.hpp"
#include "rank_context.hpp"
#include "request.hpp"

namespace lwmpi {

namespace {

using mputil::SendMode;

// Checks the arguments of one side of a transfer; when they are good, *out is the
// communicator and *span the type's (either may be nullptr).
int check_side(bool is_send, const void* buf, int count, MPI_Datatype type, int peer, int tag,
               MPI_Comm comm, Comm** out = nullptr, TypeSpan* span = nullptr)
{
    Comm* c = comm_get(comm);
    if (!c)
        return MPI_ERR_COMM;
    if (out)
        *out = c;
    int err = check_data(buf, count, type, span);
    if (err == MPI_SUCCESS)
        err = is_send ? check_send_rank(*c, peer) : check_recv_rank(*c, peer);
    if (err == MPI_SUCCESS)
        err = is_send ? check_send_tag(tag) : check_recv_tag(tag);
    return err;
}

// Checks one side of a transfer and, if it is good, describes it in `r`.
int prepare(bool is_send, SendMode mode, const void* buf, int count, MPI_Datatype type, int peer,
            int tag, MPI_Comm comm, Request* r)
{
    Comm* c = nullptr;
    int err = check_side(is_send, buf, count, type, peer, tag, comm, &c);
    if (err == MPI_SUCCESS)
        request_setup(r, is_send, mode, c, p2p_context(*c), buf, count, type, peer, tag);
    return err;
}

int wildcard_source(const Comm& c, int source)
{
    return source == MPI_ANY_SOURCE ? mputil::kAnySource : peer_world(c)[source];
}

int wildcard_tag(int tag) { return tag == MPI_ANY_TAG ? mputil::kAnyTag : tag; }

// The blocking calls' direct path, with no Request: the data is one dense block, the peer is
// a rank, the mode is not buffered, and a wait has nothing of the rank's to advance but its
// transfers (no active nonblocking collective, no freed request still under way).
bool direct(const TypeSpan& span, SendMode mode, int peer)
{
    if (peer == MPI_PROC_NULL || mode == SendMode::Buffered || !span.contiguous)
        return false;
    const RankContext& rc = rank_context();
    return !rc.collectives && !rc.detached;
}

size_t data_bytes(const TypeSpan& span, int count)
{
    return static_cast<size_t>(span.size) * static_cast<size_t>(count);
}

int direct_send(const Comm& c, SendMode mode, const void* buf, int count, const TypeSpan& span,
                int dest, int tag)
{
    const char* data = static_cast<const char*>(buf) + span.lb;
    bool started = mputil::send(peer_world(c)[dest], p2p_context(c), tag, data,
                                data_bytes(span, count), mode, nullptr);
    return started ? MPI_SUCCESS : MPI_ERR_NO_MEM;
}

int direct_recv(const Comm& c, void* buf, int count, const TypeSpan& span, int source, int tag,
                MPI_Status* status)
{
    char* data = static_cast<char*>(buf) + span.lb;
    mputil::Completion m;
    mputil::recv(wildcard_source(c, source), p2p_context(c), wildcard_tag(tag), data,
                 data_bytes(span, count), &m);
    if (status != MPI_STATUS_IGNORE) {
        status->MPI_SOURCE = comm_peer_of_world(c, m.source);
        status->MPI_TAG = m.tag;
        status->lwmpi_cancelled = 0;
        status->lwmpi_count = static_cast<MPI_Count>(m.bytes);
    }
    return m.truncated ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
}

// The blocking calls' other path: a Request on the stack, run to completion.
int run_on_stack(bool is_send, SendMode mode, Comm* c, const void* buf, int count,
                 MPI_Datatype type, int peer, int tag, MPI_Status* status)
{
    Request r = {};
    request_setup(&r, is_send, mode, c, p2p_context(*c), buf, count, type, peer, tag);
    return request_run(&r, status);
}

int blocking_send(SendMode mode, const void* buf, int count, MPI_Datatype type, int dest, int tag,
                  MPI_Comm comm)
{
    Comm* c = nullptr;
    TypeSpan span;
    int err = check_side(true, buf, count, type, dest, tag, comm, &c, &span);
    if (err == MPI_SUCCESS)
        err = direct(span, mode, dest) ? direct_send(*c, mode, buf, count, span, dest, tag)
                                       : run_on_stack(true, mode, c, buf, count, type, dest, tag,
                                                      MPI_STATUS_IGNORE);
    return err == MPI_SUCCESS ? err : fail(comm, err);
}

// A program-visible request, started unless persistent.
int nonblocking(bool is_send, SendMode mode, bool persistent, const void* buf, int count,
                MPI_Datatype type, int peer, int tag, MPI_Comm comm, MPI_Request* request)
{
    if (!request)
        return fail(comm, MPI_ERR_ARG);
    int err = check_side(is_send, buf, count, type, peer, tag, comm);
    if (err != MPI_SUCCESS)
        return fail(comm, err);
    Request* r = request_new();
    if (!r)
        return fail(comm, MPI_ERR_NO_MEM);
    prepare(is_send, mode, buf, count, type, peer, tag, comm, r);
    r->persistent = persistent;
    if (!persistent) {
        err = request_start(r);
        if (err != MPI_SUCCESS) {
            request_teardown(r);
            request_delete(r);
            return fail(comm, err);
        }
    }
    *request = r->handle;
    return MPI_SUCCESS;
}

// A probed message's status; like every single-status call, Probe leaves MPI_ERROR alone
// (3.2.5), so the fields are built aside and reported.
int probe_status(const Comm& c, const mputil::Completion& m, MPI_Status* status)
{
    MPI_Status found;
    status_empty(&found);
    found.MPI_SOURCE = comm_peer_of_world(c, m.source);
    found.MPI_TAG = m.tag;
    found.lwmpi_count = static_cast<MPI_Count>(m.bytes);
    status_report(status, found);
    return MPI_SUCCESS;
}

int check_probe(MPI_Comm comm, int source, int tag, Comm** out)
{
    Comm* c = comm_get(comm);
    if (!c)
        return MPI_ERR_COMM;
    int err = check_recv_rank(*c, source);
    if (err == MPI_SUCCESS)
        err = check_recv_tag(tag);
    *out = c;
    return err;
}

}  // namespace

}  // namespace lwmpi

using namespace lwmpi;
using mputil::SendMode;

int api::Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    return blocking_send(SendMode::Standard, buf, count, type, dest, tag, comm);
}

int api::Ssend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    return blocking_send(SendMode::Synchronous, buf, count, type, dest, tag, comm);
}

int api::Rsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    return blocking_send(SendMode::Ready, buf, count, type, dest, tag, comm);
}

int api::Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                        MPI_Status* status)
{
    Comm* c = nullptr;
    TypeSpan span;
    int err = check_side(false, buf, count, type, source, tag, comm, &c, &span);
    if (err == MPI_SUCCESS)
        err = direct(span, SendMode::Standard, source)
                  ? direct_recv(*c, buf, count, span, source, tag, status)
                  : run_on_stack(false, SendMode::Standard, c, buf, count, type, source, tag, status);
    return err == MPI_SUCCESS ? err : fail(comm, err);
}

int api::Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag,
                         MPI_Comm comm, MPI_Request* request)
{
    return nonblocking(true, SendMode::Standard, false, buf, count, type, dest, tag, comm, request);
}

int api::Issend(const void* buf, int count, MPI_Datatype type, int dest, int tag,
                          MPI_Comm comm, MPI_Request* request)
{
    return nonblocking(true, SendMode::Synchronous, false, buf, count, type, dest, tag, comm,
                       request);
}

int api::Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                         MPI_Request* request)
{
    return nonblocking(false, SendMode::Standard, false, buf, count, type, source, tag, comm,
                       request);
}

int api::Send_init(const void* buf, int count, MPI_Datatype type, int dest, int tag,
                             MPI_Comm comm, MPI_Request* request)
{
    return nonblocking(true, SendMode::Standard, true, buf, count, type, dest, tag, comm, request);
}

int api::Recv_init(void* buf, int count, MPI_Datatype type, int source, int tag,
                             MPI_Comm comm, MPI_Request* request)
{
    return nonblocking(false, SendMode::Standard, true, buf, count, type, source, tag, comm,
                       request);
}

int api::Bsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    return blocking_send(SendMode::Buffered, buf, count, type, dest, tag, comm);
}

int api::Ibsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                MPI_Request* request)
{
    return nonblocking(true, SendMode::Buffered, false, buf, count, type, dest, tag, comm, request);
}

int api::Irsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                MPI_Request* request)
{
    return nonblocking(true, SendMode::Ready, false, buf, count, type, dest, tag, comm, request);
}

int api::Bsend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag,
                    MPI_Comm comm, MPI_Request* request)
{
    return nonblocking(true, SendMode::Buffered, true, buf, count, type, dest, tag, comm, request);
}

int api::Ssend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag,
                    MPI_Comm comm, MPI_Request* request)
{
    return nonblocking(true, SendMode::Synchronous, true, buf, count, type, dest, tag, comm,
                       request);
}

int api::Rsend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag,
                    MPI_Comm comm, MPI_Request* request)
{
    return nonblocking(true, SendMode::Ready, true, buf, count, type, dest, tag, comm, request);
}

int api::Start(MPI_Request* request)
{
    return api::Startall(1, request);
}

int api::Startall(int count, MPI_Request requests[])
{
    int err = check_request_array(count, requests);
    if (err != MPI_SUCCESS)
        return fail(MPI_COMM_WORLD, err);
    // Every request is checked before any starts: a bad one starts nothing.
    for (int i = 0; i < count; i++) {
        Request* r = request_get(requests[i]);
        if (!r || !r->persistent || r->active)
            return fail(MPI_COMM_WORLD, MPI_ERR_REQUEST);
    }
    for (int i = 0; i < count; i++) {
        Request* r = request_get(requests[i]);
        err = request_start(r);
        if (err != MPI_SUCCESS)
            return fail(r->comm->handle, err);
    }
    return MPI_SUCCESS;
}

int api::Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                            int sendtag, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                            int source, int recvtag, MPI_Comm comm, MPI_Status* status)
{
    Request recv = {}, send = {};
    int err = prepare(false, SendMode::Standard, recvbuf, recvcount, recvtype, source, recvtag, comm,
                      &recv);
    if (err != MPI_SUCCESS)
        return fail(comm, err);
    err = prepare(true, SendMode::Standard, sendbuf, sendcount, sendtype, dest, sendtag, comm, &send);
    if (err != MPI_SUCCESS) {
        request_teardown(&recv);
        return fail(comm, err);
    }
    Request* both[2] = {&recv, &send};
    err = request_start(&recv);
    if (err == MPI_SUCCESS) {
        err = request_start(&send);
        request_wait(both, err == MPI_SUCCESS ? 2 : 1, err == MPI_SUCCESS ? 2 : 1);
        if (err == MPI_SUCCESS) {
            status_report(status, recv.status);
            err = recv.error;
        }
    }
    request_teardown(&recv);
    request_teardown(&send);
    return err == MPI_SUCCESS ? err : fail(comm, err);
}

int api::Sendrecv_replace(void* buf, int count, MPI_Datatype type, int dest, int sendtag,
                                    int source, int recvtag, MPI_Comm comm, MPI_Status* status)
{
    int err = check_side(true, buf, count, type, dest, sendtag, comm);
    if (err == MPI_SUCCESS)
        err = check_side(false, buf, count, type, source, recvtag, comm);
    if (err != MPI_SUCCESS)
        return fail(comm, err);
    // The outgoing data is packed aside first, so the receive may overwrite the buffer.
    size_t bytes = static_cast<size_t>(type_size(type)) * static_cast<size_t>(count);
    void* copy = malloc(bytes > 0 ? bytes : 1);
    if (!copy)
        return fail(comm, MPI_ERR_NO_MEM);
    pack_bytes(type, buf, count, copy);
    err = api::Sendrecv(copy, static_cast<int>(bytes), MPI_BYTE, dest, sendtag, buf, count, type,
                       source, recvtag, comm, status);
    free(copy);
    return err;
}

namespace {

// Probe (blocking) and Iprobe: a message's status without receiving it.
int probe(int source, int tag, MPI_Comm comm, bool block, int* flag, MPI_Status* status)
{
    Comm* c = nullptr;
    int err = check_probe(comm, source, tag, &c);
    if (err == MPI_SUCCESS && !block && !flag)
        err = MPI_ERR_ARG;
    if (err != MPI_SUCCESS)
        return fail(comm, err);
    int found = 1;
    if (source == MPI_PROC_NULL) {
        MPI_Status none;
        status_proc_null(&none);
        status_report(status, none);
    } else {
        mputil::Completion m;
        if (block)
            mputil::probe(wildcard_source(*c, source), p2p_context(*c), wildcard_tag(tag), &m);
        else
            found = mputil::iprobe(wildcard_source(*c, source), p2p_context(*c), wildcard_tag(tag), &m);
        if (!found)
            mputil::poll_idle();
        if (found)
            err = probe_status(*c, m, status);
    }
    if (flag)
        *flag = found;
    return err;
}

}  // namespace

int api::Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status)
{
    return probe(source, tag, comm, false, flag, status);
}

int api::Probe(int source, int tag, MPI_Comm comm, MPI_Status* status)
{
    return probe(source, tag, comm, true, nullptr, status);
}

int api::Get_count(const MPI_Status* status, MPI_Datatype type, int* count)
{
    if (!status || status == MPI_STATUS_IGNORE || !count)
        return fail(MPI_COMM_WORLD, MPI_ERR_ARG);
    int err = type_check(type, false);
    if (err != MPI_SUCCESS)
        return fail(MPI_COMM_WORLD, err);
    MPI_Aint size = type_size(type);
    if (size == 0)
        *count = 0;  // every count of an empty type fits; MPICH answers 0 as well
    else
        *count = status->lwmpi_count % size == 0 ? static_cast<int>(status->lwmpi_count / size)
                                                 : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

int api::Test_cancelled(const MPI_Status* status, int* flag)
{
    if (!status || status == MPI_STATUS_IGNORE || !flag)
        return fail(MPI_COMM_WORLD, MPI_ERR_ARG);
    *flag = status->lwmpi_cancelled != 0;
    return MPI_SUCCESS;
}
