#include "hal/firmware/cluster_end.hpp"

#include "hal/firmware/console.hpp"
#include "hal/firmware/devices.hpp"
#include "hal/firmware/harts.hpp"
#include "hal/firmware/idle.hpp"
#include "hal/riscv/csr.hpp"
#include "support/atomic.hpp"

// Read by the IPI fast path in entry.S: a hart of an ended cluster takes the full trap,
// where it parks.
extern "C" {
nvx::u8 g_hart_ended[nvx::board::kBoard.hart_count];
}

namespace nvx::firmware {
namespace {
static_assert(board::kBoard.cluster_count <= 64, "ended clusters fit one word");
u64 g_ended_clusters;  // bit per ended cluster
u64* g_watch_word;     // the control kernel's word, or null before it registers

[[noreturn]] void park() { idle_forever(); }

// Sets the ended bits in the control kernel's word and wakes its kernel core. Both this
// and the registration publish under seq_cst ordering, so each end reaches the word.
void report(u64 bits) {
    u64* word = __atomic_load_n(&g_watch_word, __ATOMIC_SEQ_CST);
    if (word == nullptr) return;
    __atomic_fetch_or(word, bits, __ATOMIC_SEQ_CST);
    *msip(board::kBoard.cluster(board::kControlCluster).first_hart) = 1;
}
}  // namespace

void end_cluster(const board::Cluster& c, u64 type, u64 reason) {
    u32 index = static_cast<u32>(&c - board::kBoard.clusters);
    console_print("[firmware] cluster %u asked for a system reset (type %lu, reason 0x%lx): only cluster %u may "
                  "reset the board; cluster %u ended\n",
                  index, type, reason, board::kControlCluster, index);
    for (u32 h = c.first_hart; h < c.first_hart + c.harts; h++) __atomic_store_n(&g_hart_ended[h], 1, __ATOMIC_SEQ_CST);
    __atomic_fetch_or(&g_ended_clusters, u64{1} << index, __ATOMIC_SEQ_CST);
    report(u64{1} << index);
    u64 self = current_hart();
    for (u32 h = c.first_hart; h < c.first_hart + c.harts; h++)
        if (h != self) *msip(h) = 1;  // each traps into M-mode and parks there
    park();
}

void park_if_ended(u64 hart) {
    if (__atomic_load_n(&g_hart_ended[hart], __ATOMIC_ACQUIRE)) park();
}

sbi::Result watch_cluster_ends(const board::Cluster& c, u64 word) {
    if (&c != &board::kBoard.cluster(board::kControlCluster)) return {sbi::kErrDenied, 0};
    if (word % 8 != 0 || word < c.mem_base || word + 8 > c.mem_end()) return {sbi::kErrInvalidAddress, 0};
    __atomic_store_n(&g_watch_word, reinterpret_cast<u64*>(word), __ATOMIC_SEQ_CST);
    report(__atomic_load_n(&g_ended_clusters, __ATOMIC_SEQ_CST));  // ends before the registration
    return {sbi::kSuccess, 0};
}
}  // namespace nvx::firmware
