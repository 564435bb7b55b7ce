// Virtual mailboxes: fixed-size messages to (node, port), multiplexed over each node's one
// hardware mailbox. Remote sends wait for the receiver's credit; a message its port cannot
// take is refused back and kept by the sending kernel until that port drains (flow control
// per port). Local ones go through the kernel only. Kernel-core only.
#pragma once
#include "ikc/blocking.hpp"
#include "kernel/mm/user_addr.hpp"

namespace nvx::ikc {
i64 mailbox_create(u64 node, u64 port);
i64 mailbox_open(u64 node, u64 port);
CallResult mailbox_read(Thread* t, u64 id, kernel::UserAddr buffer, u64 size, kernel::UserAddr origin);
CallResult mailbox_write(Thread* t, u64 id, kernel::UserAddr buffer, u64 size, u64 flags);
// Asynchronous: the result goes to the caller's struct nvx_ikc_op at `record`.
CallResult mailbox_aread(Thread* t, u64 id, kernel::UserAddr buffer, u64 size, kernel::UserAddr record);
CallResult mailbox_awrite(Thread* t, u64 id, kernel::UserAddr buffer, u64 size, kernel::UserAddr record);
// Receive rings (nvx_abi.h, struct nvx_mailbox_ring): attach (or, ring null, detach) and refill.
CallResult mailbox_ring(Thread* t, u64 id, kernel::UserAddr ring);
i64 mailbox_ring_refill(u64 id);
void mailbox_thread_ended(const Thread* t);  // the rings it attached go
i64 mailbox_close(u64 id);
// True when the mailboxes must be looked at although the engine raised nothing (a refused
// message waits for room among the held ones, or the program just ended).
bool mailbox_needs_poll();
i64 mailbox_unlink(u64 id);
i64 mailbox_stats(u64 id, kernel::UserAddr address);
bool mailbox_describe_wait(const IkcOp* op, char* out, u64 size);  // the deadlock report
void mailbox_report();  // the deadlock report: ports with messages unread, rings, waiting sends
bool mailbox_poll();  // arrivals and credits; true if anything moved
void mailbox_reset();  // the program ended: its endpoints and sleepers go (arrived messages stay)
}  // namespace nvx::ikc
