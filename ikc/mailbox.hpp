// Virtual mailboxes: fixed-size messages to (node, port), multiplexed over each node's one
// hardware mailbox. Remote sends wait for the receiver's credit; local ones go through
// the kernel only. Kernel-core only.
#pragma once
#include "ikc/blocking.hpp"
#include "kernel/mm/user_addr.hpp"

namespace nvx::ikc {
i64 mailbox_create(u64 node, u64 port);
i64 mailbox_open(u64 node, u64 port);
CallResult mailbox_read(Thread* t, u64 id, kernel::UserAddr buffer, u64 size);
CallResult mailbox_write(Thread* t, u64 id, kernel::UserAddr buffer, u64 size);
i64 mailbox_close(u64 id);
// True while arrived messages wait in the hardware slots (no buffer was free for them).
bool mailbox_arrivals_held();
i64 mailbox_unlink(u64 id);
i64 mailbox_stats(u64 id, kernel::UserAddr address);
bool mailbox_poll();  // arrivals and credits; true if anything moved
void mailbox_reset();  // the program ended: its endpoints and sleepers go (arrived messages stay)
}  // namespace nvx::ikc
