#include "kernel/cpu.hpp"

#include "hal/sbi/sbi_call.hpp"
#include "kernel/layout.hpp"

namespace nvx::kernel {
namespace {
Cpu g_cpus[kMaxHarts];
}

Cpu& cpu_at(u32 local) { return g_cpus[local]; }
u32 user_hart_count() { return g_layout.cluster->harts - 1; }
void send_ipi(const Cpu& target) {
    asm volatile("fence rw, rw" ::: "memory");  // the hand-off is visible before the IPI
    sbi::send_ipi(1, target.hart);
}
}  // namespace nvx::kernel
