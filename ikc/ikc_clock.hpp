// IKC's one interface to the virtual clock (README "The virtual clock"). The kernel core
// serves each request and each NoC event in a context that starts at its stamp; a port is
// a bounded queue in virtual time; a hand-off that either side's call may complete, in the
// host's order, is charged from the same instant either way. Everything here is the
// clock's bookkeeping (model code): it costs the modeled machine nothing.
#pragma once
#include "ikc/ikc_config.hpp"
#include "ikc/port_times.hpp"
#include "kernel/clock/clock.hpp"

namespace nvx::ikc {
using kernel::Thread;

// A service that both a call's own attempt and a later one (a retry, a waiting reader's
// turn) run, whichever the host ran first: the time it hands out is read at its end, so
// the two must run one copy of its code, not one inlined into each caller.
#define IKC_SHARED_SERVICE [[gnu::noinline]]

// The kernel core's current service context.
inline u64 core_now() { return kernel::clock_core_now(); }

// An operation's virtual times, and the rules that start its services from them.
struct OpClock {
    // Its thread's time when it asked, and whether that thread serves requests
    // (nvx_clock_server: it takes a hand-off's time, not the later of the two).
    u64 requested;
    bool server;
    u64 started;  // asynchronous: when its start call handed it over (the call answers then)
    // A write: when it was ready to go. Every attempt (the first, a retry after a credit,
    // an allow or room at a local port) goes on from here, whichever the host ran first.
    u64 ready;

    void asked(const Thread* t);
    void start_now() { started = core_now(); }
    void ready_now() { ready = core_now(); }
    // The core serves the operation from the time its thread asked / it was ready.
    void serve_request() const;
    void serve_ready() const;
    // A reader takes a message that was in its port at `stamp`: from the later of the two
    // (a server: from the message's). Returns that time.
    u64 serve_take(u64 stamp) const;
    // A local portal copy starts when both sides have asked.
    static void serve_meeting(const OpClock& writer, const OpClock& reader);
};

// A mailbox port of an own node as a bounded queue in virtual time (PortTimes). A port
// the kernel keeps no times for (not an own node's, or out of range) bounds nothing.
class PortClock {
public:
    static PortClock& of(u32 node, u32 port);
    // A message entered the port / left it at `at` / went through it at `at` (into a
    // ring or straight to a waiting reader).
    void entered();
    void left(u64 at);
    void passed(u64 at);
    // A local write enters from when it was ready or, if the port was full in virtual
    // time then, from the departure that made room (not when the host retried it).
    void serve_entry(const OpClock& writer);

    constexpr PortClock() = default;

private:
    explicit constexpr PortClock(bool kept) : kept_(kept) {}
    static PortClock unkept_;  // what `of` gives for a port the kernel keeps no times for

    PortTimes<kPortQuota> times_;
    bool kept_ = true;
};

// One NoC event or queued request served from its stamp; at the end of the scope the core
// serves nothing stamped until the next.
class EventService {
public:
    explicit EventService(u64 stamp) { kernel::clock_serve(stamp); }
    ~EventService() { kernel::clock_serve_idle(); }
    EventService(const EventService&) = delete;
    EventService& operator=(const EventService&) = delete;
};

// Inside a service: work for operations that were waiting, each served from its own time;
// after the scope the caller's service goes on as if none had been waiting.
class ServiceAside {
public:
    ServiceAside() : resume_(core_now()) {}
    ~ServiceAside() { kernel::clock_serve(resume_); }
    ServiceAside(const ServiceAside&) = delete;
    ServiceAside& operator=(const ServiceAside&) = delete;

private:
    u64 resume_;
};

// Work that serves no stamped request (a poll's retries: each goes on from its own time).
inline void serve_unstamped() { kernel::clock_serve_idle(); }
// A posted call's answer carries time `at`.
inline void answer_at(u64 at) { kernel::clock_answer_at(at); }
// Where the NoC engine finds the clock offsets it advances (own_nodes attaches it).
inline u64 engine_clock_offsets() { return kernel::clock_offsets_phys(); }
// A time handed to user space other than through a thread (a completion record, a ring
// slot): the program may take it with nvx_clock_take.
inline void handed(u64 at) { kernel::clock_note_handed(at); }
}  // namespace nvx::ikc
