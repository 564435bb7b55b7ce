#include "ikc/portal.hpp"

#include "hal/noc/noc_driver.hpp"
#include "ikc/endpoint_calls.hpp"
#include "ikc/own_nodes.hpp"
#include "kernel/clock/clock.hpp"
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
constexpr u32 kWindowSegments = sizeof(PendingIo::staging) / sizeof(noc::PortalSegment);
static_assert(kWindowSegments <= noc::kPortalMaxSegments);
ThreadQueue g_readers[kMaxOwnNodes];           // per own node: the head's read is in progress
ThreadQueue g_ready_waits[board::kMaxNodes];   // remote writes waiting for that node's allow
ThreadQueue g_local_writers;                   // writes to an own node waiting for a matching read

Endpoint& endpoint_of(Thread* t) { return g_portals.at(io_of(t).endpoint); }

// Posts the next window of the head reader's buffer: up to kPortalMaxSegments pages,
// which the sender then fills with back-to-back transfers.
void post_window(Thread* reader) {
    Endpoint& in = endpoint_of(reader);
    auto* segments = reinterpret_cast<noc::PortalSegment*>(io_of(reader).staging);
    u64 left = io_of(reader).size - io_of(reader).done;
    UserAddr va = io_of(reader).buffer + io_of(reader).done;
    u32 count = 0;
    // Physically contiguous runs of the buffer, each one segment (checked when the read began).
    for (u64 covered = 0; count < kWindowSegments && covered < left; count++) {
        u8* to;
        u64 want = left - covered < noc::kPortalMaxWrite ? left - covered : noc::kPortalMaxWrite;
        u64 span = g_space.user_run(va + covered, want, sv39::kWrite, &to);
        if (span == 0) kernel::panic("portal reader's buffer unmapped during its read");
        segments[count] = {kernel::g_layout.virt_to_phys(reinterpret_cast<u64>(to)), span};
        covered += span;
    }
    sbi::Result r = noc::portal_allow(in.node, in.remote_node, in.port,
                                      kernel::g_layout.virt_to_phys(reinterpret_cast<u64>(segments)), count, left);
    // Only the head posts, and only after the previous window completed: a refusal is a bug.
    if (r.error != sbi::kSuccess) kernel::panic("portal window refused by the NoC engine (%ld)", r.error);
    io_of(reader).posted = left;
}

void end_read(Thread* reader, i64 result) {
    Endpoint& in = endpoint_of(reader);
    in.allowed = false;  // one read per allow
    if (result > 0) count_message(in, static_cast<u64>(result));
    wake(reader, in, result);
}

// Copies a local writer's message straight into the reader's buffer (same address space).
i64 copy_local(Thread* writer, Thread* reader) {
    u64 n = io_of(writer).size;
    if (n > io_of(reader).size) return -NVX_EMSGSIZE;
    // Both ranges were checked when the calls began, and user memory stays while the
    // program runs: a piece missing now is a kernel bug, reported as a fault.
    for (u64 done = 0, step; done < n; done += step) {
        u8 *to, *from;
        u64 room = g_space.user_run(io_of(reader).buffer + done, n - done, sv39::kWrite, &to);
        u64 have = g_space.user_run(io_of(writer).buffer + done, n - done, sv39::kRead, &from);
        step = room < have ? room : have;
        if (step == 0) return -NVX_EFAULT;
        memcpy(to, from, step);
    }
    return static_cast<i64>(n);
}

bool local_match(Thread* writer, const Endpoint& in) {
    const Endpoint& out = endpoint_of(writer);
    return out.remote_node == in.node && out.remote_port == in.port && own_index(in.remote_node) >= 0;
}

