// The collective engine: building and running schedules (see coll_engine.hpp).
#include "coll_engine.hpp"

#include <stdlib.h>
#include <string.h>

#include "coll_check.hpp"
#include "datatype.hpp"
#include "op.hpp"

namespace lwmpi {

Schedule* Schedule::create(Comm& comm)
{
    Schedule* s = static_cast<Schedule*>(calloc(1, sizeof(Schedule)));
    if (!s)
        return nullptr;
    s->comm_ = &comm;
    comm_retain(&comm);
    s->tag_ = schedule_tag(comm.coll_sequence++);
    return s;
}

void Schedule::destroy(Schedule* s)
{
    if (!s)
        return;
    if (s->cleanup_)
        s->cleanup_(s->cleanup_arg_);
    for (int i = 0; i < s->used_; i++) {
        type_release(s->steps_[i].type);
        if (s->steps_[i].kind == StepKind::Copy)
            type_release(s->steps_[i].to_type);
    }
    for (int i = 0; i < s->scratch_count_; i++)
        free(s->scratch_[i]);
    free(s->scratch_);
    free(s->steps_);
    free(s->inflight_);
    comm_release(s->comm_);
    free(s);
}

void Schedule::add(const Step& step)
{
    if (error_ != MPI_SUCCESS)
        return;
    if (used_ == capacity_) {
        int grown = capacity_ ? 2 * capacity_ : 16;
        Step* more = static_cast<Step*>(realloc(steps_, sizeof(Step) * grown));
        if (!more) {
            error_ = MPI_ERR_NO_MEM;
            return;
        }
        steps_ = more;
        capacity_ = grown;
    }
    steps_[used_++] = step;
    // A derived type may be freed by the program while the schedule still holds it.
    type_retain(step.type);
    if (step.kind == StepKind::Copy)
        type_retain(step.to_type);
    int transfers = step.kind == StepKind::Send || step.kind == StepKind::Recv ? 1
                    : step.kind == StepKind::Expand                         ? step.to_count
                                                                            : 0;
    if (transfers > 0) {
        round_transfers_ += transfers;
        if (round_transfers_ > max_inflight_)
            max_inflight_ = round_transfers_;
    } else if (step.kind == StepKind::Fence) {
        round_transfers_ = 0;
    }
}

void Schedule::send(int peer, const void* buf, int count, MPI_Datatype type)
{
    add(Step{.kind = StepKind::Send, .peer = peer, .from = buf, .count = count, .type = type});
}

void Schedule::recv(int peer, void* buf, int count, MPI_Datatype type)
{
    add(Step{.kind = StepKind::Recv, .peer = peer, .to = buf, .count = count, .type = type});
}

// Byte counts above INT_MAX would need pieces; the boards' memories are far below that.
void Schedule::send_bytes(int peer, const void* buf, size_t bytes)
{
    send(peer, buf, static_cast<int>(bytes), MPI_BYTE);
}

void Schedule::recv_bytes(int peer, void* buf, size_t bytes)
{
    recv(peer, buf, static_cast<int>(bytes), MPI_BYTE);
}

void Schedule::fence()
{
    add(Step{.kind = StepKind::Fence, .type = MPI_BYTE});
}

void Schedule::combine(MPI_Op op, const void* in, void* inout, int count, MPI_Datatype type)
{
    add(Step{.kind = StepKind::Combine, .from = in, .to = inout, .count = count, .type = type,
             .op = op});
}

void Schedule::copy(const void* from, int count, MPI_Datatype type, void* to, int to_count,
                    MPI_Datatype to_type)
{
    add(Step{.kind = StepKind::Copy, .from = from, .to = to, .count = count, .type = type,
             .to_count = to_count, .to_type = to_type});
}

void Schedule::move(const void* from, void* to, size_t bytes)
{
    add(Step{.kind = StepKind::Move, .from = from, .to = to, .type = MPI_BYTE, .bytes = bytes});
}

void Schedule::expand(Expander fn, const void* plan, int first, int last, int transfers)
{
    add(Step{.kind = StepKind::Expand, .peer = first, .from = plan, .count = last, .type = MPI_BYTE,
             .to_count = transfers, .expand = fn});
}

void Schedule::send_now(int peer, const void* buf, int count, MPI_Datatype type)
{
    start_now(Step{.kind = StepKind::Send, .peer = peer, .from = buf, .count = count,
                   .type = type});
}

void Schedule::recv_now(int peer, void* buf, int count, MPI_Datatype type)
{
    start_now(Step{.kind = StepKind::Recv, .peer = peer, .to = buf, .count = count, .type = type});
}

void Schedule::recv_prefix_now(int peer, void* buf, int count, MPI_Datatype type)
{
    start_now(Step{.kind = StepKind::Recv, .peer = peer, .to = buf, .count = count, .type = type, .prefix = true});
}

void Schedule::start_now(const Step& s)
{
    if (error_ != MPI_SUCCESS)
        return;
    if (inflight_count_ == max_inflight_) {  // an expander started more than it declared
        error_ = MPI_ERR_INTERN;
        return;
    }
    start_transfer(s);
}

void* Schedule::scratch(size_t bytes)
{
    if (error_ != MPI_SUCCESS)
        return nullptr;
    if (scratch_count_ == scratch_capacity_) {
        int grown = scratch_capacity_ ? 2 * scratch_capacity_ : 4;
        void** more = static_cast<void**>(realloc(scratch_, sizeof(void*) * grown));
        if (!more) {
            error_ = MPI_ERR_NO_MEM;
            return nullptr;
        }
        scratch_ = more;
        scratch_capacity_ = grown;
    }
    void* p = malloc(bytes > 0 ? bytes : 1);
    if (!p) {
        error_ = MPI_ERR_NO_MEM;
        return nullptr;
    }
    scratch_[scratch_count_++] = p;
    scratch_bytes_ += bytes;
    return p;
}

int Schedule::ready()
{
    if (error_ == MPI_SUCCESS && max_inflight_ > 0 && !inflight_) {
        inflight_ = static_cast<Request*>(calloc(max_inflight_, sizeof(Request)));
        if (!inflight_)
            error_ = MPI_ERR_NO_MEM;
    }
    return error_;
}

void Schedule::start_transfer(const Step& step)
{
    Request* r = &inflight_[inflight_count_];
    bool is_send = step.kind == StepKind::Send;
    request_setup(r, is_send, mputil::SendMode::Standard, comm_, coll_context(*comm_),
                  is_send ? step.from : step.to, step.count, step.type, step.peer, tag_);
    int err = request_start(r);
    if (err != MPI_SUCCESS) {
        request_teardown(r);
        error_ = err;
        return;
    }
    r->prefix = step.prefix;
    inflight_count_++;
}

bool Schedule::inflight_complete()
{
    // Poll every transfer (not just up to the first unfinished one): a finished one left
    // unpolled would end every later sleep on it at once.
    bool all = true;
    for (int i = 0; i < inflight_count_; i++)
        all &= request_poll(&inflight_[i]);
    if (!all)
        return false;
    for (int i = 0; i < inflight_count_; i++) {
        int err = inflight_[i].error;
        if (err != MPI_SUCCESS && !(err == MPI_ERR_TRUNCATE && inflight_[i].prefix) && error_ == MPI_SUCCESS)
            error_ = err;
        request_teardown(&inflight_[i]);
    }
    inflight_count_ = 0;
    return true;
}

namespace {

// Typed data to typed data without a staging copy when either side is one dense block.
int typed_copy(const Step& s)
{
    size_t size = static_cast<size_t>(type_size(s.type)) * static_cast<size_t>(s.count);
    size_t room = static_cast<size_t>(type_size(s.to_type)) * static_cast<size_t>(s.to_count);
    size_t moved = size < room ? size : room;
    if (type_is_contiguous(s.type))
        unpack_bytes(s.to_type, static_cast<const char*>(s.from) + type_lb(s.type), moved, s.to,
                     s.to_count);
    else if (type_is_contiguous(s.to_type))
        pack_range(s.type, s.from, s.count, 0, moved, static_cast<char*>(s.to) + type_lb(s.to_type));
    else
        return local_copy(s.from, s.count, s.type, s.to, s.to_count, s.to_type);
    return size > room ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
}

}  // namespace

void Schedule::run_local(const Step& step)
{
    int err = MPI_SUCCESS;
    switch (step.kind) {
    case StepKind::Combine: err = op_apply(step.op, step.from, step.to, step.count, step.type); break;
    case StepKind::Copy: err = typed_copy(step); break;
    case StepKind::Move: memmove(step.to, step.from, step.bytes); break;
    case StepKind::Expand: err = step.expand(*this, step.from, step.peer, step.count); break;
    default: break;
    }
    if (err != MPI_SUCCESS && error_ == MPI_SUCCESS)
        error_ = err;
}

bool Schedule::advance()
{
    while (!done_) {
        if (waiting_) {
            if (!inflight_complete())
                return false;
            waiting_ = false;
        }
        if (error_ != MPI_SUCCESS || next_ == used_) {
            // The end, or an error: nothing new starts, but what started must finish first.
            if (inflight_count_ > 0) {
                waiting_ = true;
                continue;
            }
            done_ = true;
            break;
        }
        const Step& step = steps_[next_++];
        switch (step.kind) {
        case StepKind::Send:
        case StepKind::Recv: start_transfer(step); break;
        case StepKind::Fence: waiting_ = inflight_count_ > 0; break;
        default: run_local(step); break;
        }
    }
    return true;
}

int Schedule::pending_ops(mputil::Op** out)
{
    int n = 0;
    for (int i = 0; i < inflight_count_; i++)
        if (!inflight_[i].complete && inflight_[i].op)
            out[n++] = inflight_[i].op;
    return n;
}

}  // namespace lwmpi
