// The per-hart virtual clock (README "The virtual clock"). A hart's virtual time,
// in cycles of the modeled core (board::kCoreHz, one instruction = one cycle), is the
// board's instruction counter for it (the counter page, board::kClockCounterPage, advanced
// by the QEMU plugin) plus an offset this kernel keeps in the cluster's clock page. Both
// pages are mapped read-only into every program (nvx_abi.h), so user space reads its
// hart's time without a kernel call (runtime/clock.c).
//
// Rules: only hart `local` (or the NoC engine on its behalf, in its SBI call) changes
// offset[local]. A thread's time only goes up (Lamport: it takes max(own time, a stamp
// handed to it)); a hart's offset is rebased per thread it runs and, on the kernel core,
// per request it serves (below). Under the wall clock (no plugin: the counter page is not
// live) every stamp is 0 and nothing changes.
//
// Hand-offs: every wait on another hart ends at max(own time, the sender's stamp
// + modeled latency), deterministically.
//  - A thread carries its time between harts (clock_thread_leaves / _arrives). It starts on
//    a hart at its stamp plus the hart's wake-up instructions (they follow the hand-off),
//    or after what that hart ran before it in virtual time (the hart's reservations): a
//    user hart is a server too, so the host's choice of hart for a floating thread does
//    not drag its time up to that hart's latest. A user hart's offset is rebased per
//    thread; a thread's own time never goes back.
//  - The kernel core is a server, not a thread of work: each request (a posted call, a
//    NoC event) is served in a context of its own that starts at the request's stamp
//    (clock_serve) and lasts the instructions spent on it. What the core hands out during
//    it (an answer, a woken or a created thread, a NoC transfer: the engine reads the
//    core's clock) carries that context's time. The core serves one context at a time:
//    a context starts at the first instant at or after its stamp that the services it
//    remembers (kCoreReservations) leave free, so requests queue in stamp order, not in
//    the host's (first come first served made the figures vary by up to 15 % between
//    runs). The core's offset is rebased per context; no user thread reads it (user threads never
//    run on local hart 0). A wait inside a context (clock_take, the engine) moves its
//    time on. Requests found waiting together are served earliest stamp first.
//  - Server threads (nvx_clock_server: the Name Server, the Local Name Daemons) take each hand-off's
//    time instead of the maximum; a futex wake hands them none (a lock's release or a job
//    notice is no request); they name a queued request's time with nvx_clock_serve.
//  - IPIs and the NoC engine's lock spinning cost the hart nothing (the firmware takes
//    their instructions back off its counter: they land at host-timed moments).
//  - NoC transfers: the engine stamps each with the sender's time + hops x hop latency +
//    bytes / bandwidth, after the transfers reserved earlier on the links it uses
//    (hal/firmware/noc_time.hpp); the receiving kernel serves each event at its stamp.
//  - User space: nvx_clock_take(stamp) (MPI's shared-memory cells) moves a user hart
//    forward through a kernel call on that hart, only when the stamp is ahead.
//  - One path per hand-off: whichever order the host presents its two sides in, the time
//    handed out is read at the same point of the same code (a retried portal write ends
//    where a first attempt does; a hart's wake-up counts from the moment it sees the IPI),
//    and work whose instructions follow the host's order costs nothing (ClockUncharged:
//    the scheduler's placement of a woken thread, per-hart translation caches). A thread
//    woken inside its own call goes back to its own hart, not to whichever the host freed.
// Order dependences left (with nvx-run --exec parallel they follow the host; under the
// default deterministic execution, QEMU's fixed turns): NoC link first fit when the gaps
// do not fit, and the one mailbox slot per node pair (an MPI all-to-all in parallel on two
// host cores came out slower than on one); a remote write refused by a full port is
// resent when its port drained; a preemption (only with more threads than harts: the
// quantum is the thread's virtual time, but the check runs on the kernel core's board-
// clock tick) lands up to a tick late; a signal IPI that races a
// dispatch (kill, preempt) can still interrupt a hart late; a receiver that finds a shared
// cell already full takes its stamp instead of waiting for the wake-up (the two paths
// differ by the wake-up's instructions).
#pragma once
#include "kernel/cpu.hpp"

