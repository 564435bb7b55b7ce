// The IKC as a kernel module: its boot step, its poll in the core loop and its calls.
#include "kernel/console.hpp"
#include "support/format.hpp"
#include "ikc/mailbox.hpp"
#include "ikc/noc_selftest.hpp"
#include "ikc/ops.hpp"
#include "ikc/own_nodes.hpp"
#include "ikc/portal.hpp"
#include "ikc/sync.hpp"
#include "hal/noc/noc_driver.hpp"
#include "kernel/module.hpp"
#include "support/atomic.hpp"

namespace nvx::ikc {
bool describe_endpoint_wait(const Endpoint& e, const char* kind, char* out, u64 size) {
    if (e.direction == Direction::Output)
        format(out, size, "%s write to node %u port %u", kind, e.remote_node, e.remote_port);
    else if (e.allowed)
        format(out, size, "%s read on node %u port %u (sender node %u)", kind, e.node, e.port, e.remote_node);
    else
        format(out, size, "%s %s on node %u port %u", kind, e.sync_nodes != 0 ? "wait" : "read", e.node, e.port);
    return true;
}

bool describe_op_wait(const IkcOp* op, char* out, u64 size) {
    return mailbox_describe_wait(op, out, size) || portal_describe_wait(op, out, size) || sync_describe_wait(op, out, size);
}

namespace {
bool boot() { return attach_own_nodes(); }

// Looks at the event areas only when the engine raised an event since the last look, or
// the mailboxes ask for it (mailbox_needs_poll); portals and syncs only when one of
// their event words is set (the engine sets it before `raised`).
bool poll() {
    bool raised = false, portal = false, sync = false;
    for (u32 i = 0; i < own_node_count(); i++) {
        noc::EventArea* e = own_node(i).events;
        if (atomic::exchange_acq_rel(&e->raised, u64{0}) == 0) continue;
        raised = true;
        portal |= (atomic::load_acquire(&e->portal_ready) | atomic::load_acquire(&e->portal_done)) != 0;
        sync |= atomic::load_acquire(&e->sync_fired) != 0;
    }
    if (!raised && !mailbox_needs_poll()) return false;
    bool moved = mailbox_poll();
    if (portal) moved |= portal_poll();
    if (sync) moved |= sync_poll();
    return moved;
}

bool describe_wait(const Thread* t, char* out, u64 size) { return ops_describe_wait(t, out, size); }

void thread_ended(Thread* t) {
    ops_thread_ended(t);
    mailbox_thread_ended(t);
}

void program_ended() {
    // A window still posted names the old program's pages; armed syncs would eat the
    // next program's signals: the engine forgets both.
    for (u32 i = 0; i < own_node_count(); i++) {
        sbi::Result r = noc::forget_program(own_node(i).node);
        if (r.error != sbi::kSuccess) kernel::panic("NoC engine refused to forget node %u (%ld)", own_node(i).node, r.error);
    }
    mailbox_reset();
    portal_reset();
    sync_reset();
    ops_reset();
}

using kernel::call_with;

// Every IKC call touches endpoint state shared by the cluster: all run on the kernel core.
constexpr kernel::RunsOn kCore = kernel::RunsOn::KernelCore;
const kernel::KernelCall kCalls[] = {
    {NVX_SYS_MAILBOX_CREATE, kCore, call_with<mailbox_create>}, {NVX_SYS_MAILBOX_OPEN, kCore, call_with<mailbox_open>},
    {NVX_SYS_MAILBOX_READ, kCore, call_with<mailbox_read>},     {NVX_SYS_MAILBOX_WRITE, kCore, call_with<mailbox_write>},
    {NVX_SYS_MAILBOX_CLOSE, kCore, call_with<mailbox_close>},   {NVX_SYS_MAILBOX_UNLINK, kCore, call_with<mailbox_unlink>},
    {NVX_SYS_MAILBOX_STATS, kCore, call_with<mailbox_stats>},   {NVX_SYS_PORTAL_CREATE, kCore, call_with<portal_create>},
    {NVX_SYS_MAILBOX_AREAD, kCore, call_with<mailbox_aread>},   {NVX_SYS_MAILBOX_AWRITE, kCore, call_with<mailbox_awrite>},
    {NVX_SYS_PORTAL_AREAD, kCore, call_with<portal_aread>},     {NVX_SYS_PORTAL_AWRITE, kCore, call_with<portal_awrite>},
    {NVX_SYS_IKC_WAIT, kCore, call_with<ikc_wait>},             {NVX_SYS_IKC_CANCEL, kCore, call_with<ikc_cancel>},
    {NVX_SYS_MAILBOX_RING, kCore, call_with<mailbox_ring>},     {NVX_SYS_MAILBOX_RING_REFILL, kCore, call_with<mailbox_ring_refill>},
    {NVX_SYS_PORTAL_ALLOW, kCore, call_with<portal_allow>},     {NVX_SYS_PORTAL_OPEN, kCore, call_with<portal_open>},
    {NVX_SYS_PORTAL_READ, kCore, call_with<portal_read>},       {NVX_SYS_PORTAL_WRITE, kCore, call_with<portal_write>},
    {NVX_SYS_PORTAL_CLOSE, kCore, call_with<portal_close>},     {NVX_SYS_PORTAL_UNLINK, kCore, call_with<portal_unlink>},
    {NVX_SYS_PORTAL_STATS, kCore, call_with<portal_stats>},     {NVX_SYS_SYNC_CREATE, kCore, call_with<sync_create>},
    {NVX_SYS_SYNC_OPEN, kCore, call_with<sync_open>},           {NVX_SYS_SYNC_WAIT, kCore, call_with<sync_wait>},
    {NVX_SYS_SYNC_SIGNAL, kCore, call_with<sync_signal>},       {NVX_SYS_SYNC_CLOSE, kCore, call_with<sync_close>},
    {NVX_SYS_SYNC_UNLINK, kCore, call_with<sync_unlink>},       {NVX_SYS_SYNC_AWAIT, kCore, call_with<sync_await>},
};
}  // namespace
}  // namespace nvx::ikc

NVX_KERNEL_MODULE(g_ikc_module) = {"ikc", nvx::ikc::boot, nvx::ikc::poll, nvx::ikc::kCalls,
                                   sizeof nvx::ikc::kCalls / sizeof nvx::ikc::kCalls[0], nvx::ikc::program_ended,
                                   nvx::ikc::noc_selftest, nvx::ikc::describe_wait, nvx::ikc::thread_ended,
                                   nvx::ikc::mailbox_needs_poll, nvx::ikc::mailbox_report};
