#include "ikc/mailbox.hpp"

#include "hal/noc/noc_driver.hpp"
#include "hal/riscv/sv39.hpp"
#include "ikc/message_buffers.hpp"
#include "ikc/endpoint_calls.hpp"
#include "ikc/own_nodes.hpp"
#include "kernel/console.hpp"
#include "kernel/layout.hpp"
#include "kernel/mm/address_space.hpp"
#include "support/atomic.hpp"
#include "support/bits.hpp"

namespace nvx::ikc {
namespace {
using kernel::g_space;
using kernel::UserAddr;
using noc::MailboxMessage;

EndpointTable<kVirtualMailboxes> g_mailboxes;
MessageBuffers g_buffers;
ThreadQueue g_credit_waits[board::kMaxNodes];  // remote sends waiting for a slot at that node
ThreadQueue g_local_waits;                      // local sends waiting for a free buffer
bool g_arrivals_held;                           // the last poll left messages in hardware slots

MailboxMessage& staged(Thread* t) { return *reinterpret_cast<MailboxMessage*>(io_of(t).staging); }
static_assert(sizeof(PendingIo::staging) >= sizeof(MailboxMessage));

// Hands a message that arrived on own node `node` to a sleeping reader, or buffers it;
// false when neither is possible (the caller keeps it and pushes back).
bool deliver(u32 node, u32 port, const u8* payload, u32 length) {
    Endpoint* in = g_mailboxes.find_input(node, port);
    if (in != nullptr && g_buffers.oldest(node, port) == nullptr) {
        while (!in->waiters.empty()) {
            Thread* reader = in->waiters.pop();
            if (io_of(reader).size < length) {
                wake(reader, *in, -NVX_EMSGSIZE);  // the message stays for a larger read
                continue;
            }
            // The buffer was checked when the read began; if it is gone now, this reader
            // fails and the message stays for the next one.
            if (!g_space.copy_to_user(io_of(reader).buffer, payload, length)) {
                wake(reader, *in, -NVX_EFAULT);
                continue;
            }
            count_message(*in, length);
            wake(reader, *in, length);
            return true;
        }
    }
    return g_buffers.store(node, port, payload, length);
}

u32 target_port(Thread* t) { return staged(t).header.target_port; }

// Local senders pushed back (no reader, no buffer), retried whenever a reader or a
// buffer may have appeared.
void retry_local_sends() {
    if (g_local_waits.empty()) return;
    retry_in_port_order(g_local_waits, target_port, [](Thread* t) {
        MailboxMessage& m = staged(t);
        Endpoint& out = g_mailboxes.at(io_of(t).endpoint);
        if (!deliver(out.remote_node, m.header.target_port, m.payload, m.header.length)) return false;
        count_message(out, m.header.length);
        wake(t, out, m.header.length);
        return true;
    });
}

i64 try_send(Thread* t) {
    Endpoint& out = g_mailboxes.at(io_of(t).endpoint);
    sbi::Result r = noc::mailbox_send(out.node, out.remote_node, kernel::g_layout.virt_to_phys(reinterpret_cast<u64>(&staged(t))));
    if (r.error == noc::kBusy) return noc::kBusy;
    if (r.error != sbi::kSuccess) return -NVX_EINVAL;
    count_transfer(out, sizeof(MailboxMessage));
    count_message(out, io_of(t).size);
    return 0;
}

bool poll_arrivals(OwnNode& own) {
    bool moved = false;
    u64 full = atomic::load_acquire(&own.events->mailbox_full);
    for (; full != 0; full &= full - 1) {
        u32 sender = lowest_set_bit(full);
        const MailboxMessage& m = own.events->slots[sender];
        if (!deliver(own.node, m.header.target_port, m.payload, m.header.length)) {
            g_arrivals_held = true;  // push back: polled again until a buffer takes it
            continue;
        }
        if (Endpoint* in = g_mailboxes.find_input(own.node, m.header.target_port)) in->stats.hw_transfers++;
        sbi::Result r = noc::mailbox_release(own.node, sender);  // a full slot of our own node
        if (r.error != sbi::kSuccess) kernel::panic("mailbox slot release refused by the NoC engine (%ld)", r.error);
        moved = true;
    }
    return moved;
}

bool poll_credits(OwnNode& own) {
    u64 credits = atomic::exchange_acq_rel(&own.events->mailbox_credit, u64{0});
    bool moved = credits != 0;
    for (; credits != 0; credits &= credits - 1) {
        ThreadQueue& queue = g_credit_waits[lowest_set_bit(credits)];
        while (!queue.empty()) {
            Thread* t = queue.front();
            i64 r = try_send(t);
            if (r == noc::kBusy) break;  // the engine registered us again; we keep our place
            queue.pop();
            wake(t, g_mailboxes.at(io_of(t).endpoint), r == 0 ? static_cast<i64>(io_of(t).size) : r);
        }
    }
    return moved;
}
}  // namespace

i64 mailbox_create(u64 node, u64 port) { return create_input(g_mailboxes, node, port); }

i64 mailbox_open(u64 node, u64 port) { return open_output(g_mailboxes, node, port); }

CallResult mailbox_read(Thread* t, u64 id, UserAddr buffer, u64 size) {
    Endpoint* in = g_mailboxes.lookup(id, Direction::Input);
    if (in == nullptr) return resume_with(-NVX_EBADF);
    if (size == 0) return resume_with(-NVX_EINVAL);
    u64 span = size < NVX_MAILBOX_MSG_MAX ? size : NVX_MAILBOX_MSG_MAX;
    if (!g_space.user_range_ok(buffer, span, riscv::sv39::kWrite)) return resume_with(-NVX_EFAULT);
    BufferedMessage* m = g_buffers.oldest(in->node, in->port);
    if (m == nullptr) {
        io_of(t).begin(static_cast<u32>(id), buffer, span);
        CallResult outcome = sleep_on(in->waiters, t, *in);
        retry_local_sends();  // a pushed-back local message may be for this reader
        return outcome;
    }
    if (size < m->length) return resume_with(-NVX_EMSGSIZE);
    if (!g_space.copy_to_user(buffer, m->payload, m->length)) return resume_with(-NVX_EFAULT);  // message stays
    u32 length = m->length;
    g_buffers.release(m);
    count_message(*in, length);
    retry_local_sends();  // a buffer freed; remote arrivals are rescanned by the poll
    return resume_with(length);
}

CallResult mailbox_write(Thread* t, u64 id, UserAddr buffer, u64 size) {
    Endpoint* out = g_mailboxes.lookup(id, Direction::Output);
    if (out == nullptr) return resume_with(-NVX_EBADF);
    if (size == 0 || size > NVX_MAILBOX_MSG_MAX) return resume_with(-NVX_EINVAL);
    MailboxMessage& m = staged(t);
    if (!g_space.copy_from_user(m.payload, buffer, size)) return resume_with(-NVX_EFAULT);
    m.header = {static_cast<u16>(out->node), static_cast<u16>(id), static_cast<u16>(out->remote_port),
                static_cast<u16>(size)};
    io_of(t).begin(static_cast<u32>(id), buffer, size);
    if (own_index(out->remote_node) >= 0) {  // same cluster: through the kernel only
        if (!waiting_for_port(g_local_waits, out->remote_port, target_port) &&
            deliver(out->remote_node, out->remote_port, m.payload, static_cast<u32>(size))) {
            count_message(*out, size);
            return resume_with(static_cast<i64>(size));
        }
        return sleep_on(g_local_waits, t, *out);
    }
    ThreadQueue& queue = g_credit_waits[out->remote_node];
    if (queue.empty()) {
        i64 r = try_send(t);
        if (r != noc::kBusy) return resume_with(r == 0 ? static_cast<i64>(size) : r);
    }
    return sleep_on(queue, t, *out);
}

i64 mailbox_close(u64 id) { return release_endpoint(g_mailboxes, id, Direction::Output); }

i64 mailbox_unlink(u64 id) { return release_endpoint(g_mailboxes, id, Direction::Input); }  // arrived messages stay for the port

i64 mailbox_stats(u64 id, UserAddr address) { return copy_stats(g_mailboxes, id, address); }

bool mailbox_arrivals_held() { return g_arrivals_held; }

bool mailbox_poll() {
    bool moved = false;
    g_arrivals_held = false;
    for (u32 i = 0; i < own_node_count(); i++) {
        moved |= poll_credits(own_node(i));
        moved |= poll_arrivals(own_node(i));
    }
    return moved;
}

void mailbox_reset() {
    g_mailboxes = EndpointTable<kVirtualMailboxes>{};
    for (ThreadQueue& q : g_credit_waits) q = ThreadQueue{};
    g_local_waits = ThreadQueue{};
    g_arrivals_held = true;  // look at the slots once more, whatever the engine raised meanwhile
}
}  // namespace nvx::ikc
