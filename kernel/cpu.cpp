#include "kernel/cpu.hpp"

#include "hal/board/platform.hpp"
#include "hal/riscv/csr.hpp"
#include "hal/sbi/ipi_count.hpp"
#include "hal/sbi/sbi_call.hpp"
#include "kernel/console.hpp"
#include "kernel/layout.hpp"
#include "support/atomic.hpp"

namespace nvx::kernel {
Cpu g_cpus[kMaxHarts];
u64 g_posted_harts;
static_assert(kMaxHarts <= 64, "posted harts fit one mask");

namespace {
// Per local hart, for the firmware's deadlock watch: the SSWI reads back nothing.
sbi::IpiCount g_ipi_counts[kMaxHarts];
}  // namespace

// Straight to the target's SSWI register (mapped at its hart id, kSswiVirtualBase): no
// firmware on either side. Counted before and after (hal/firmware/idle.cpp says why).
void send_ipi(const Cpu& target) {
    sbi::IpiCount& count = g_ipi_counts[target.local];
    __atomic_add_fetch(&count.begun, u64{1}, __ATOMIC_RELAXED);
    asm volatile("fence rw, o" ::: "memory");  // the hand-off and the count are visible before the IPI
    *reinterpret_cast<volatile u32*>(kSswiVirtualBase + platform::kSswiBytesPerHart * target.hart) = 1;
    asm volatile("fence o, rw" ::: "memory");
    __atomic_add_fetch(&count.raised, u64{1}, __ATOMIC_RELAXED);
}

bool watch_ipis() {
    u64 counts = g_layout.virt_to_phys(reinterpret_cast<u64>(g_ipi_counts));
    return sbi::call(sbi::kExtVendorNvx, sbi::kVendorWatchIpis, counts).error == sbi::kSuccess;
}

void wait_for_user_harts(unsigned ready) {
    Cpu& core = cpu_at(0);
    NVX_CSR_SET(sie, riscv::kIntSSoft);  // wfi wakes only for interrupts enabled in sie
    for (;;) {
        NVX_CSR_CLEAR(sip, riscv::kIntSSoft);
        if (atomic::load_acquire(&core.ready) >= ready) return;
        idle_until_interrupt();
    }
}

void wait_for_user_harts_quiet() {
    for (;;) {
        NVX_CSR_CLEAR(sip, riscv::kIntSSoft);
        bool quiet = true;
        for (u32 i = 1; i <= user_hart_count(); i++) quiet &= atomic::load_acquire(&cpu_at(i).signals) == 0;
        if (quiet) return;
        idle_until_interrupt();
    }
}
}  // namespace nvx::kernel