// Starts the read at the head of own node `index`, if any.
void start_head(u32 index) {
    while (!g_readers[index].empty()) {
        Thread* reader = g_readers[index].front();
        Endpoint& in = endpoint_of(reader);
        if (own_index(in.remote_node) < 0) {
            // Not again while one is posted. The first window is allowed at the read's own
            // time, not at the end of the read before it: overlapping reads then queue on
            // the node's input link by first fit in virtual time, not in the host's order.
            if (io_of(reader).posted == 0) {
                kernel::clock_serve(kernel::clock_thread_stamp(reader));
                post_window(reader);
            }
            return;
        }
        Thread* writer = g_local_writers.take_first([&](Thread* w) { return local_match(w, in); });
        if (writer == nullptr) break;  // the local writer will find this reader
        // The copy starts when both have asked, in virtual time, whichever call the host
        // presented second: the same code and charge either way.
        u64 w = kernel::clock_thread_stamp(writer), r = kernel::clock_thread_stamp(reader);
        kernel::clock_serve(w > r ? w : r);
        i64 moved = copy_local(writer, reader);
        Endpoint& out = endpoint_of(writer);
        if (moved > 0) count_message(out, static_cast<u64>(moved));
        wake(writer, out, moved > 0 ? static_cast<i64>(io_of(writer).size) : moved);
        if (moved < 0) continue;  // the reader keeps waiting for a message that fits
        g_readers[index].pop();
        end_read(reader, moved);
    }
}

// Pushes a remote write as far as the receiver allows: 0 done, kBusy, or a negative errno.
i64 push_pieces(Thread* writer) {
    Endpoint& out = endpoint_of(writer);
    while (io_of(writer).done < io_of(writer).size) {
        UserAddr va = io_of(writer).buffer + io_of(writer).done;
        u64 left = io_of(writer).size - io_of(writer).done;
        u8* data;  // a physically contiguous piece: the engine moves it in one call
        u64 run = g_space.user_run(va, left < noc::kPortalMaxWrite ? left : noc::kPortalMaxWrite, sv39::kRead, &data);
        if (run == 0) return -NVX_EFAULT;  // checked when the write began: cannot happen
        sbi::Result r = noc::portal_write(out.node, out.remote_node, out.remote_port,
                                          kernel::g_layout.virt_to_phys(reinterpret_cast<u64>(data)), static_cast<u32>(run), left);
        if (r.error == noc::kBusy) return noc::kBusy;
        if (r.error == noc::kTooLong) return -NVX_EMSGSIZE;
        if (r.error != sbi::kSuccess) return -NVX_EINVAL;
        io_of(writer).done += r.value;
        for (u64 done = 0; done < r.value; done += noc::kPortalMaxTransfer)  // the engine's transfers
            count_transfer(out, r.value - done < noc::kPortalMaxTransfer ? r.value - done : noc::kPortalMaxTransfer);
    }
    count_message(out, io_of(writer).size);
    return 0;
}

// push_pieces for an attempt at a write, the first or a retry: it goes from the time the
// write was ready and, unless pushed back, ends at `*at`, the same point of the same code
// whichever attempt the host's order made go. Not inlined: one copy of the code for both
// callers, so that the instructions between the two clock readings are the same too.
[[gnu::noinline]] i64 push_chunks(Thread* writer, u64* at) {
    kernel::clock_serve(io_of(writer).ready_at);
    i64 r = push_pieces(writer);
    if (r != noc::kBusy) *at = kernel::clock_core_now();
    return r;
}

bool poll_done(u32 index) {
    OwnNode& own = own_node(index);
    u64 done = atomic::exchange_acq_rel(&own.events->portal_done, u64{0});
    if (done == 0 || g_readers[index].empty()) return false;
    kernel::clock_serve(own.events->portal_stamp);  // from the time the last byte arrived
    Thread* reader = g_readers[index].front();
    u64 bytes = own.events->portal_bytes;
    io_of(reader).done += bytes;
    endpoint_of(reader).stats.hw_transfers++;
    bool ended = (done & noc::kPortalMessageEnded) || io_of(reader).done == io_of(reader).size;
    io_of(reader).posted = 0;
    if (!ended) {
        post_window(reader);
    } else {
        g_readers[index].pop();
        end_read(reader, static_cast<i64>(io_of(reader).done));
        start_head(index);
    }
    kernel::clock_serve_idle();  // this completion's service ends
    return true;
}