namespace nvx::kernel {
struct Thread;

// Kernel core, at boot: fills the cluster's clock page and checks whether the counters run.
bool clock_boot();
// True when the board's counters run (the plugin is loaded): the clock is virtual.
bool clock_is_virtual();
// Virtual time of this cluster's hart `local` (0 under the wall clock).
u64 clock_now(u32 local);
// Lamport: the calling hart `c` advances its time to at least `stamp`.
void clock_advance_to(Cpu& c, u64 stamp);
// The time thread `t` carries to the next hart that runs it (at least `stamp`).
void clock_stamp_thread(const Thread* t, u64 stamp);
// Server threads (nvx_clock_server(): an agent serving the requests of others in host
// order): every hand-off to `t` sets its time to the hand-off's, instead of the maximum,
// so that a request it takes late is not served at the time of one it took before.
// clock_make_server: `t` runs on `c` and asks for it.
bool clock_thread_is_server(const Thread* t);
void clock_make_server(Cpu& c, const Thread* t);
// The time thread `t` carried when it last left a hart or was handed over (0 if none).
u64 clock_thread_stamp(const Thread* t);
// User harts: `t` leaves `c` (its time goes with it) / `t` arrives on `c`, which went to
// wait at its time `waited_from` (user space finds its hart in the clock page; `c` takes
// the thread's time plus the instructions its wake-up cost).
void clock_thread_leaves(Cpu& c, const Thread* t);
void clock_thread_arrives(Cpu& c, const Thread* t, u64 waited_from);
// User hart `c`, in its running thread `t`'s kernel call (nvx_clock_take): the thread goes
// on from `stamp` if that is later than its time; a server thread, from `stamp` (it begins
// a request: nvx_clock_serve).
void clock_user_take(Cpu& c, const Thread* t, u64 stamp);
// A time this cluster handed out other than through a thread's stamp (an asynchronous IKC
// completion's, written to user memory): nvx_clock_take may then take it.
void clock_note_handed(u64 t);
// True if `stamp` is no later than any time this cluster has carried (a stamp user space
// hands back, nvx_clock_take, cannot be from the future).
bool clock_stamp_ok(u64 stamp);
// Kernel core: ends the current service context and serves something stamped `stamp`,
// from when the core is free at or after that stamp. clock_serve_idle(): work that serves
// no stamped request (timers, cluster ends): its time is 0, and it holds the core for none.
void clock_serve(u64 stamp);
void clock_serve_idle();
// Kernel core, inside a service: the work now depends on something stamped `stamp`.
void clock_take(u64 stamp);
// Kernel core, inside a posted call's service: its answer carries time `t` (by default, the
// time the call returns). A call whose result may come by two paths (its own service or
// a waker's, in host order) names the same point of both.
void clock_answer_at(u64 t);
// The answer's time: the one named, or the current service context's.
u64 clock_answer();
// Kernel core: serves thread `t`'s posted request from the time it carries / `t` carries
// its call's answer onwards (one call each on every posted request's path).
void clock_serve_thread(const Thread* t);
void clock_stamp_answer(const Thread* t);
// Kernel core: the current service context's time.
inline u64 clock_core_now() { return clock_now(0); }
// The calling hart's time, and its rewinding to an earlier reading of it (ClockUncharged).
u64 clock_here();
void clock_rewind_here(u64 t);
// For a scope, on any hart: work whose instructions follow the host's order, not the
// program's, costs nothing. The scheduler placing a woken thread dispatches it or queues
// it as the host freed harts; a translation of a user address hits or misses a per-hart
// cache that requests served in host order filled (and the modeled core translates in
// hardware). Without this, no later hand-off of the same service would repeat.
class ClockUncharged {
public:
    ClockUncharged() : from_(clock_here()) {}
    ~ClockUncharged() { clock_rewind_here(from_); }
    ClockUncharged(const ClockUncharged&) = delete;
    ClockUncharged& operator=(const ClockUncharged&) = delete;

private:
    u64 from_;
};
// The physical address of the offsets (by local hart) the NoC engine reads and advances.
u64 clock_offsets_phys();
// Maps the counter page and the cluster's clock page into a new program (nvx_abi.h).
bool clock_map_user();
}  // namespace nvx::kernel
