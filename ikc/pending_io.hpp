// The IKC call a thread sleeps in: IKC's own per-thread state, in a table indexed by the
// thread's slot (kernel::thread_slot). Kernel core only.
#pragma once
#include "kernel/mm/user_addr.hpp"
#include "kernel/sched/thread.hpp"

namespace nvx::ikc {
struct PendingIo {
    u32 endpoint;    // the endpoint id
    kernel::UserAddr buffer;
    u64 size;        // bytes asked for
    u64 done;        // bytes moved so far
    u64 posted;      // bytes of the hardware request in flight
    const struct Endpoint* waiting_on;  // where it sleeps (set by sleep_on): the deadlock report
    kernel::UserAddr origin;  // mailbox read: where the sender's origin goes (null: not asked)
    bool nonblocking;         // mailbox write: fail rather than wait behind a refused message
    // Write: the virtual time it was ready to go. A retry (after a credit, an allow or room
    // at a local port) goes on from here, as the first attempt did, whichever the host ran
    // first.
    u64 ready_at;
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
        ready_at = 0;
    }
};

extern PendingIo g_pending_io[kernel::kMaxThreads];

inline PendingIo& io_of(const kernel::Thread* t) { return g_pending_io[kernel::thread_slot(t)]; }
}  // namespace nvx::ikc