u32 target_port(Thread* t) { return endpoint_of(t).remote_port; }

// Retries the writes waiting for `peer`: it allows one port at a time, so a busy answer
// holds back only later writers to that same port.
void retry_writers(u32 peer) {
    retry_in_port_order(g_ready_waits[peer], target_port, [](Thread* writer) {
        u64 at;
        i64 r = push_chunks(writer, &at);
        if (r == noc::kBusy) return false;
        wake_at(writer, endpoint_of(writer), r == 0 ? static_cast<i64>(io_of(writer).size) : r, at);
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

CallResult portal_read(Thread* t, u64 id, UserAddr buffer, u64 size) {
    Endpoint* in = g_portals.lookup(id, Direction::Input);
    if (in == nullptr) return resume_with(-NVX_EBADF);
    if (!in->allowed) return resume_with(-NVX_EPERM);
    if (in->pending != 0) return resume_with(-NVX_EBUSY);  // one read per allow
    if (!size_ok(size)) return resume_with(-NVX_EINVAL);
    if (!g_space.user_range_ok(buffer, size, sv39::kWrite)) return resume_with(-NVX_EFAULT);
    io_of(t).begin(static_cast<u32>(id), buffer, size);
    u32 index = static_cast<u32>(own_index(in->node));
    bool idle = g_readers[index].empty();
    CallResult outcome = sleep_on(g_readers[index], t, *in);
    if (idle) start_head(index);
    return outcome;
}

CallResult portal_write(Thread* t, u64 id, UserAddr buffer, u64 size) {
    Endpoint* out = g_portals.lookup(id, Direction::Output);
    if (out == nullptr) return resume_with(-NVX_EBADF);
    if (!size_ok(size)) return resume_with(-NVX_EINVAL);
    if (!g_space.user_range_ok(buffer, size, sv39::kRead)) return resume_with(-NVX_EFAULT);
    io_of(t).begin(static_cast<u32>(id), buffer, size);
    i32 local = own_index(out->remote_node);
    if (local >= 0) {  // same cluster: the kernel copies, no NoC
        CallResult outcome = sleep_on(g_local_writers, t, *out);
        start_head(static_cast<u32>(local));
        return outcome;
    }
    io_of(t).ready_at = kernel::clock_core_now();
    if (!waiting_for_port(g_ready_waits[out->remote_node], out->remote_port, target_port)) {  // order per port
        u64 at;
        i64 r = push_chunks(t, &at);
        if (r != noc::kBusy) {
            kernel::clock_answer_at(at);  // as retry_writers wakes a retried write
            return resume_with(r == 0 ? static_cast<i64>(size) : r);
        }
    }
    return sleep_on(g_ready_waits[out->remote_node], t, *out);
}

i64 portal_close(u64 id) { return release_endpoint(g_portals, id, Direction::Output); }

i64 portal_unlink(u64 id) { return release_endpoint(g_portals, id, Direction::Input); }

i64 portal_stats(u64 id, UserAddr address) { return copy_stats(g_portals, id, address); }

bool portal_poll() {
    bool moved = false;
    for (u32 i = 0; i < own_node_count(); i++) {
        kernel::clock_serve_idle();  // retried writes go on from when they were ready, and the allow
        moved |= poll_ready(i);
        moved |= poll_done(i);
    }
    return moved;
}

void portal_reset() {
    g_portals = EndpointTable<kVirtualPortals>{};
    for (ThreadQueue& q : g_readers) q = ThreadQueue{};
    for (ThreadQueue& q : g_ready_waits) q = ThreadQueue{};
    g_local_writers = ThreadQueue{};
}
bool portal_describe_wait(const Thread* t, char* out, u64 size) {
    const Endpoint* e = io_of(t).waiting_on;
    return e != nullptr && g_portals.owns(e) && describe_endpoint_wait(*e, "portal", out, size);
}
}  // namespace nvx::ikc
