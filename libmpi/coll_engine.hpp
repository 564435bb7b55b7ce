// The collective engine: a collective is a schedule, a list of steps built once when the
// call starts (so argument arrays are not needed afterwards) and run in order by whoever
// makes progress for the rank. Transfers start as they are reached; a fence waits until
// every started transfer completed; local steps (combine, copy) run when reached. Blocking
// collectives build the same schedule and run it to completion.
#pragma once

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "comm.hpp"
#include "config.hpp"
#include "request.hpp"

namespace lwmpi {

// Every schedule takes the next number of its communicator's sequence as its tag (the ranges
// are in config.hpp), so collectives started in the same order on every member never cross.
inline int schedule_tag(uint32_t sequence) { return 1 + static_cast<int>(sequence % kScheduleTags); }

enum class StepKind : uint8_t { Send, Recv, Fence, Combine, Copy, Move, Expand };

class Schedule;
// A step that produces its work when reached (Expand): `plan` is the builder's data, [first,
// last) the part of it this step covers. It starts transfers (Schedule::send_now/recv_now)
// or works locally; returns MPI_SUCCESS or an error. Schedules with one transfer per peer
// (all-to-all) stay small this way: no step per peer is stored.
using Expander = int (*)(Schedule& s, const void* plan, int first, int last);

// Built with designated initializers: a field a kind does not use keeps its default.
struct Step {
    StepKind kind = StepKind::Fence;
    int peer = 0;                 // Send, Recv
    const void* from = nullptr;   // Send: data; Combine: in; Copy, Move: source
    void* to = nullptr;           // Recv: buffer; Combine: inout; Copy, Move: destination
    int count = 0;                // of `type` at `from` (Send, Combine, Copy) or `to` (Recv)
    MPI_Datatype type = MPI_BYTE;
    int to_count = 0;             // Copy: room at `to`, in elements of to_type
    MPI_Datatype to_type = MPI_DATATYPE_NULL;
    MPI_Op op = MPI_OP_NULL;      // Combine
    bool prefix = false;          // Recv: of a message that may be longer (the rest is dropped)
    size_t bytes = 0;             // Move
    Expander expand = nullptr;    // Expand: plan in `from`, [peer, count) its range
};

class Schedule {
public:
    // A schedule on `comm` (retained), taking the next tag of its collective sequence.
    static Schedule* create(Comm& comm);  // nullptr when out of memory
    static void destroy(Schedule* s);     // after done() (or never started)

    Comm& comm() { return *comm_; }

    // Building. Out of memory while building is remembered and reported by ready().
    void send(int peer, const void* buf, int count, MPI_Datatype type);
    void recv(int peer, void* buf, int count, MPI_Datatype type);
    void send_bytes(int peer, const void* buf, size_t bytes);
    void recv_bytes(int peer, void* buf, size_t bytes);
    void fence();
    void combine(MPI_Op op, const void* in, void* inout, int count, MPI_Datatype type);  // inout = in op inout
    // Typed data to typed data (MPI_ERR_TRUNCATE if the room is smaller).
    void copy(const void* from, int count, MPI_Datatype type, void* to, int to_count,
              MPI_Datatype to_type);
    void move(const void* from, void* to, size_t bytes);  // raw bytes (scratch buffers)
    // A step that expands when reached into at most `transfers` transfers (see Expander).
    void expand(Expander fn, const void* plan, int first, int last, int transfers);
    // For expanders: start a transfer now (it joins the current round).
    void send_now(int peer, const void* buf, int count, MPI_Datatype type);
    void recv_now(int peer, void* buf, int count, MPI_Datatype type);
    // As recv_now, of a message that may be longer: its first bytes, the rest dropped
    // (no MPI_ERR_TRUNCATE).
    void recv_prefix_now(int peer, void* buf, int count, MPI_Datatype type);
    // For expanders: the next step to run is `step` (a loop back, when nothing is in flight:
    // after a fence). `position()` while building is the index the next step added gets.
    int position() const { return used_; }
    void repeat_from(int step) { next_ = step; }
    // Runs `fn(arg)` when the schedule is destroyed, whether it completed or not (the
    // builder's cleanup of what outlives the steps).
    void at_destroy(void (*fn)(void*), void* arg) { cleanup_ = fn; cleanup_arg_ = arg; }
    // Scratch memory owned by the schedule until it completes; nullptr when out of memory.
    void* scratch(size_t bytes);
    size_t scratch_bytes() const { return scratch_bytes_; }  // taken so far
    // Ends the building: MPI_SUCCESS or MPI_ERR_NO_MEM (then destroy it, nothing started).
    int ready();

    // Running. advance() runs steps until one waits; true once the schedule is done. Its
    // error: MPI_SUCCESS or the first one a step met (later steps are skipped).
    bool advance();
    bool done() const { return done_; }
    int error() const { return error_; }
    // The transport operations the schedule waits on now (at most capacity_ops()).
    int pending_ops(mputil::Op** out);
    int capacity_ops() const { return max_inflight_; }

private:
    void add(const Step& step);
    void start_transfer(const Step& step);
    void start_now(const Step& step);
    bool inflight_complete();
    void run_local(const Step& step);

    // All zero is the empty schedule: create() callocs it.
    Comm* comm_;
    int tag_;
    Step* steps_;
    int used_, capacity_, next_;
    int round_transfers_, max_inflight_;  // while building: transfers since the last fence
    Request* inflight_;
    int inflight_count_;
    bool waiting_;
    void** scratch_;
    int scratch_count_, scratch_capacity_;
    size_t scratch_bytes_;
    int error_;
    bool done_;
    void (*cleanup_)(void*);
    void* cleanup_arg_;
};

// The request of a started schedule. Blocking collectives run it here and return its error;
// nonblocking ones hand a program-visible request to the program. Either way the schedule
// is destroyed (taking `s`) whatever the result.
int schedule_run(Schedule* s);
int schedule_start(Schedule* s, MPI_Request* request);
// Runs n (at most kMaxSchedulesRun) schedules at once, each on its own tag, to the end of
// all of them: the blocking collectives whose phases overlap. Returns the first error.
constexpr int kMaxSchedulesRun = 4;
int schedules_run(Schedule* const* s, int n);

// What request.cpp asks of requests that carry a schedule (Request::schedule). Every wait
// advances all of the rank's active collectives and sleeps on their transfers too, so a
// collective progresses while its rank waits on anything.
bool collective_poll(Request* r);        // advances; true when complete (empty status)
void collective_teardown(Request* r);
void collectives_progress();
int collectives_op_capacity();           // bound of collectives_pending_ops' count
int collectives_pending_ops(mputil::Op** out);

}  // namespace lwmpi
