// Exceptions taken in S-mode. The kernel runs with interrupts masked, so only two kinds
// arrive: a self-test probe touching forbidden memory (expected) or a kernel bug (panic).
#include "hal/riscv/csr.hpp"
#include "kernel/arch/trap_frame.hpp"
#include "kernel/console.hpp"

extern "C" char probe_load_insn[], probe_store_insn[], probe_done[];

extern "C" void kernel_trap(nvx::kernel::TrapFrame* frame) {
    using namespace nvx;
    u64 pc = NVX_CSR_READ(sepc), cause = NVX_CSR_READ(scause);
    if (pc == reinterpret_cast<u64>(probe_load_insn) || pc == reinterpret_cast<u64>(probe_store_insn)) {
        frame->x[kernel::kA0] = 1;
        frame->x[kernel::kA1] = cause;
        NVX_CSR_WRITE(sepc, reinterpret_cast<u64>(probe_done));
        return;
    }
    kernel::panic("S-mode %s (cause %lu) at pc 0x%lx, address 0x%lx", riscv::cause_name(cause), cause, pc,
                  NVX_CSR_READ(stval));
}
