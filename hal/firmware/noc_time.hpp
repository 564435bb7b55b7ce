// The NoC in virtual time: the engine stamps every transfer with its sender's
// virtual time plus the modeled latency, and queues transfers that share a link in virtual
// time. A hart's time is the board's counter for it plus the offset its kernel keeps; the
// kernel names where its offsets are when it attaches its nodes. Under the wall clock (no
// counter plugin) every time is 0 and nothing is reserved.
#pragma once
#include "hal/board/board.hpp"
#include "support/spinlock.hpp"

namespace nvx::firmware::noc_time {
// True when the board's instruction counters run.
bool live();
// Hart 0 at boot, before any other hart starts: notes whether they run, for the IPI path
// of the trap vector (entry.S), which takes its instructions off the counter.
void boot();
// `c`'s kernel keeps its harts' offsets (u64 per local hart) at `offsets_phys`.
bool register_offsets(const board::Cluster& c, u64 offsets_phys);
// The calling hart's virtual time (it belongs to cluster `c`).
u64 now(const board::Cluster& c);
// The calling hart's time becomes at least `t` (it had to wait for the NoC).
void advance_to(const board::Cluster& c, u64 t);

struct Transfer {
    u64 sent;     // the sender's link is free again (the last byte left)
    u64 arrival;  // the last byte is in the receiver's memory
};
// `bytes` from node src to node dst, leaving no earlier than `depart`: each link (the
// sender's output, the receiver's input) carries one transfer at a time, first fit among
// the transfers already reserved on it; the head takes hops x hop latency between them.
Transfer transfer(u32 src, u32 dst, u64 depart, u64 bytes);
// A notice (credit, allow, drained) from src reaches dst: the head latency only.
u64 notice_arrival(u32 src, u32 dst, u64 depart);

// A transfer the NoC's DMA carries out, not a processor: every payload the engine moves,
// mailbox messages and portal pieces alike (the MPPA's data NoC moves both with its DMA
// engines). The hart that starts one pays only the instructions to start it (its call
// into the engine) and to take its completion:
//  - its stamp is read when the transfer is set up, before the engine copies anything;
//  - the copy the emulation makes in the DMA's place (copy()) comes off the hart's
//    counter, as the IPI path's instructions do (entry.S): one out-of-line step, so what
//    is taken back does not depend on what the compiler inlines around its callers;
//  - the bytes take transfer()'s time from when they may leave (the stamp, or later when
//    the sender must wait for room): hops x hop latency + bytes / link bandwidth,
//    queued on the links;
//  - the hart's time moves to when the last byte left only when it takes the completion
//    (complete()): pieces it starts one after another queue on the engine meanwhile.
class Dma {
public:
    explicit Dma(const board::Cluster& c) : cluster_(c), stamp_(now(c)) {}
    u64 stamp() const { return stamp_; }
    static void copy(void* to, const void* from, u64 bytes);
    void send(u32 src, u32 dst, u64 depart, u64 bytes) { sent_ = transfer(src, dst, depart, bytes); }
    const Transfer& sent() const { return sent_; }
    void complete() const { advance_to(cluster_, sent_.sent); }

private:
    const board::Cluster& cluster_;
    u64 stamp_;
    Transfer sent_{};
};

// While it lives, the calling hart's instructions are not counted: they stand for no
// work of a modeled processor (the emulation's locks, the DMA's copy). Not nested.
class Uncharged {
public:
    Uncharged();
    ~Uncharged();
    Uncharged(const Uncharged&) = delete;
    Uncharged& operator=(const Uncharged&) = delete;

private:
    volatile u64* counter_;  // null under the wall clock
    u64 before_;
};

// Takes `lock` (the engine's per-node and per-link locks). While another hart holds it,
// this hart spins for as long as the host takes to run that one. The acquisition costs
// nothing: the locks stand for no part of the modeled NoC, and any charge left for them
// (the least an acquisition took, say) would make a contended acquisition differ from an
// uncontended one wherever the code around it differs.
class TimedLockGuard {
public:
    explicit TimedLockGuard(SpinLock& lock);
    ~TimedLockGuard() { lock_.unlock(); }
    TimedLockGuard(const TimedLockGuard&) = delete;
    TimedLockGuard& operator=(const TimedLockGuard&) = delete;

private:
    SpinLock& lock_;
};
}  // namespace nvx::firmware::noc_time
