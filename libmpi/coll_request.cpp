// The requests that carry schedules: blocking collectives run one, nonblocking ones hand it
// to the program; every wait of the rank advances the active ones (see coll_engine.hpp).
#include <stdlib.h>

#include "coll_engine.hpp"
#include "rank_context.hpp"

namespace lwmpi {

namespace {

Request* collective_request(Schedule* s, bool visible)
{
    Request* r = visible ? request_new() : request_alloc();
    if (!r)
        return nullptr;
    if (!visible)
        r->handle = MPI_REQUEST_NULL;
    r->comm = &s->comm();
    comm_retain(r->comm);
    r->type = MPI_BYTE;
    r->peer = MPI_PROC_NULL;
    r->schedule = s;
    r->collective = true;
    r->active = true;
    r->complete = false;
    // Joins the rank's active collectives, which every wait advances.
    r->next_collective = rank_context().collectives;
    rank_context().collectives = r;
    return r;
}

void unlink_collective(Request* r)
{
    for (Request** link = &rank_context().collectives; *link; link = &(*link)->next_collective)
        if (*link == r) {
            *link = r->next_collective;
            break;
        }
    r->next_collective = nullptr;
}

}  // namespace

bool collective_poll(Request* r)
{
    if (!r->complete && r->schedule->advance()) {
        status_empty(&r->status);
        r->error = r->status.MPI_ERROR = r->schedule->error();
        Schedule::destroy(r->schedule);
        r->schedule = nullptr;
        unlink_collective(r);
        r->complete = true;
    }
    return r->complete;
}

void collective_teardown(Request* r)
{
    if (!r->schedule)
        return;
    unlink_collective(r);
    Schedule::destroy(r->schedule);
    r->schedule = nullptr;
}

void collectives_progress()
{
    Request* r = rank_context().collectives;
    while (r) {
        Request* next = r->next_collective;  // r leaves the list when it completes
        collective_poll(r);
        r = next;
    }
}

int collectives_op_capacity()
{
    int n = 0;
    for (Request* r = rank_context().collectives; r; r = r->next_collective)
        n += r->schedule->capacity_ops();
    return n;
}

int collectives_pending_ops(mputil::Op** out)
{
    int n = 0;
    for (Request* r = rank_context().collectives; r; r = r->next_collective)
        n += r->schedule->pending_ops(out + n);
    return n;
}

int schedule_run(Schedule* s)
{
    int err = s->ready();
    Request* r = err == MPI_SUCCESS ? collective_request(s, false) : nullptr;
    if (!r) {
        Schedule::destroy(s);
        return err != MPI_SUCCESS ? err : MPI_ERR_NO_MEM;
    }
    request_wait(&r, 1, 1);
    err = r->error;
    request_teardown(r);
    request_free(r);
    return err;
}

int schedules_run(Schedule* const* s, int n)
{
    if (n > kMaxSchedulesRun) {
        for (int i = 0; i < n; i++)
            Schedule::destroy(s[i]);
        return MPI_ERR_INTERN;
    }
    Request* r[kMaxSchedulesRun] = {};
    int err = MPI_SUCCESS, started = 0;
    for (int i = 0; i < n; i++) {
        int ready = s[i]->ready();
        Request* q = ready == MPI_SUCCESS ? collective_request(s[i], false) : nullptr;
        if (!q) {  // the others still run: their peers wait for them
            Schedule::destroy(s[i]);
            if (err == MPI_SUCCESS)
                err = ready != MPI_SUCCESS ? ready : MPI_ERR_NO_MEM;
            continue;
        }
        r[started++] = q;
    }
    request_wait(r, started, started);
    for (int i = 0; i < started; i++) {
        if (err == MPI_SUCCESS)
            err = r[i]->error;
        request_teardown(r[i]);
        free(r[i]);
    }
    return err;
}

int schedule_start(Schedule* s, MPI_Request* request)
{
    int err = s->ready();
    Request* r = err == MPI_SUCCESS ? collective_request(s, true) : nullptr;
    if (!r) {
        Schedule::destroy(s);
        return err != MPI_SUCCESS ? err : MPI_ERR_NO_MEM;
    }
    collective_poll(r);  // the first round goes out now
    *request = r->handle;
    return MPI_SUCCESS;
}

}  // namespace lwmpi
