#include "kernel/cpu.hpp"

#include "hal/riscv/csr.hpp"
#include "hal/sbi/sbi_call.hpp"
#include "kernel/console.hpp"
#include "kernel/layout.hpp"
#include "support/atomic.hpp"

namespace nvx::kernel {
Cpu g_cpus[kMaxHarts];
u64 g_posted_harts;
static_assert(kMaxHarts <= 64, "posted harts fit one mask");

void send_ipi(const Cpu& target) {
    asm volatile("fence rw, rw" ::: "memory");  // the hand-off is visible before the IPI
    // A hart of our own cluster: a refusal is a kernel bug.
    if (i64 err = sbi::send_ipi(1, target.hart); err != sbi::kSuccess) panic("IPI to hart %u refused (%ld)", target.hart, err);
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
