// The per-hart virtual clock (issue 9; README "The virtual clock"). A hart's virtual time,
// in cycles of the modeled core (board::kCoreHz, one instruction = one cycle), is the
// board's instruction counter for it (the counter page, board::kClockCounterPage, advanced
// by the QEMU plugin) plus an offset this kernel keeps in the cluster's clock page. Both
// pages are mapped read-only into every program (nvx_abi.h), so user space reads its
// hart's time without a kernel call (runtime/clock.c).
//
// Rules: only hart `local` changes offset[local], and only upwards (Lamport: a hart takes
// max(own time, a stamp handed to it)), so a hart's time never goes back. Under the wall
// clock (no plugin: the counter page is not live) every stamp is 0 and nothing changes.
//
// Step 1 (this file) stamps one hand-off: a thread carries its time from the hart it
// leaves (posting a call, a preemption or a fault to the kernel core) to the hart that
// runs it next, so a thread's clock is monotonic across migrations.
//
// Limits / next step (step 2): every other hand-off between harts carries its sender's
// time, through the two calls below and no new structure:
//  - a stamp is `clock_now(local) + modeled latency`; the receiver calls
//    clock_advance_to(its Cpu, stamp) when it takes the hand-off;
//  - forwarded kernel calls: the user hart's stamp (clock_thread_leaves) is taken by the
//    kernel core (advance_to) when it serves the request; the answer is stamped with the
//    core's time plus its service by clock_stamp_thread() at dispatch, and the user hart
//    takes it in clock_thread_arrives (already in place);
//  - thread create (the creator's time), futex wake and join (the waker's time): the core
//    stamps the woken thread with clock_stamp_thread();
//  - IPIs and NoC transfers: the NoC engine (firmware, M-mode: it reads the counter page
//    and the sender's offset) puts sender time + hops x hop latency + bytes / bandwidth in
//    each message; link and receiver queues keep a "free at" virtual time so transfers
//    sharing them queue in virtual time; a receiver serves in stamp order, not host order;
//  - MPI envelopes and shared-memory cells carry nvx_clock_cycles() and the receiver
//    takes the maximum through a runtime call that ends in clock_advance_to on its hart.
// Known host dependence to remove then: the kernel core's dispatch IPI may reach a user
// hart after it already picked the thread up (it was awake); the late interrupt then
// costs that hart about 170 instructions at a host-timed moment (tests/guest/clock.c takes
// the least of three loops for this reason). A hart that finds its dispatch awake should
// not be interrupted again (e.g. the core skips the IPI to a hart not in wfi).
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
// User harts: `t` leaves `c` (its time goes with it) / `t` arrives on `c` (user space finds
// its hart in the clock page; `c` takes the thread's time).
void clock_thread_leaves(Cpu& c, const Thread* t);
void clock_thread_arrives(Cpu& c, const Thread* t);
// Maps the counter page and the cluster's clock page into a new program (nvx_abi.h).
bool clock_map_user();
}  // namespace nvx::kernel
