// Completion calls: Wait/Test and their any/all/some forms, Request_get_status,
// Request_free, Cancel. A completed request is reported once: its status goes to the
// program, then it is freed (or, if persistent, becomes inactive).
#include <stdlib.h>

#include "api.hpp"
#include "comm.hpp"
#include "env.hpp"
#include "errhandler.hpp"
#include "request.hpp"

namespace lwmpi {

namespace {

constexpr int kStackRequests = 64;

// Looks up every handle: null and inactive requests become nullptr. Returns MPI_SUCCESS or
// MPI_ERR_REQUEST (an invalid handle); *active counts the rest.
int collect(int n, const MPI_Request* handles, Request** out, int* active)
{
    *active = 0;
    for (int i = 0; i < n; i++) {
        out[i] = nullptr;
        if (handles[i] == MPI_REQUEST_NULL)
            continue;
        Request* r = request_get(handles[i]);
        if (!r)
            return MPI_ERR_REQUEST;
        if (r->active) {
            out[i] = r;
            (*active)++;
        }
    }
    return MPI_SUCCESS;
}

// Scratch for `n` request pointers: on the stack for small n.
struct Scratch {
    Request* stack[kStackRequests];
    Request** list;
    explicit Scratch(int n)
        : list(n <= kStackRequests ? stack : static_cast<Request**>(malloc(sizeof(Request*) * n)))
    {
    }
    ~Scratch()
    {
        if (list != stack)
            free(list);
    }
};

// Reports a complete request: status, then free or deactivate. Returns its error, and the
// handle of its communicator for the error handler.
int report(Request* r, MPI_Request* handle, MPI_Status* status, MPI_Comm* comm)
{
    if (status != MPI_STATUS_IGNORE)
        status_report(status, r->status);
    int err = r->error;
    *comm = r->comm->handle;
    if (r->persistent) {
        request_reported(r);
    } else {
        request_teardown(r);
        request_delete(r);
        *handle = MPI_REQUEST_NULL;
    }
    return err;
}

MPI_Status* status_at(MPI_Status* statuses, int i)
{
    return statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
}

// The entry of the array forms: the array, the call's other arguments (`args_ok`), then every
// handle looked up into `s`. Returns false when the call ends here, with its result in *err.
bool enter_array(int count, MPI_Request* requests, bool args_ok, Scratch& s,
                 int* active, int* err)
{
    *err = check_request_array(count, requests);
    if (*err == MPI_SUCCESS && !args_ok)
        *err = MPI_ERR_ARG;
    if (*err == MPI_SUCCESS && !s.list)
        *err = MPI_ERR_NO_MEM;
    if (*err == MPI_SUCCESS)
        *err = collect(count, requests, s.list, active);
    if (*err != MPI_SUCCESS)
        *err = fail(MPI_COMM_WORLD, *err);
    return *err == MPI_SUCCESS;
}

// The result of a call on no active request: an empty status, and complete.
int nothing_active(MPI_Status* status, int* flag)
{
    if (status != MPI_STATUS_IGNORE)
        status_empty(status);
    if (flag)
        *flag = 1;
    return MPI_SUCCESS;
}

// Reports every complete request of `list` (Waitall, Testall, Waitsome, Testsome). With
// `indices`, the reported positions are listed there (compacting statuses); returns the
// number reported through *reported and MPI_ERR_IN_STATUS if any failed. The statuses'
// MPI_ERROR fields are written if and only if the call returns MPI_ERR_IN_STATUS (3.2.5).
int report_complete(int count, MPI_Request* handles, Request** list, MPI_Status* statuses,
                    int* indices, int* reported)
{
    bool any_failed = false;
    for (int i = 0; i < count; i++)
        any_failed |= list[i] && list[i]->complete && list[i]->error != MPI_SUCCESS;
    int n = 0, failed = 0;
    MPI_Comm failed_comm = MPI_COMM_WORLD;
    for (int i = 0; i < count; i++) {
        Request* r = list[i];
        if (!r || !r->complete)
            continue;
        int slot = indices ? n : i;
        MPI_Status* s = status_at(statuses, slot);
        MPI_Comm comm;
        int err = report(r, &handles[i], s, &comm);
        if (s != MPI_STATUS_IGNORE && any_failed)
            s->MPI_ERROR = err;
        if (err != MPI_SUCCESS && failed++ == 0)
            failed_comm = comm;
        if (indices)
            indices[n] = i;
        n++;
    }
    *reported = n;
    return failed ? fail(failed_comm, MPI_ERR_IN_STATUS) : MPI_SUCCESS;
}

// Waitall / Testall on the requests not reported: statuses of null and inactive requests
// are empty.
void empty_statuses(int count, Request** list, MPI_Status* statuses)
{
    if (statuses == MPI_STATUSES_IGNORE)
        return;
    for (int i = 0; i < count; i++)
        if (!list[i])
            status_empty(&statuses[i]);
}

int single(MPI_Request* request, MPI_Status* status, bool block, int* flag)
{
    if (!request || (!block && !flag))
        return fail(MPI_COMM_WORLD, MPI_ERR_ARG);
    Request* r = nullptr;
    int active = 0;
    int err = collect(1, request, &r, &active);
    if (err != MPI_SUCCESS)
        return fail(MPI_COMM_WORLD, err);
    if (!r)
        return nothing_active(status, flag);
    if (block)
        request_wait(&r, 1, 1);
    else if (!request_poll(r)) {
        *flag = 0;
        mputil::poll_idle();
        return MPI_SUCCESS;
    }
    if (flag)
        *flag = 1;
    MPI_Comm comm;
    err = report(r, request, status, &comm);
    return err == MPI_SUCCESS ? err : fail(comm, err);
}

int any(int count, MPI_Request* requests, int* index, MPI_Status* status, bool block, int* flag)
{
    Scratch s(count);
    int active, err;
    if (!enter_array(count, requests, index && (block || flag), s, &active, &err))
        return err;
    *index = MPI_UNDEFINED;
    if (active == 0)
        return nothing_active(status, flag);
    if (block)
        request_wait(s.list, count, 1);
    for (int i = 0; i < count; i++) {
        if (s.list[i] && request_poll(s.list[i])) {
            *index = i;
            if (flag)
                *flag = 1;
            MPI_Comm comm;
            err = report(s.list[i], &requests[i], status, &comm);
            return err == MPI_SUCCESS ? err : fail(comm, err);
        }
    }
    *flag = 0;  // only Testany gets here
    mputil::poll_idle();
    return MPI_SUCCESS;
}

int all(int count, MPI_Request* requests, MPI_Status* statuses, bool block, int* flag)
{
    Scratch s(count);
    int active, err;
    if (!enter_array(count, requests, block || flag, s, &active, &err))
        return err;
    if (block) {
        request_wait(s.list, count, active);
    } else {
        int done = 0;
        for (int i = 0; i < count; i++)
            done += s.list[i] && request_poll(s.list[i]);
        *flag = done == active;
        if (done != active) {
            mputil::poll_idle();
            return MPI_SUCCESS;  // Testall reports nothing until everything is complete
        }
    }
    empty_statuses(count, s.list, statuses);
    int reported;
    return report_complete(count, requests, s.list, statuses, nullptr, &reported);
}

int some(int incount, MPI_Request* requests, int* outcount, int* indices, MPI_Status* statuses,
         bool block)
{
    Scratch s(incount);
    int active, err;
    if (!enter_array(incount, requests, outcount && (incount == 0 || indices), s, &active, &err))
        return err;
    if (active == 0) {
        *outcount = MPI_UNDEFINED;
        return MPI_SUCCESS;
    }
    if (block)
        request_wait(s.list, incount, 1);
    for (int i = 0; i < incount; i++)
        if (s.list[i])
            request_poll(s.list[i]);
    err = report_complete(incount, requests, s.list, statuses, indices, outcount);
    if (*outcount == 0)
        mputil::poll_idle();
    return err;
}

}  // namespace

}  // namespace lwmpi

