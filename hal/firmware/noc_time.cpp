#include "hal/firmware/noc_time.hpp"

#include "hal/board/current.hpp"
#include "hal/firmware/harts.hpp"
#include "kernel/abi/nvx_abi.h"
#include "support/atomic.hpp"
#include "support/bits.hpp"
#include "support/mem.hpp"
#include "support/reservations.hpp"
#include "support/spinlock.hpp"

// Read by the trap vector (entry.S): an IPI's instructions come off the hart's counter.
extern "C" {
nvx::u8 g_clock_live;
nvx::u64 g_clock_counter_page = nvx::board::kClockCounterPage;  // not const: const would be internal
}

// The NoC's timing is the clock's own bookkeeping (NVX_MODEL_CODE): it charges no hart.
namespace nvx::firmware::noc_time {
namespace {
using board::kBoard;

// Transfers a link remembers (older ones are forgotten: see support/reservations.hpp).
constexpr u32 kLinkReservations = 16;

struct Link {
    SpinLock lock;
    Reservations<kLinkReservations> busy;
};
Link g_out[board::kMaxNodes];  // each node's output link
Link g_in[board::kMaxNodes];   // each node's input link

u64* g_offsets[board::kMaxClusters];  // per cluster, set by its kernel at attach

u32 index_of(const board::Cluster& c) { return static_cast<u32>(&c - kBoard.clusters); }

NVX_MODEL_CODE const volatile u64* counters() { return reinterpret_cast<const volatile u64*>(board::kClockCounterPage); }

volatile u64* own_counter() { return reinterpret_cast<volatile u64*>(board::kClockCounterPage) + current_hart(); }

// First fit of `length` cycles at or after `from` on `link`, reserved.
NVX_MODEL_CODE u64 occupy(Link& link, u64 from, u64 length) {
    TimedLockGuard guard(link.lock);
    u64 start = link.busy.first_fit(from, length);
    link.busy.reserve(start, start + length);
    return start;
}

NVX_MODEL_CODE u64 serialization(u64 bytes) { return (bytes + kBoard.noc.bytes_per_cycle - 1) / kBoard.noc.bytes_per_cycle; }
NVX_MODEL_CODE u64 head_latency(u32 src, u32 dst) { return u64{kBoard.hops(src, dst)} * kBoard.noc.hop_latency_cycles; }
}  // namespace

NVX_MODEL_CODE bool live() { return counters()[board::kClockCounterSlots] == board::kClockLive; }

void boot() { g_clock_live = live() ? 1 : 0; }

bool register_offsets(const board::Cluster& c, u64 offsets_phys) {
    if (offsets_phys % 8 != 0 || !range_contains(c.mem_base, c.mem_size, offsets_phys, u64{c.harts} * 8)) return false;
    atomic::store_release(&g_offsets[index_of(c)], reinterpret_cast<u64*>(offsets_phys));
    return true;
}

NVX_MODEL_CODE u64 now(const board::Cluster& c) {
    u64* offsets = atomic::load_acquire(&g_offsets[index_of(c)]);
    if (!live() || offsets == nullptr) return 0;
    u64 hart = current_hart();
    return counters()[hart] + atomic::load_relaxed(&offsets[hart - c.first_hart]);
}

NVX_MODEL_CODE void advance_to(const board::Cluster& c, u64 t) {
    u64 current = now(c);
    if (t <= current) return;
    u64* offsets = g_offsets[index_of(c)];
    u64& offset = offsets[current_hart() - c.first_hart];  // only this hart changes it
    atomic::store_relaxed(&offset, offset + (t - current));
}

NVX_MODEL_CODE Transfer transfer(u32 src, u32 dst, u64 depart, u64 bytes) {
    if (!live()) return {0, 0};
    u64 length = serialization(bytes);
    u64 out = occupy(g_out[src], depart, length);
    u64 in = occupy(g_in[dst], out + head_latency(src, dst), length);
    return {out + length, in + length};
}

NVX_MODEL_CODE u64 notice_arrival(u32 src, u32 dst, u64 depart) { return live() ? depart + head_latency(src, dst) : 0; }

// The compiler fences keep the uncounted work between the two counter accesses.
Uncharged::Uncharged() : counter_(g_clock_live != 0 ? own_counter() : nullptr), before_(counter_ ? *counter_ : 0) {
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

Uncharged::~Uncharged() {
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (counter_ != nullptr) *counter_ = before_;  // only this hart (and its plugin thread) writes it
}

// Out of line: the same instructions around the copy wherever the engine calls it.
[[gnu::noinline]] void Dma::copy(void* to, const void* from, u64 bytes) {
    Uncharged dma;
    memcpy(to, from, bytes);
}

TimedLockGuard::TimedLockGuard(SpinLock& lock) : lock_(lock) {
    Uncharged wait;
    lock.lock();
}
}  // namespace nvx::firmware::noc_time
