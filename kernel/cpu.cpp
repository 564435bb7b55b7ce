#include "kernel/cpu.hpp"

#include "hal/board/platform.hpp"
#include "hal/riscv/csr.hpp"
#include "hal/sbi/sbi_call.hpp"
#include "kernel/console.hpp"
#include "kernel/layout.hpp"
#include "support/atomic.hpp"

namespace nvx::kernel {
Cpu g_cpus[kMaxHarts];
u64 g_posted_harts;
static_assert(kMaxHarts <= 64, "posted harts fit one mask");

namespace {
// IPIs raised per local hart: the SSWI reads back nothing, so the firmware's deadlock watch
// learns from these that one may still be on its way to a hart it found idle.
u64 g_ipis_sent[kMaxHarts];
}  // namespace

// Straight to the target's SSWI register (mapped at its hart id, kSswiVirtualBase): no
// firmware on either side. Counted after it is raised (hal/firmware/idle.cpp says why).
void send_ipi(const Cpu& target) {
    asm volatile("fence rw, o" ::: "memory");  // the hand-off is visible before the IPI
    *reinterpret_cast<volatile u32*>(kSswiVirtualBase + platform::kSswiBytesPerHart * target.hart) = 1;
    asm volatile("fence o, rw" ::: "memory");
    __atomic_add_fetch(&g_ipis_sent[target.local], u64{1}, __ATOMIC_RELAXED);
}

bool watch_ipis() {
    u64 counts = g_layout.virt_to_phys(reinterpret_cast<u64>(g_ipis_sent));
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
