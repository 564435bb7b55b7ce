// One IKC read or write in progress. A synchronous call's operation sleeps with its thread
// (one per thread, so a call never fails for want of room); an asynchronous one lets its
// thread go on and writes the result to the thread's record (struct nvx_ikc_op, nvx_abi.h)
// when it completes. The endpoints' wait queues hold operations, not threads. Kernel core only.
#pragma once
#include "ikc/ikc_clock.hpp"
#include "kernel/mm/user_addr.hpp"
#include "kernel/sched/thread.hpp"
#include "support/intrusive_queue.hpp"

namespace nvx::ikc {
struct Endpoint;
struct IkcOp;
using OpQueue = IntrusiveQueue<IkcOp>;

enum class OpKind : u8 { MailboxRead, MailboxWrite, PortalRead, PortalWrite, SyncWait };

struct IkcOp {
    kernel::Thread* owner;
    u64 owner_id;       // the thread's id: a slot's next thread is another owner
    OpKind kind;
    bool async;         // the owner goes on; the result lands in `record`
    bool orphaned;      // the owner ended while the NoC moved it: the result goes nowhere
    bool waited;        // the owner sleeps in NVX_SYS_IKC_WAIT, with it at `wait_index`
    u32 wait_index;
    kernel::UserAddr record;  // async: the owner's struct nvx_ikc_op
    kernel::UserAddr notify;  // async: futex word bumped and woken at completion (or null)
    bool notify_untimed;      // ... its waiters keep their own time
    OpClock clock;      // when it was asked, started, ready (the virtual time it goes on from)
    OpQueue* queue;     // the wait queue it sits in, or null
    IkcOp* next;        // link in that queue

    // The call itself.
    u32 endpoint;       // the endpoint id
    kernel::UserAddr buffer;
    u64 size;           // bytes asked for
    u64 done;           // bytes moved so far
    u64 posted;         // bytes of the hardware request in flight
    Endpoint* waiting_on;        // where it waits (its endpoint's count, the deadlock report)
    kernel::UserAddr origin;     // mailbox read: where the sender's origin goes (null: not asked)
    bool nonblocking;            // mailbox write: fail rather than wait behind a refused message
    // Outgoing message or posted portal window; in kernel memory, so physically contiguous.
    alignas(16) u8 staging[256];

    // Starts a new call; the staging area is left alone (it may already hold the message).
    void begin(u32 id, kernel::UserAddr user_buffer, u64 bytes) {
        endpoint = id;
        buffer = user_buffer;
        size = bytes;
        done = posted = 0;
        origin = kernel::UserAddr{};
        nonblocking = false;
        clock.ready = 0;
        waiting_on = nullptr;
    }
    // True while nothing of it has moved: it may still be cancelled.
    bool cancellable() const { return queue != nullptr && done == 0 && posted == 0; }
};
}  // namespace nvx::ikc
