// Requests over the transport (see request.hpp).
#include "request.hpp"

#include <stdlib.h>
#include <string.h>

#include "bsend.hpp"
#include "coll_engine.hpp"
#include "comm.hpp"
#include "datatype.hpp"
#include "handles.hpp"
#include "rank_context.hpp"

namespace lwmpi {

namespace {

constexpr int kStackOps = 64;  // waits on more requests than this allocate their scratch

// Where the transport reads or writes: the data itself when it is one dense block,
// otherwise a staging buffer (packed now for sends, unpacked at completion for receives).
int transport_buffer(Request* r, size_t bytes, void** where)
{
    if (type_is_contiguous(r->type)) {
        *where = static_cast<char*>(r->buf) + type_lb(r->type);
        return MPI_SUCCESS;
    }
    r->staging = malloc(bytes > 0 ? bytes : 1);
    if (!r->staging)
        return MPI_ERR_NO_MEM;
    if (r->is_send)
        pack_bytes(r->type, r->buf, r->count, r->staging);
    *where = r->staging;
    return MPI_SUCCESS;
}

void complete(Request* r, const mputil::Completion& c)
{
    memset(&r->status, 0, sizeof r->status);
    r->error = MPI_SUCCESS;
    if (r->is_send) {
        r->status.MPI_SOURCE = r->comm->rank;
        r->status.MPI_TAG = r->tag;
        r->status.lwmpi_count = static_cast<MPI_Count>(c.bytes);
    } else if (c.cancelled) {
        r->status.MPI_SOURCE = r->peer;
        r->status.MPI_TAG = r->tag;
        r->status.lwmpi_cancelled = 1;
    } else {
        r->status.MPI_SOURCE = comm_peer_of_world(*r->comm, c.source);
        r->status.MPI_TAG = c.tag;
        r->status.lwmpi_count = static_cast<MPI_Count>(c.bytes);
        if (c.truncated)
            r->error = MPI_ERR_TRUNCATE;
        if (r->staging)
            unpack_bytes(r->type, r->staging, c.bytes, r->buf, r->count);
    }
    r->status.MPI_ERROR = r->error;
    free(r->staging);
    r->staging = nullptr;
    mputil::release(r->op);
    r->op = nullptr;
    r->complete = true;
}

}  // namespace

void status_empty(MPI_Status* s)
{
    memset(s, 0, sizeof *s);
    s->MPI_SOURCE = MPI_ANY_SOURCE;
    s->MPI_TAG = MPI_ANY_TAG;
    s->MPI_ERROR = MPI_SUCCESS;
}

void status_proc_null(MPI_Status* s)
{
    memset(s, 0, sizeof *s);
    s->MPI_SOURCE = MPI_PROC_NULL;
    s->MPI_TAG = MPI_ANY_TAG;
    s->MPI_ERROR = MPI_SUCCESS;
}

void status_report(MPI_Status* to, const MPI_Status& from)
{
    if (to == MPI_STATUS_IGNORE)
        return;
    to->MPI_SOURCE = from.MPI_SOURCE;
    to->MPI_TAG = from.MPI_TAG;
    to->lwmpi_cancelled = from.lwmpi_cancelled;
    to->lwmpi_count = from.lwmpi_count;
}

void request_setup(Request* r, bool is_send, mputil::SendMode mode, Comm* comm, uint32_t context,
                   const void* buf, int count, MPI_Datatype type, int peer, int tag)
{
    r->is_send = is_send;
    r->mode = mode;
    r->comm = comm;
    comm_retain(comm);
    r->context = context;
    r->buf = const_cast<void*>(buf);
    r->count = count;
    r->type = type;
    type_retain(type);
    r->peer = peer;
    r->tag = tag;
    r->active = r->complete = false;
    r->staging = nullptr;
    r->op = nullptr;
    r->message = nullptr;
    r->schedule = nullptr;
    r->collective = false;
}

void request_teardown(Request* r)
{
    collective_teardown(r);
    if (r->comm) {
        comm_release(r->comm);
        type_release(r->type);
    }
    r->comm = nullptr;
}

int request_start(Request* r)
{
    r->complete = false;
    r->error = MPI_SUCCESS;
    if (r->peer == MPI_PROC_NULL) {
        status_proc_null(&r->status);
        r->active = r->complete = true;
        return MPI_SUCCESS;
    }
    if (r->is_send && r->mode == mputil::SendMode::Buffered)
        return bsend_start(r);
    size_t bytes = static_cast<size_t>(type_size(r->type)) * static_cast<size_t>(r->count);
    void* where = nullptr;
    int err = transport_buffer(r, bytes, &where);
    if (err != MPI_SUCCESS)
        return err;
    const Comm& c = *r->comm;
    if (r->is_send) {
        r->op = mputil::isend(peer_world(c)[r->peer], r->context, r->tag, where, bytes, r->mode);
    } else {
        int source = r->peer == MPI_ANY_SOURCE ? mputil::kAnySource : peer_world(c)[r->peer];
        int tag = r->tag == MPI_ANY_TAG ? mputil::kAnyTag : r->tag;
        r->op = r->message ? mputil::imrecv(r->message, where, bytes)
                           : mputil::irecv(source, r->context, tag, where, bytes);
    }
    if (r->op == nullptr) {  // the transport had no memory for it: nothing was started
        free(r->staging);
        r->staging = nullptr;
        return MPI_ERR_NO_MEM;
    }
    r->message = nullptr;  // received now: a matched message is received once
    r->active = true;
    return MPI_SUCCESS;
}

bool request_poll(Request* r)
{
    if (r->complete || !r->active)
        return r->complete;
    if (r->schedule)
        return collective_poll(r);
    mputil::Completion c;
    if (mputil::test(r->op, &c))
        complete(r, c);
    return r->complete;
}

namespace {

// Frees the detached requests that completed; never blocks.
void poll_detached()
{
    Request** link = &rank_context().detached;
    while (Request* r = *link) {
        if (request_poll(r)) {
            *link = r->next_detached;
            request_teardown(r);
            request_free(r);
        } else {
            link = &r->next_detached;
        }
    }
}

// Whether a wait's other end is met (taking the time of what met it).
bool end_met(const mputil::WaitEnd& end)
{
    return end.counter ? mputil::counter_reached(end.counter, end.target) : mputil::leader_sync_fired(end.sync);
}

// Sleeps on the transfers of the point-to-point requests and of every active collective
// (those among `reqs` and the others), advancing the collectives each time one wakes it,
// until `need` of `reqs` are complete or, when `end` is given (n = 0), until it is met.
void wait_ops(Request* const* reqs, int n, int need, const mputil::WaitEnd* end = nullptr)
{
    mputil::Op* stack_ops[kStackOps];
    int stack_index[kStackOps];
    for (;;) {
        collectives_progress();
        int done = 0, pending = 0;
        for (int i = 0; i < n; i++) {
            Request* r = reqs[i];
            if (!r || !r->active)
                continue;
            // Collectives were just advanced: polling them again would test every transfer twice.
            if (r->collective ? r->complete : request_poll(r))
                done++;
            else
                pending++;
        }
        if (end ? end_met(*end) : done >= need || pending == 0)
            break;
        int capacity = pending + collectives_op_capacity();
        mputil::Op** ops = stack_ops;
        int* index = stack_index;
        if (capacity > kStackOps) {
            ops = static_cast<mputil::Op**>(malloc(sizeof(mputil::Op*) * capacity));
            index = static_cast<int*>(malloc(sizeof(int) * capacity));
            if (!ops || !index)
                mputil::abort_run(MPI_ERR_NO_MEM);  // cannot wait without scratch: end the run
        }
        int k = 0;
        for (int i = 0; i < n; i++) {
            Request* r = reqs[i];
            if (r && r->active && !r->complete && !r->schedule)
                ops[k++] = r->op;
        }
        k += collectives_pending_ops(ops + k);
        if (end)
            mputil::wait_some(ops, k, index, k, *end);
        else if (!rank_context().collectives && need - done >= pending)
            mputil::wait_all(ops, k);  // no collective to advance, nothing to return before all
        else
            mputil::wait_some(ops, k, index, k);
        if (ops != stack_ops) {
            free(ops);
            free(index);
        }
    }
}

}  // namespace

void request_wait(Request* const* reqs, int n, int need)
{
    poll_detached();
    wait_ops(reqs, n, need);
}

void request_wait_until(const mputil::WaitEnd& end)
{
    poll_detached();
    wait_ops(nullptr, 0, 0, &end);
}

int request_run(Request* r, MPI_Status* status)
{
    int err = request_start(r);
    if (err == MPI_SUCCESS) {
        request_wait(&r, 1, 1);
        status_report(status, r->status);
        err = r->error;
    }
    request_teardown(r);
    return err;
}

void request_reported(Request* r) { r->active = false; }

bool request_cancel(Request* r)
{
    if (r->is_send || !r->active || r->complete || !mputil::cancel(r->op))
        return false;
    mputil::Completion c = {};
    c.cancelled = true;
    complete(r, c);
    return true;
}

Request* request_alloc()
{
    RankContext& rc = rank_context();
    Request* r = rc.spare_requests;
    if (!r)
        return static_cast<Request*>(calloc(1, sizeof(Request)));
    rc.spare_requests = r->next_detached;
    rc.spare_request_count--;
    memset(r, 0, sizeof *r);
    return r;
}

void request_free(Request* r)
{
    RankContext& rc = rank_context();
    if (rc.spare_request_limit == 0) rc.spare_request_limit = mputil::spare_objects(sizeof(Request));
    if (rc.spare_request_count >= rc.spare_request_limit) {
        free(r);
        return;
    }
    r->next_detached = rc.spare_requests;
    rc.spare_requests = r;
    rc.spare_request_count++;
}

Request* request_new()
{
    Request* r = request_alloc();
    if (!r)
        return nullptr;
    int index = rank_context().requests.add(r);
    if (index < 0) {
        request_free(r);
        return nullptr;
    }
    r->handle = user_handle(LWMPI_KIND_REQUEST, index);
    return r;
}

Request* request_get(MPI_Request handle)
{
    return is_user(handle, LWMPI_KIND_REQUEST) ? rank_context().requests.get(handle_index(handle)) : nullptr;
}

int check_request_array(int count, const MPI_Request* handles)
{
    if (count < 0)
        return MPI_ERR_COUNT;
    return count > 0 && !handles ? MPI_ERR_ARG : MPI_SUCCESS;
}

void request_delete(Request* r)
{
    if (is_user(r->handle, LWMPI_KIND_REQUEST))
        rank_context().requests.remove(handle_index(r->handle));
    request_free(r);
}

void request_detach(Request* r)
{
    if (is_user(r->handle, LWMPI_KIND_REQUEST))
        rank_context().requests.remove(handle_index(r->handle));
    r->handle = MPI_REQUEST_NULL;
    r->next_detached = rank_context().detached;
    rank_context().detached = r;
}

void request_drain_detached()
{
    while (Request* r = rank_context().detached) {
        wait_ops(&r, 1, 1);
        rank_context().detached = r->next_detached;
        request_teardown(r);
        request_free(r);
    }
}

void request_finalize()
{
    RankContext& rc = rank_context();
    rc.requests.clear();
    while (Request* r = rc.spare_requests) {
        rc.spare_requests = r->next_detached;
        free(r);
    }
    rc.spare_request_count = 0;
}

}  // namespace lwmpi
