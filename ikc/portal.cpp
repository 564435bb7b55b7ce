#include "ikc/portal.hpp"

#include "hal/noc/noc_driver.hpp"
#include "ikc/endpoint_calls.hpp"
#include "ikc/own_nodes.hpp"
#include "kernel/console.hpp"
#include "support/atomic.hpp"
#include "support/bits.hpp"
#include "support/mem.hpp"

namespace nvx::ikc {
namespace {
using kernel::g_space;
using kernel::UserAddr;
namespace sv39 = riscv::sv39;

EndpointTable<kVirtualPortals> g_portals;
// Segments per posted window: as many as fit in a thread's staging area.
constexpr u32 kWindowSegments = sizeof(IkcOp::staging) / sizeof(noc::PortalSegment);
static_assert(kWindowSegments <= noc::kPortalMaxSegments);
// Per own node: reads waiting to start (a remote one for its port's receive window, a
// local one for its writer), and per port the remote read the engine's window serves now.
OpQueue g_readers[kMaxOwnNodes];
IkcOp* g_windows[kMaxOwnNodes][kPorts];
OpQueue g_ready_waits[board::kMaxNodes];   // remote writes waiting for that node's allow
OpQueue g_local_writers;                   // writes to an own node waiting for a matching read

Endpoint& endpoint_of(IkcOp* op) { return g_portals.at(op->endpoint); }

// Posts the next window of `reader`'s buffer as its port's receive window: up to
// kPortalMaxSegments physically contiguous runs, which the sender then fills with
// back-to-back transfers.
void post_window(IkcOp* reader) {
    Endpoint& in = endpoint_of(reader);
    auto* segments = reinterpret_cast<noc::PortalSegment*>(reader->staging);
    u64 left = reader->size - reader->done;
    UserAddr va = reader->buffer + reader->done;
    u32 count = 0;
    // Physically contiguous runs of the buffer, each one segment (checked when the read began).
    for (u64 covered = 0; count < kWindowSegments && covered < left; count++) {
        u8* to;
        u64 span = g_space.user_run(va + covered, left - covered, sv39::kWrite, &to);
        if (span == 0) kernel::panic("portal reader's buffer unmapped during its read");
        segments[count] = {kernel::g_layout.virt_to_phys(reinterpret_cast<u64>(to)), span};
        covered += span;
    }
    sbi::Result r = noc::portal_allow(in.node, in.remote_node, in.port,
                                      kernel::g_layout.virt_to_phys(reinterpret_cast<u64>(segments)), count, left);
    // One read per port, posted once its previous window completed: a refusal is a bug.
    if (r.error != sbi::kSuccess) kernel::panic("portal window refused by the NoC engine (%ld)", r.error);
    reader->posted = left;
}

void end_read(IkcOp* reader, i64 result) {
    Endpoint& in = endpoint_of(reader);
    in.allowed = false;  // one read per allow
    if (result > 0) count_message(in, static_cast<u64>(result));
    wake(reader, in, result);
}

// Copies a local writer's message straight into the reader's buffer (same address space).
i64 copy_local(IkcOp* writer, IkcOp* reader) {
    u64 n = writer->size;
    if (n > reader->size) return -NVX_EMSGSIZE;
    // Both ranges were checked when the calls began, and user memory stays while the
    // program runs: a piece missing now is a kernel bug, reported as a fault.
    for (u64 done = 0, step; done < n; done += step) {
        u8 *to, *from;
        u64 room = g_space.user_run(reader->buffer + done, n - done, sv39::kWrite, &to);
        u64 have = g_space.user_run(writer->buffer + done, n - done, sv39::kRead, &from);
        step = room < have ? room : have;
        if (step == 0) return -NVX_EFAULT;
        memcpy(to, from, step);
    }
    return static_cast<i64>(n);
}

bool local_match(IkcOp* writer, const Endpoint& in) {
    const Endpoint& out = endpoint_of(writer);
    return out.remote_node == in.node && out.remote_port == in.port && own_index(in.remote_node) >= 0;
}

// Starts the waiting reads of own node `index` that can start: a remote one in its port's
// receive window (a read of the port still posted there ends first), a local one with its
// writer. Reads of different ports do not wait for each other.
void start_reads(u32 index) {
    IkcOp* reader = g_readers[index].front();
    while (reader != nullptr) {
        IkcOp* next = reader->next;
        Endpoint& in = endpoint_of(reader);
        if (own_index(in.remote_node) < 0) {
            if (g_windows[index][in.port] == nullptr) {
                g_readers[index].remove(reader);
                reader->queue = nullptr;
                g_windows[index][in.port] = reader;
                // The first window is allowed at the read's own time, not when the port came
                // free: overlapping reads then queue on the node's input link by first fit
                // in virtual time, not in the host's order.
                reader->clock.serve_request();
                post_window(reader);
            }
            reader = next;
            continue;
        }
        IkcOp* writer = g_local_writers.take_first([&](IkcOp* w) { return local_match(w, in); });
        if (writer == nullptr) {  // the local writer will find this reader
            reader = next;
            continue;
        }
        // The copy starts when both have asked, in virtual time, whichever call the host
        // presented second: the same code and charge either way.
        OpClock::serve_meeting(writer->clock, reader->clock);
        i64 moved = copy_local(writer, reader);
        Endpoint& out = endpoint_of(writer);
        if (moved > 0) count_message(out, static_cast<u64>(moved));
        wake(writer, out, moved > 0 ? static_cast<i64>(writer->size) : moved);
        if (moved < 0) continue;  // the reader keeps waiting for a message that fits
        g_readers[index].remove(reader);
        end_read(reader, moved);
        reader = next;
    }
}

// Pushes a remote write as far as the receiver allows: 0 done, kBusy, or a negative errno.
i64 push_pieces(IkcOp* writer) {
    Endpoint& out = endpoint_of(writer);
    while (writer->done < writer->size) {
        UserAddr va = writer->buffer + writer->done;
        u64 left = writer->size - writer->done;
        u8* data;  // a physically contiguous piece: the engine moves it in one call
        u64 run = g_space.user_run(va, left < noc::kPortalMaxWrite ? left : noc::kPortalMaxWrite, sv39::kRead, &data);
        if (run == 0) return -NVX_EFAULT;  // checked when the write began: cannot happen
        sbi::Result r = noc::portal_write(out.node, out.remote_node, out.remote_port,
                                          kernel::g_layout.virt_to_phys(reinterpret_cast<u64>(data)), static_cast<u32>(run), left);
        if (r.error == noc::kBusy) return noc::kBusy;
        if (r.error == noc::kTooLong) return -NVX_EMSGSIZE;
        if (r.error != sbi::kSuccess) return -NVX_EINVAL;
        writer->done += r.value;
        for (u64 done = 0; done < r.value; done += noc::kPortalMaxTransfer)  // the engine's transfers
            count_transfer(out, r.value - done < noc::kPortalMaxTransfer ? r.value - done : noc::kPortalMaxTransfer);
    }
    count_message(out, writer->size);
    return 0;
}

// push_pieces for an attempt at a write, the first or a retry: it goes from the time the
// write was ready and, unless pushed back, ends at `*at`.
IKC_SHARED_SERVICE i64 push_chunks(IkcOp* writer, u64* at) {
    writer->clock.serve_ready();
    i64 r = push_pieces(writer);
    if (r != noc::kBusy) *at = core_now();
    return r;
}

bool poll_done(u32 index) {
    OwnNode& own = own_node(index);
    u64 done = atomic::exchange_acq_rel(&own.events->portal_done, u64{0});
    if (done == 0) return false;
    for (u64 left = done; left != 0; left &= left - 1) {
        u32 port = lowest_set_bit(left);
        IkcOp* reader = g_windows[index][port];
        if (reader == nullptr) continue;
        EventService service(own.events->portal_stamp[port]);  // from the time the last byte arrived
        reader->done += own.events->portal_bytes[port];
        endpoint_of(reader).stats.hw_transfers++;
        bool ended = own.events->portal_ended[port] != 0 || reader->done == reader->size;
        reader->posted = 0;
        if (!ended) {
            post_window(reader);
        } else {
            g_windows[index][port] = nullptr;
            end_read(reader, static_cast<i64>(reader->done));
        }
    }
    start_reads(index);  // windows came free
    serve_unstamped();
    return true;
}

u32 target_port(IkcOp* op) { return endpoint_of(op).remote_port; }

// Retries the writes waiting for `peer`: it allows one port at a time, so a busy answer
// holds back only later writers to that same port.
void retry_writers(u32 peer) {
    retry_in_port_order(g_ready_waits[peer], target_port, [](IkcOp* writer) {
        u64 at;
        i64 r = push_chunks(writer, &at);
        if (r == noc::kBusy) return false;
        wake_at(writer, endpoint_of(writer), r == 0 ? static_cast<i64>(writer->size) : r, at);
        return true;
    });
}

bool poll_ready(u32 index) {
    u64 ready = atomic::exchange_acq_rel(&own_node(index).events->portal_ready, u64{0});
    bool moved = ready != 0;
    for (; ready != 0; ready &= ready - 1) retry_writers(lowest_set_bit(ready));
    return moved;
}

bool size_ok(u64 size) { return size > 0 && size <= NVX_PORTAL_MAX; }
}  // namespace

i64 portal_create(u64 node, u64 port) { return create_input(g_portals, node, port); }

i64 portal_allow(u64 id, u64 remote_node) {
    Endpoint* in = g_portals.lookup(id, Direction::Input);
    if (in == nullptr) return -NVX_EBADF;
    if (remote_node >= board::kBoard.node_count) return -NVX_EINVAL;
    if (in->pending != 0) return -NVX_EBUSY;  // a read is in progress with the current allow
    in->remote_node = static_cast<u32>(remote_node);
    in->allowed = true;
    return 0;
}

i64 portal_open(u64 node, u64 port) { return open_output(g_portals, node, port); }

namespace {
// A read of `id` into `buffer`: -errno if the call is wrong (nothing begun).
i64 check_read(u64 id, UserAddr buffer, u64 size) {
    Endpoint* in = g_portals.lookup(id, Direction::Input);
    if (in == nullptr) return -NVX_EBADF;
    if (!in->allowed) return -NVX_EPERM;
    if (in->pending != 0) return -NVX_EBUSY;  // one read per allow
    if (!size_ok(size)) return -NVX_EINVAL;
    return g_space.user_range_ok(buffer, size, sv39::kWrite) ? 0 : -NVX_EFAULT;
}

// Read `op` (checked, begun) waits on its node until it can start, at once if it can.
CallResult start_read(IkcOp* op) {
    Endpoint& in = endpoint_of(op);
    u32 index = static_cast<u32>(own_index(in.node));
    CallResult outcome = sleep_on(g_readers[index], op, in);
    start_reads(index);
    return outcome;
}

i64 check_write(u64 id, UserAddr buffer, u64 size) {
    if (g_portals.lookup(id, Direction::Output) == nullptr) return -NVX_EBADF;
    if (!size_ok(size)) return -NVX_EINVAL;
    return g_space.user_range_ok(buffer, size, sv39::kRead) ? 0 : -NVX_EFAULT;
}

// Write `op` (checked, begun) meets a local read, or pushes its pieces to the remote
// reader as far as it allows, or waits for its allow.
CallResult start_write(IkcOp* op) {
    Endpoint& out = endpoint_of(op);
    i32 local = own_index(out.remote_node);
    if (local >= 0) {  // same cluster: the kernel copies, no NoC
        CallResult outcome = sleep_on(g_local_writers, op, out);
        start_reads(static_cast<u32>(local));
        return outcome;
    }
    op->clock.ready_now();
    if (!waiting_for_port(g_ready_waits[out.remote_node], out.remote_port, target_port)) {  // order per port
        u64 at;
        i64 r = push_chunks(op, &at);
        if (r != noc::kBusy) return finish_in_call(op, r == 0 ? static_cast<i64>(op->size) : r, at);  // as retry_writers ends a retried write
    }
    return sleep_on(g_ready_waits[out.remote_node], op, out);
}
}  // namespace

namespace {
// A call whose arguments `check` judged: its operation (synchronous, or asynchronous on
// `record`) begins and `start` starts it.
CallResult run_call(Thread* t, i64 check, OpKind kind, u64 id, UserAddr buffer, u64 size, bool async,
                    UserAddr record, CallResult (*start)(IkcOp*)) {
    if (check != 0) return resume_with(check);
    IkcOp* op;
    if (i64 error = call_op(t, kind, async, record, &op)) return resume_with(error);
    op->begin(static_cast<u32>(id), buffer, size);
    return start(op);
}
}  // namespace

CallResult portal_read(Thread* t, u64 id, UserAddr buffer, u64 size) {
    return run_call(t, check_read(id, buffer, size), OpKind::PortalRead, id, buffer, size, false, {}, start_read);
}
CallResult portal_aread(Thread* t, u64 id, UserAddr buffer, u64 size, UserAddr record) {
    return run_call(t, check_read(id, buffer, size), OpKind::PortalRead, id, buffer, size, true, record, start_read);
}
CallResult portal_write(Thread* t, u64 id, UserAddr buffer, u64 size) {
    return run_call(t, check_write(id, buffer, size), OpKind::PortalWrite, id, buffer, size, false, {}, start_write);
}
CallResult portal_awrite(Thread* t, u64 id, UserAddr buffer, u64 size, UserAddr record) {
    return run_call(t, check_write(id, buffer, size), OpKind::PortalWrite, id, buffer, size, true, record, start_write);
}

void portal_reader_gone(IkcOp* op) {
    i32 index = own_index(endpoint_of(op).node);
    if (index >= 0) start_reads(static_cast<u32>(index));
}

i64 portal_close(u64 id) { return release_endpoint(g_portals, id, Direction::Output); }

i64 portal_unlink(u64 id) { return release_endpoint(g_portals, id, Direction::Input); }

i64 portal_stats(u64 id, UserAddr address) { return copy_stats(g_portals, id, address); }

bool portal_poll() {
    bool moved = false;
    for (u32 i = 0; i < own_node_count(); i++) {
        serve_unstamped();  // retried writes go on from when they were ready, and the allow
        moved |= poll_ready(i);
        moved |= poll_done(i);
    }
    return moved;
}

void portal_reset() {
    g_portals.clear();
    for (OpQueue& q : g_readers) q = OpQueue{};
    for (auto& windows : g_windows)
        for (IkcOp*& reader : windows) reader = nullptr;
    for (OpQueue& q : g_ready_waits) q = OpQueue{};
    g_local_writers = OpQueue{};
}
bool portal_describe_wait(const IkcOp* op, char* out, u64 size) {
    const Endpoint* e = op->waiting_on;
    return e != nullptr && g_portals.owns(e) && describe_endpoint_wait(*e, "portal", out, size);
}
}  // namespace nvx::ikc
