#include "kernel/clock/clock.hpp"

#include "kernel/abi/nvx_abi.h"
#include "kernel/config.hpp"
#include "kernel/layout.hpp"
#include "kernel/mm/address_space.hpp"
#include "kernel/module.hpp"
#include "kernel/sched/thread.hpp"
#include "support/atomic.hpp"
#include "support/reservations.hpp"

namespace nvx::kernel {
namespace {
static_assert(sizeof(nvx_clock_counters) == board::kPageSize && NVX_CLOCK_COUNTER_SLOTS == board::kClockCounterSlots,
              "the ABI's counter page is the board's");
static_assert(NVX_CLOCK_LIVE == board::kClockLive, "the ABI's live word is the board's");
static_assert(NVX_TIMER_HZ == board::kTimerHz, "user space's board clock frequency is the board's");
static_assert(sizeof(nvx_clock_cluster) <= board::kPageSize && kMaxHarts <= NVX_CLOCK_CLUSTER_HARTS);
static_assert(kMaxThreads == NVX_THREAD_SLOTS && (1u << kThreadSlotBits) == NVX_THREAD_SLOTS,
              "user space finds its thread's slot as id % NVX_THREAD_SLOTS");
static_assert(NVX_USER_CLOCK_COUNTERS % board::kPageSize == 0 &&
              NVX_USER_CLOCK_COUNTERS >= NVX_USER_PRIVATE_BASE + NVX_USER_PRIVATE_MAX &&
              NVX_USER_CLOCK_CLUSTER + board::kPageSize <= NVX_USER_THREAD_STACKS_BASE &&
              NVX_USER_CLOCK_CLUSTER == NVX_USER_CLOCK_COUNTERS + board::kPageSize);

// The counter page, seen through the kernel's read-only map of the program region.
NVX_MODEL_CODE const nvx_clock_counters& counters() {
    return *reinterpret_cast<const nvx_clock_counters*>(kProgramVirtualBase + (board::kClockCounterPage - board::kProgramBase));
}

// The cluster's clock page: a page of its own, since all of it is mapped into user space.
struct alignas(board::kPageSize) ClusterPage {
    nvx_clock_cluster clock;
};
static_assert(sizeof(ClusterPage) == board::kPageSize);
ClusterPage g_page;

// The time each thread carries between harts, by slot; `id` tells a slot's new thread from
// the one that left the stamp. Written by the hart the thread leaves (or the kernel core),
// read by the hart it arrives on: the post/dispatch hand-off orders the two.
struct ThreadTime {
    u64 id;
    u64 stamp;
    bool server;  // nvx_clock_server(): each hand-off to it sets its time, not a maximum
};
ThreadTime g_thread_time[kMaxThreads];

bool g_virtual;  // set once at boot, before any program runs

// A posted call's answer time, when the call named one (clock_answer_at).
u64 g_answer_at;
bool g_answer_named;

// Written only by hart `local` (its kernel), read by any hart and by user space.
NVX_MODEL_CODE u64* offset_of(u32 local) { return &g_page.clock.offset[local]; }

NVX_MODEL_CODE u64 counter_of(u32 local) { return atomic::load_relaxed(&counters().cycles[g_page.clock.first_hart + local]); }

// Rebases hart `local`'s clock so that it reads `t` now. Its offset may go down: the core
// is a server whose time is per context (no user thread reads it), and a user hart's time
// is that of the thread it runs (each thread's own time never goes back).
NVX_MODEL_CODE void set_time(u32 local, u64 t) { atomic::store_relaxed(offset_of(local), t - counter_of(local)); }
NVX_MODEL_CODE void set_core_time(u64 t) { set_time(0, t); }

// User harts as servers too: the virtual time each thread ran there, so that a thread the
// scheduler hands to a hart (in host order) runs from its own time, after what that hart
// ran before it in virtual time, not after whatever the host ran there first. Written
// only by the hart itself.
Reservations<kHartReservations> g_hart_busy[kMaxHarts];
u64 g_run_start[kMaxHarts];

// The kernel core as a server of capacity one: the virtual time it spent in each service
// context, so that a request the host presents later but stamped earlier starts in a gap
// before the services already reserved, or after them, never beside them in parallel.
Reservations<kCoreReservations> g_core_busy;
u64 g_context_start;
bool g_in_context;

// The current context's work is done: the core was busy from its start until now.
NVX_MODEL_CODE void end_context() {
    if (!g_in_context) return;
    g_core_busy.reserve(g_context_start, clock_now(0));
    g_in_context = false;
}

// A context for something stamped `stamp` starts when the core is free at or after it.
NVX_MODEL_CODE void start_context(u64 stamp) {
    u64 start = g_core_busy.first_fit(stamp, 0);
    set_core_time(start);
    g_context_start = start;
    g_in_context = true;
}

// The latest time any thread of this cluster carried (bounds nvx_clock_take's stamps), per
// hart that handed it out: written only by that hart, so that noting it costs the same
// instructions whatever the other harts do (a shared maximum's compare-and-swap retried
// as often as the host interleaved the harts).
u64 g_latest[kMaxHarts];
NVX_MODEL_CODE void note_latest(u64 t) {
    u64* mine = &g_latest[this_cpu().local];
    if (t > atomic::load_relaxed(mine)) atomic::store_relaxed(mine, t);
}
}  // namespace

bool clock_boot() {
    nvx_clock_cluster& page = g_page.clock;
    page.core_hz = board::kCoreHz;
    page.timer_hz = board::kTimerHz;
    page.first_hart = g_layout.cluster->first_hart;
    page.harts = g_layout.cluster->harts;
    for (u64& offset : page.offset) offset = 0;
    for (u32& hart : page.thread_hart) hart = 0;
    for (ThreadTime& t : g_thread_time) t = {};
    for (auto& busy : g_hart_busy) busy.clear();
    g_core_busy.clear();
    g_in_context = false;
    for (u64& latest : g_latest) latest = 0;
    // The plugin marks the page before the board starts: it does not change while we run.
    g_virtual = atomic::load_relaxed(&counters().live) == NVX_CLOCK_LIVE;
    return true;
}

NVX_MODEL_CODE bool clock_is_virtual() { return g_virtual; }

NVX_MODEL_CODE u64 clock_now(u32 local) {
    if (!g_virtual) return 0;
    return atomic::load_relaxed(&counters().cycles[g_page.clock.first_hart + local]) + atomic::load_relaxed(offset_of(local));
}

NVX_MODEL_CODE void clock_advance_to(Cpu& c, u64 stamp) {
    u64 now = clock_now(c.local);
    if (stamp > now) atomic::store_relaxed(offset_of(c.local), *offset_of(c.local) + (stamp - now));
}

NVX_MODEL_CODE void clock_stamp_thread(const Thread* t, u64 stamp) {
    note_latest(stamp);
    ThreadTime& time = g_thread_time[thread_slot(t)];
    if (time.id != t->id) time = {t->id, 0, false};
    if (stamp > time.stamp || time.server) time.stamp = stamp;
}

NVX_MODEL_CODE bool clock_thread_is_server(const Thread* t) {
    const ThreadTime& time = g_thread_time[thread_slot(t)];
    return time.id == t->id && time.server;
}

NVX_MODEL_CODE void clock_make_server(Cpu& c, const Thread* t) {
    ThreadTime& time = g_thread_time[thread_slot(t)];  // t runs here: nobody else writes its slot now
    if (time.id != t->id) time = {t->id, clock_now(c.local), false};
    time.server = true;
}

NVX_MODEL_CODE u64 clock_thread_stamp(const Thread* t) {
    const ThreadTime& time = g_thread_time[thread_slot(t)];
    return time.id == t->id ? time.stamp : 0;
}

NVX_MODEL_CODE void clock_thread_leaves(Cpu& c, const Thread* t) {
    u64 now = clock_now(c.local);
    if (g_virtual) g_hart_busy[c.local].reserve(g_run_start[c.local], now);
    note_latest(now);
    clock_stamp_thread(t, now);
}

NVX_MODEL_CODE void clock_thread_arrives(Cpu& c, const Thread* t, u64 waited_from) {
    u32 slot = thread_slot(t);
    // Before the thread runs here: nvx_clock_cycles() reads it to find this hart.
    atomic::store_relaxed(&g_page.clock.thread_hart[slot], c.local);
    if (!g_virtual) return;
    u64 now = clock_now(c.local);
    // A thread with no time of its own yet (a program's first) goes on from the hart's.
    u64 stamp = g_thread_time[slot].id == t->id ? g_thread_time[slot].stamp : waited_from;
    // The hart's instructions since it went to wait are its wake-up: they follow the hand-off.
    u64 start = g_hart_busy[c.local].first_fit(stamp + (now - waited_from), 0);
    set_time(c.local, start);
    g_run_start[c.local] = start;
}

NVX_MODEL_CODE void clock_user_take(Cpu& c, const Thread* t, u64 stamp) {
    if (!g_virtual) return;
    u64 now = clock_now(c.local);
    bool server = clock_thread_is_server(t);  // it begins a request: from the request's time
    if (!server && stamp <= now) return;
    // The hart was busy up to now; the thread goes on from the stamp (the wait between
    // is no work of this hart: another thread may have it meanwhile in virtual time). A
    // server's request does not queue behind the hart's other work (as the core's).
    g_hart_busy[c.local].reserve(g_run_start[c.local], now);
    u64 start = server ? stamp : g_hart_busy[c.local].first_fit(stamp, 0);
    set_time(c.local, start);
    g_run_start[c.local] = start;
}

NVX_MODEL_CODE void clock_note_handed(u64 t) { note_latest(t); }

NVX_MODEL_CODE bool clock_stamp_ok(u64 stamp) {
    for (u32 local = 0; local < g_page.clock.harts; local++) {
        if (stamp <= atomic::load_relaxed(&g_latest[local])) return true;
        if (local > 0 && stamp <= clock_now(local)) return true;  // a user hart's time is a thread's
    }
    return false;
}

NVX_MODEL_CODE void clock_serve(u64 stamp) {
    g_answer_named = false;
    if (!g_virtual) return;
    end_context();
    start_context(stamp);
}

NVX_MODEL_CODE void clock_serve_idle() {
    g_answer_named = false;
    if (!g_virtual) return;
    end_context();
    set_core_time(0);
}

// The core waits for `stamp` (idle meanwhile), then goes on serving.
NVX_MODEL_CODE void clock_take(u64 stamp) {
    if (!g_virtual || stamp <= clock_now(0)) return;
    bool serving = g_in_context;
    end_context();
    if (serving) start_context(stamp);
    else set_core_time(stamp);
}

NVX_MODEL_CODE u64 clock_here() { return clock_now(this_cpu().local); }

NVX_MODEL_CODE void clock_rewind_here(u64 t) {
    if (g_virtual) set_time(this_cpu().local, t);
}

NVX_MODEL_CODE void clock_answer_at(u64 t) {
    g_answer_at = t;
    g_answer_named = true;
}

NVX_MODEL_CODE u64 clock_answer() { return g_answer_named ? g_answer_at : clock_core_now(); }

NVX_MODEL_CODE void clock_serve_thread(const Thread* t) { clock_serve(clock_thread_stamp(t)); }

NVX_MODEL_CODE void clock_stamp_answer(const Thread* t) { clock_stamp_thread(t, clock_answer()); }

u64 clock_offsets_phys() { return g_layout.virt_to_phys(reinterpret_cast<u64>(&g_page.clock.offset[0])); }

bool clock_map_user() {
    u64 cluster_page = g_layout.virt_to_phys(reinterpret_cast<u64>(&g_page));
    return g_space.map_user_physical(NVX_USER_CLOCK_COUNTERS, board::kClockCounterPage, board::kPageSize) &&
           g_space.map_user_physical(NVX_USER_CLOCK_CLUSTER, cluster_page, board::kPageSize);
}
}  // namespace nvx::kernel

NVX_KERNEL_MODULE(g_clock_module) = {"clock", nvx::kernel::clock_boot, nullptr, nullptr, 0, nullptr, nullptr,
                                     nullptr, nullptr, nullptr, nullptr};
