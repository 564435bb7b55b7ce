// The receiver agent (one thread per cluster) and the portal writers. The agent blocks
// only in nvx_mailbox_read on the cluster's MPI mailbox and on short local locks: it
// never writes a mailbox or a portal, so agents of different clusters can never wait for
// each other. It delivers each envelope into the destination rank's queues and rings its
// doorbell. A clear-to-send goes to a portal writer (a bounded pool: the reserved writers
// start with the cluster, more on demand; further sends wait in FIFO order). The writer
// tells the receiver Ready before it writes, and the receiver blocks in nvx_portal_read
// only after Ready: a read never waits for a writer that is not writing, so blocked reads
// and writes cannot form a cycle. A writer's write ends once its receiver makes progress
// in any MPI call (the receiver cleared that send alone), so one writer suffices to end
// every queued write: the pool's size is speed, the reserve is liveness.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvx/clock.h>
#include <nvx/ikc.h>
#include <nvx/names.h>
#include <nvx/thread.h>

#include "state.hpp"
#include "wire.hpp"

namespace mputil {

namespace {

// A writer thread: idle in g_idle, or writing `send` (has_job = 1).
struct Writer {
    Writer* next;
    uint32_t has_job;  // futex word: 1 while `send` is to be written
    Op* send;
};

// Cleared sends wait in g_cleared, linked through the Op itself: queuing allocates nothing,
// so a program that took every byte of memory still gets its data moved.
nvx_mutex_t g_pool_lock = NVX_MUTEX_INITIALIZER;
Queue<Writer> g_idle;
Queue<Op> g_cleared;

[[noreturn]] void transport_failure(const char* what, long err)
{
    printf("[lwmpi] cluster %u: %s failed (%ld): ending the run\n", g_cluster.my_cluster, what, err);
    abort_run(1);
}

void perform(Op* send)
{
    const PortalWrite& job = send->write;
    long id = nvx_portal_open(job.node, job.port);
    if (id < 0) transport_failure("portal open", id);
    WireHeader ready = header(WireKind::Ready, send->owner, job.receiver);
    wire_send(job.node, &ready);
    const char* data = static_cast<const char*>(send->data);
    for (size_t off = 0; off < job.bytes; off += config::kPortalPiece) {
        size_t piece = job.bytes - off < config::kPortalPiece ? job.bytes - off : config::kPortalPiece;
        long err = nvx_portal_write(id, data + off, piece);
        if (err < 0) transport_failure("portal write", err);
    }
    nvx_portal_close(id);
    complete(send, Completion{send->dest, send->tag, send->bytes, false, false});
}

// Gives `send` to an idle writer and wakes it, or queues it for the next writer that
// finishes (g_pool_lock held). Every writer looks at the queue before it goes idle, so a
// queued send never waits while a writer idles.
void hand_or_queue(Op* send)
{
    Writer* w = g_idle.take_first([](Writer*) { return true; });
    if (w == nullptr) {
        g_cleared.push_back(send);
        return;
    }
    w->send = send;
    __atomic_store_n(&w->has_job, 1, __ATOMIC_RELEASE);
    nvx_sys_futex_wake(&w->has_job, 1);
}

void* writer_main(void* arg)
{
    nvx_thread_set_context(nullptr);  // a writer serves the cluster, not the rank that started it
    nvx_clock_server();               // each job at its own virtual time
    Writer* w = static_cast<Writer*>(arg);
    for (;;) {
        while (__atomic_load_n(&w->has_job, __ATOMIC_ACQUIRE) == 0) nvx_sys_futex_wait(&w->has_job, 0);
        nvx_clock_serve(w->send->write.stamp);  // the job's time, however late the host ran it
        perform(w->send);
        nvx_mutex_lock(&g_pool_lock);
        Op* next = g_cleared.take_first([](Op*) { return true; });
        if (next != nullptr) {
            w->send = next;
        } else {
            __atomic_store_n(&w->has_job, 0, __ATOMIC_RELEASE);
            g_idle.push_back(w);
        }
        nvx_mutex_unlock(&g_pool_lock);
    }
    return nullptr;
}

// Starts a writer with `first` to write, or idle when it is nullptr. False when the memory
// or the kernel's thread table has no room; the caller counted it in g_cluster.writers.
bool start_writer(Op* first)
{
    Writer* w = static_cast<Writer*>(malloc(sizeof(Writer)));
    if (w == nullptr) return false;
    w->next = nullptr;
    w->send = first;
    w->has_job = first != nullptr;
    if (first == nullptr) {
        nvx_mutex_lock(&g_pool_lock);
        g_idle.push_back(w);
        nvx_mutex_unlock(&g_pool_lock);
    }
    nvx_thread_t t;
    // Writers go to any PE, unlike the agent: up to kMaxWriters of them confined to the
    // few spare PEs queue behind each other in virtual time (unopt, 12 ranks on one
    // cluster: KM 94 M -> 158-214 M cycles; anywhere: 54-58 M, opt no worse).
    nvx_thread_attr_t attr = {config::kWriterStack, NVX_THREAD_ANY_HART};
    if (nvx_thread_create(&t, &attr, writer_main, w) == 0) return true;
    if (first == nullptr) {
        nvx_mutex_lock(&g_pool_lock);
        g_idle.remove(w);
        nvx_mutex_unlock(&g_pool_lock);
    }
    free(w);
    return false;
}

// A cleared send goes to an idle writer, else to a new one while there are fewer than
// kMaxWriters and room to start it, else it queues: the reserved writers always exist.
void dispatch(Op* send)
{
    nvx_mutex_lock(&g_pool_lock);
    bool start = g_idle.empty() && g_cluster.writers < config::kMaxWriters;
    if (start) g_cluster.writers++;
    else hand_or_queue(send);
    nvx_mutex_unlock(&g_pool_lock);
    if (!start || start_writer(send)) return;
    nvx_mutex_lock(&g_pool_lock);
    g_cluster.writers--;
    hand_or_queue(send);
    nvx_mutex_unlock(&g_pool_lock);
}

// A remote message's envelope, stamped with the agent's time: the message's arrival (the
// agent, a clock server, took it from the mailbox read), which its receiver takes.
Envelope arrived(const WireHeader& h) { return Envelope{h.source, h.context, h.tag, now_stamp()}; }

Unexpected* new_unexpected(const WireHeader& h, size_t payload, Holding holding)
{
    Unexpected* u = static_cast<Unexpected*>(xmalloc(sizeof(Unexpected) + payload));
    memset(u, 0, sizeof *u);
    u->env = arrived(h);
    u->bytes = h.bytes;
    u->holding = holding;
    return u;
}

void on_eager(RankState* r, const WireMessage& m)
{
    const WireHeader& h = m.h;
    Envelope e = arrived(h);
    nvx_mutex_lock(&r->lock);
    Op* recv = r->posted.take_first([&](Op* op) { return matches(op->source, op->context, op->tag, e); });
    if (recv != nullptr) {
        if (r->debts.consumed(h.source)) r->credits_due = 1;
        deliver_bytes(recv, e, m.payload, h.bytes);
    } else {
        Unexpected* u = new_unexpected(h, h.bytes, Holding::Cell);
        u->remote_eager = true;
        memcpy(u->payload(), m.payload, h.bytes);
        r->unexpected.push_back(u);
    }
    nvx_mutex_unlock(&r->lock);
    r->bell.ring();
}

void on_rts(RankState* r, const WireHeader& h)
{
    Envelope e = arrived(h);
    nvx_mutex_lock(&r->lock);
    Op* recv = r->posted.take_first([&](Op* op) { return matches(op->source, op->context, op->tag, e); });
    if (recv != nullptr) {
        recv->rdv = RendezvousMatch{e, h.cookie, h.node, h.bytes};
        r->ready.push_back(recv);
    } else {
        Unexpected* u = new_unexpected(h, 0, Holding::Rendezvous);
        u->cookie = h.cookie;
        u->node = h.node;
        r->unexpected.push_back(u);
    }
    nvx_mutex_unlock(&r->lock);
    r->bell.ring();
}

void on_cts(const WireHeader& h)
{
    Op* send = reinterpret_cast<Op*>(h.cookie);
    if (h.bytes == 0) {  // nothing to move (empty message or a zero-byte receive)
        complete(send, Completion{send->dest, send->tag, send->bytes, false, false});
        return;
    }
    send->write = PortalWrite{h.source, h.node, h.port, h.bytes, now_stamp()};
    dispatch(send);
}

void* agent_main(void*)
{
    nvx_clock_server();  // each message at its own virtual time, whatever the host's order
    WireMessage m;
    for (;;) {
        long n = nvx_mailbox_read(g_cluster.mailbox, &m, sizeof m);
        if (n < (long)sizeof(WireHeader)) transport_failure("MPI mailbox read", n);
        const WireHeader& h = m.h;
        RankState* r = h.dest >= 0 && h.dest < g_cluster.world_size ? state_of(h.dest) : nullptr;
        if (r == nullptr) transport_failure("a message for a rank not on this cluster", h.dest);
        switch (h.kind) {
        case WireKind::Eager:
            if (h.bytes > sizeof m.payload || (long)(sizeof(WireHeader) + h.bytes) != n)
                transport_failure("a malformed eager message", n);
            on_eager(r, m);
            break;
        case WireKind::Rts: on_rts(r, h); break;
        case WireKind::Cts: on_cts(h); break;
        case WireKind::Credit: r->credits.give(h.source, (uint32_t)h.bytes); break;
        case WireKind::Ready:
            r->rdv_ready_stamp = now_stamp();  // published by the release below
            __atomic_store_n(&r->rdv_writer_ready, 1, __ATOMIC_RELEASE);
            r->bell.ring();
            break;
        case WireKind::Barrier:
            __atomic_add_fetch(&g_cluster.barrier_messages, 1, __ATOMIC_ACQ_REL);
            nvx_sys_futex_wake(&g_cluster.barrier_messages, 1);
            break;
        default: transport_failure("an unknown message kind", (long)h.kind);
        }
    }
    return nullptr;
}

}  // namespace

void agent_start()
{
    nvx_thread_t t;
    nvx_thread_attr_t attr = {config::kAgentStack, helper_hart(0)};
    int err = nvx_thread_create(&t, &attr, agent_main, nullptr);
    if (err != 0) transport_failure("starting the receiver agent", err);
    for (uint32_t i = 0; i < config::kReservedWriters; i++) {
        g_cluster.writers++;
        if (!start_writer(nullptr)) transport_failure("starting a reserved portal writer", -1);
    }
}

long mailbox_to_node(uint32_t node)
{
    // Every remote send asks: the opened mailbox is read without a lock, which only its
    // opening takes (a cluster-wide lock on every send was the ranks' busiest contention).
    Cluster& c = g_cluster;
    long opened = __atomic_load_n(&c.out_mailbox[node], __ATOMIC_ACQUIRE);
    if (opened != 0) return opened - 1;
    nvx_mutex_lock(&c.table_lock);
    opened = c.out_mailbox[node];
    if (opened == 0) {
        long id = nvx_mailbox_open(node, config::kMailboxPort);
        if (id < 0) transport_failure("opening an MPI mailbox", id);
        opened = id + 1;
        __atomic_store_n(&c.out_mailbox[node], opened, __ATOMIC_RELEASE);
    }
    nvx_mutex_unlock(&c.table_lock);
    return opened - 1;
}

// Threads write to one node's mailbox concurrently: the kernel takes each message whole
// and keeps each writer's messages in order, which is all MPI's ordering needs.
void wire_send(uint32_t node, const void* msg)
{
    const WireHeader* h = static_cast<const WireHeader*>(msg);
    size_t size = sizeof(WireHeader) + (h->kind == WireKind::Eager ? h->bytes : 0);
    long err = nvx_mailbox_write(mailbox_to_node(node), msg, size);
    if (err < 0) transport_failure("MPI mailbox write", err);
}

// First contact with a peer: its name gives its node (the Name Server, then that node's
// Local Name Daemon); the answer is kept for the whole run.
uint32_t node_of_rank(int world)
{
    Cluster& c = g_cluster;
    int cached = __atomic_load_n(&c.node_of_rank[world], __ATOMIC_ACQUIRE);
    if (cached >= 0) return (uint32_t)cached;
    char name[24];
    snprintf(name, sizeof name, "mpi.%d", world);
    unsigned node = 0, port = 0;
    uint64_t start = now_ticks();
    int err = nvx_name_lookup(name, &node, &port);
    uint64_t spent = now_ticks() - start;
    if (err < 0 || port != config::kMailboxPort || node >= c.node_count) transport_failure("looking up a rank's name", err);
    nvx_mutex_lock(&c.table_lock);
    c.first_contacts++;
    c.first_contact_ticks += spent;
    nvx_mutex_unlock(&c.table_lock);
    __atomic_store_n(&c.node_of_rank[world], (int)node, __ATOMIC_RELEASE);
    return node;
}

}  // namespace mputil
