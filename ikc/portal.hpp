// Virtual portals: bulk data to (node, port). A receiver allows one sender and reads; the
// engine copies straight between the two user buffers, page by page, at most 4 KiB per
// hardware transfer. Each node's one hardware portal serves one read at a time; the other
// readers sleep in order. Kernel-core only.
#pragma once
#include "ikc/blocking.hpp"
#include "kernel/mm/user_addr.hpp"

namespace nvx::ikc {
i64 portal_create(u64 node, u64 port);
i64 portal_allow(u64 id, u64 remote_node);
i64 portal_open(u64 node, u64 port);
CallResult portal_read(Thread* t, u64 id, kernel::UserAddr buffer, u64 size);
CallResult portal_write(Thread* t, u64 id, kernel::UserAddr buffer, u64 size);
// Asynchronous: the result goes to the caller's struct nvx_ikc_op at `record`.
CallResult portal_aread(Thread* t, u64 id, kernel::UserAddr buffer, u64 size, kernel::UserAddr record);
CallResult portal_awrite(Thread* t, u64 id, kernel::UserAddr buffer, u64 size, kernel::UserAddr record);
// Read `op` was cancelled before anything moved: the node's next read may start.
void portal_reader_gone(IkcOp* op);
i64 portal_close(u64 id);
i64 portal_unlink(u64 id);
i64 portal_stats(u64 id, kernel::UserAddr address);
bool portal_describe_wait(const IkcOp* op, char* out, u64 size);  // the deadlock report
bool portal_poll();
void portal_reset();  // the program ended: drop its endpoints and waiting operations
}  // namespace nvx::ikc
