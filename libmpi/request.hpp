// Requests: one point-to-point operation of a communicator, on the transport (mputil). The
// MPI calls (Isend, Wait, ...) and the collectives share this code; collectives use
// requests that have no handle, on the communicator's collective context. A nonblocking
// collective is a request that carries a schedule.
#pragma once

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include <mputil/mputil.hpp>

namespace lwmpi {

struct Comm;
class Schedule;

struct Request {
    MPI_Request handle;       // MPI_REQUEST_NULL for the library's own requests
    bool is_send;
    bool persistent;          // Send_init / Recv_init: survives completion, restarted by Start
    bool active;              // started and not yet reported complete
    bool complete;            // the operation finished; status and error are final
    bool collective;          // a nonblocking collective (it cannot be cancelled)
    bool prefix;              // a schedule's receive of a message's first bytes (no truncation error)
    mputil::SendMode mode;
    Comm* comm;               // retained while the request lives
    uint32_t context;
    void* buf;
    int count;
    MPI_Datatype type;
    int peer;                 // communicator rank, MPI_ANY_SOURCE or MPI_PROC_NULL
    int tag;                  // or MPI_ANY_TAG
    void* staging;            // packed bytes of non-contiguous data while in flight
    mputil::Op* op;
    mputil::Message* message; // MPI_Imrecv / MPI_Mrecv: the matched message it receives
    MPI_Status status;
    int error;                // MPI_SUCCESS or MPI_ERR_TRUNCATE once complete
    Request* next_detached;
    Schedule* schedule;       // a collective's (coll_engine.hpp); nullptr for point-to-point
    Request* next_collective; // the rank's active collectives
};

// Describes an operation; nothing is started yet. The request retains `comm`.
void request_setup(Request* r, bool is_send, mputil::SendMode mode, Comm* comm, uint32_t context,
                   const void* buf, int count, MPI_Datatype type, int peer, int tag);
void request_teardown(Request* r);  // releases what request_setup took (after completion)

int request_start(Request* r);      // MPI_SUCCESS, or MPI_ERR_NO_MEM (nothing started)
bool request_poll(Request* r);      // progresses; true when complete
// Blocks (in the kernel) until at least `need` of the active requests are complete.
void request_wait(Request* const* reqs, int n, int need);
// Blocks (in the kernel) until `end` is met (a counter the ranks of the cluster share reached
// its target, or a leader sync fired), making progress meanwhile as request_wait does (the
// rank's transfers and its active collectives); whoever moves a counter wakes the rank
// (mputil::wake_rank), a sync's firing rings its doorbell.
void request_wait_until(const mputil::WaitEnd& end);
// Starts `r`, waits for it and reports its status: the blocking calls. Returns its error.
int request_run(Request* r, MPI_Status* status);
void request_reported(Request* r);  // its completion was returned to the program: inactive
bool request_cancel(Request* r);    // receives only; true if removed before matching

// The status of a request that is null or inactive, and of an operation with MPI_PROC_NULL.
void status_empty(MPI_Status* s);
void status_proc_null(MPI_Status* s);
// Copies what the program sees of `from` (MPI_ERROR is set by the multi-completion calls).
void status_report(MPI_Status* to, const MPI_Status& from);

// A zeroed request and its release (after teardown), from the rank's spare ones when it
// has some: the library's own requests. nullptr if no memory.
Request* request_alloc();
void request_free(Request* r);

// Handles of program-visible requests.
Request* request_new();             // zeroed, registered under a handle; nullptr if no memory
Request* request_get(MPI_Request handle);
// An array argument of `count` handles: MPI_ERR_COUNT, MPI_ERR_ARG (missing) or MPI_SUCCESS.
int check_request_array(int count, const MPI_Request* handles);
void request_delete(Request* r);    // unregisters and frees (after teardown)
// MPI_Request_free of an active request: it completes in the background; Finalize waits.
void request_detach(Request* r);
void request_drain_detached();
void request_finalize();            // MPI_Finalize: forgets every handle

}  // namespace lwmpi
