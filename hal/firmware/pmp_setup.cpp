#include "hal/firmware/pmp_setup.hpp"

#include "hal/riscv/csr.hpp"

namespace nvx::firmware {
void program_pmp(const board::Cluster& cluster) {
    riscv::pmp::Plan plan = pmp_plan_for(cluster);
    static_assert(riscv::pmp::kEntries == 16);
    // pmpaddrN are separate CSRs: the index must be an immediate.
    u64 a[16] = {};
    for (u32 i = 0; i < plan.used; i++) a[i] = plan.entries[i].addr;
    NVX_CSR_WRITE(pmpcfg0, 0);
    NVX_CSR_WRITE(pmpcfg2, 0);
    NVX_CSR_WRITE(pmpaddr0, a[0]);
    NVX_CSR_WRITE(pmpaddr1, a[1]);
    NVX_CSR_WRITE(pmpaddr2, a[2]);
    NVX_CSR_WRITE(pmpaddr3, a[3]);
    NVX_CSR_WRITE(pmpaddr4, a[4]);
    NVX_CSR_WRITE(pmpaddr5, a[5]);
    NVX_CSR_WRITE(pmpaddr6, a[6]);
    NVX_CSR_WRITE(pmpaddr7, a[7]);
    NVX_CSR_WRITE(pmpcfg0, plan.cfg_register(0));
    NVX_CSR_WRITE(pmpcfg2, plan.cfg_register(1));
    asm volatile("sfence.vma" ::: "memory");
}
}  // namespace nvx::firmware
