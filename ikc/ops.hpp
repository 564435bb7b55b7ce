// The IKC operations of the cluster's threads: one synchronous operation per thread, a
// bounded pool of asynchronous ones, how an operation completes, and the calls on
// asynchronous operations (NVX_SYS_IKC_WAIT, NVX_SYS_IKC_CANCEL). Kernel core only.
#pragma once
#include "ikc/ikc_op.hpp"
#include "kernel/sched/outcome.hpp"

namespace nvx::ikc {
// The operation of `t`'s synchronous call, begun for `kind`.
IkcOp* sync_op(kernel::Thread* t, OpKind kind);
// An asynchronous operation of `t` for `kind` reporting to the record at `record` (the
// caller's struct nvx_ikc_op, checked here), in `*out`; -EFAULT for a bad record, -EBUSY
// for a record already under way, -EAGAIN past the per-thread or per-cluster bound.
i64 async_op(kernel::Thread* t, OpKind kind, kernel::UserAddr record, IkcOp** out);
// The operation of a call of `t`: its synchronous one, or (`async`) a new one reporting to
// `record` (async_op's errors).
i64 call_op(kernel::Thread* t, OpKind kind, bool async, kernel::UserAddr record, IkcOp** out);
// Ends `op` with `result` at virtual time `at`: its synchronous caller wakes with it, or
// its record gets it (then its notify word and any wait of its owner). Frees `op`.
void complete(IkcOp* op, i64 result, u64 at);
// The call that began `op` ends now, `op` already complete with `result` at `at`: a
// synchronous call returns the result, an asynchronous start returns 0.
kernel::CallResult finish_in_call(IkcOp* op, i64 result, u64 at);
// The call that began `op` ends now with `op` under way: a synchronous caller sleeps.
kernel::CallResult leave_under_way(IkcOp* op);

kernel::CallResult ikc_wait(kernel::Thread* t, kernel::UserAddr list, u64 count);
kernel::CallResult ikc_cancel(kernel::Thread* t, kernel::UserAddr record);
// `t` ended: its operations not yet under way end with it (their records say -ECANCELED,
// their notify words are bumped), the others are forgotten when they complete.
void ops_thread_ended(kernel::Thread* t);
void ops_reset();  // the program ended
// Deadlock report: what `t`, asleep in an IKC call or in NVX_SYS_IKC_WAIT, waits for.
bool ops_describe_wait(const kernel::Thread* t, char* out, u64 size);
}  // namespace nvx::ikc
