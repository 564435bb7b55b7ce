// Virtual syncs over the nodes' sync registers: ALL_TO_ONE (nodes[0] waits for all the
// others) and ONE_TO_ALL (nodes[1..] wait for nodes[0]). The port names the register.
#pragma once
#include "ikc/blocking.hpp"
#include "kernel/mm/user_addr.hpp"

namespace nvx::ikc {
i64 sync_create(u64 port, kernel::UserAddr nodes, u64 count, u64 type);
i64 sync_open(u64 port, kernel::UserAddr nodes, u64 count, u64 type);
CallResult sync_wait(Thread* t, u64 id);
CallResult sync_await(Thread* t, u64 id, kernel::UserAddr record);
i64 sync_signal(u64 id);
i64 sync_close(u64 id);
i64 sync_unlink(u64 id);
bool sync_describe_wait(const IkcOp* op, char* out, u64 size);  // the deadlock report
bool sync_poll();
void sync_reset();  // the program ended: drop its syncs
}  // namespace nvx::ikc
