// The IKC as a kernel module: its boot step, its poll in the core loop and its calls.
#include "ikc/mailbox.hpp"
#include "ikc/own_nodes.hpp"
#include "ikc/portal.hpp"
#include "ikc/sync.hpp"
#include "hal/noc/noc_driver.hpp"
#include "kernel/module.hpp"

namespace nvx::ikc {
namespace {
bool boot() { return attach_own_nodes(); }

bool poll() {
    bool moved = mailbox_poll();
    moved |= portal_poll();
    moved |= sync_poll();
    return moved;
}

void program_ended() {
    // A window still posted names the old program's pages; armed syncs would eat the
    // next program's signals: the engine forgets both.
    for (u32 i = 0; i < own_node_count(); i++) noc::forget_program(own_node(i).node);
    mailbox_reset();
    portal_reset();
    sync_reset();
}

Outcome call(kernel::Cpu&, Thread* t) {
    const u64* x = t->frame.x;
    u64 a0 = x[kernel::kA0], a1 = x[kernel::kA1], a2 = x[kernel::kA2], a3 = x[kernel::kA3];
    switch (x[kernel::kA7]) {
    case NVX_SYS_MAILBOX_CREATE: return finish(t, mailbox_create(a0, a1));
    case NVX_SYS_MAILBOX_OPEN: return finish(t, mailbox_open(a0, a1));
    case NVX_SYS_MAILBOX_READ: return mailbox_read(t, a0, a1, a2);
    case NVX_SYS_MAILBOX_WRITE: return mailbox_write(t, a0, a1, a2);
    case NVX_SYS_MAILBOX_CLOSE: return finish(t, mailbox_close(a0));
    case NVX_SYS_MAILBOX_UNLINK: return finish(t, mailbox_unlink(a0));
    case NVX_SYS_MAILBOX_STATS: return finish(t, mailbox_stats(a0, a1));
    case NVX_SYS_PORTAL_CREATE: return finish(t, portal_create(a0, a1));
    case NVX_SYS_PORTAL_ALLOW: return finish(t, portal_allow(a0, a1));
    case NVX_SYS_PORTAL_OPEN: return finish(t, portal_open(a0, a1));
    case NVX_SYS_PORTAL_READ: return portal_read(t, a0, a1, a2);
    case NVX_SYS_PORTAL_WRITE: return portal_write(t, a0, a1, a2);
    case NVX_SYS_PORTAL_CLOSE: return finish(t, portal_close(a0));
    case NVX_SYS_PORTAL_UNLINK: return finish(t, portal_unlink(a0));
    case NVX_SYS_PORTAL_STATS: return finish(t, portal_stats(a0, a1));
    case NVX_SYS_SYNC_CREATE: return sync_create(t, a0, a1, a2, a3);
    case NVX_SYS_SYNC_OPEN: return sync_open(t, a0, a1, a2, a3);
    case NVX_SYS_SYNC_WAIT: return sync_wait(t, a0);
    case NVX_SYS_SYNC_SIGNAL: return finish(t, sync_signal(a0));
    case NVX_SYS_SYNC_CLOSE: return finish(t, sync_close(a0));
    case NVX_SYS_SYNC_UNLINK: return finish(t, sync_unlink(a0));
    default: return finish(t, -NVX_ENOSYS);
    }
}
}  // namespace
}  // namespace nvx::ikc

NVX_KERNEL_MODULE(g_ikc_module) = {"ikc", nvx::ikc::boot, nvx::ikc::poll, NVX_SYS_MAILBOX_CREATE,
                                   NVX_SYS_SYNC_UNLINK, nvx::ikc::call, nvx::ikc::program_ended};