using namespace lwmpi;

int api::Wait(MPI_Request* request, MPI_Status* status)
{
    return single(request, status, true, nullptr);
}

int api::Test(MPI_Request* request, int* flag, MPI_Status* status)
{
    return single(request, status, false, flag);
}

int api::Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status)
{
    return any(count, requests, index, status, true, nullptr);
}

int api::Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status)
{
    return any(count, requests, index, status, false, flag);
}

int api::Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
    return all(count, requests, statuses, true, nullptr);
}

int api::Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[])
{
    return all(count, requests, statuses, false, flag);
}

int api::Waitsome(int incount, MPI_Request requests[], int* outcount, int indices[],
                            MPI_Status statuses[])
{
    return some(incount, requests, outcount, indices, statuses, true);
}

int api::Testsome(int incount, MPI_Request requests[], int* outcount, int indices[],
                            MPI_Status statuses[])
{
    return some(incount, requests, outcount, indices, statuses, false);
}

int api::Request_get_status(MPI_Request request, int* flag, MPI_Status* status)
{
    if (!flag)
        return fail(MPI_COMM_WORLD, MPI_ERR_ARG);
    Request* r = nullptr;
    int active;
    int err = collect(1, &request, &r, &active);
    if (err != MPI_SUCCESS)
        return fail(MPI_COMM_WORLD, err);
    if (!r)
        return nothing_active(status, flag);
    *flag = request_poll(r);
    if (!*flag)
        mputil::poll_idle();
    if (*flag && status != MPI_STATUS_IGNORE)
        status_report(status, r->status);  // the request itself stays as it is
    return MPI_SUCCESS;
}

int api::Request_free(MPI_Request* request)
{
    if (!request)
        return fail(MPI_COMM_WORLD, MPI_ERR_ARG);
    Request* r = request_get(*request);
    if (!r)
        return fail(MPI_COMM_WORLD, MPI_ERR_REQUEST);
    if (r->active && !request_poll(r)) {
        request_detach(r);  // the operation still completes; MPI_Finalize waits for it
    } else {
        request_teardown(r);
        request_delete(r);
    }
    *request = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
}

int api::Cancel(MPI_Request* request)
{
    if (!request)
        return fail(MPI_COMM_WORLD, MPI_ERR_ARG);
    Request* r = request_get(*request);
    // A collective's request cannot be cancelled (MPI 3.1 section 5.12 makes it erroneous).
    if (!r || !r->active || r->collective)
        return fail(MPI_COMM_WORLD, MPI_ERR_REQUEST);
    // A receive that has not matched is removed; anything else completes normally, which
    // the standard allows (the program learns it through MPI_Test_cancelled).
    request_cancel(r);
    return MPI_SUCCESS;
}
