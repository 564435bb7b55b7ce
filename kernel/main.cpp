// Kernel entry of every hart of the cluster (called by boot.S with paging on).
// The kernel core (local hart 0) builds the address space, starts the user harts, runs
// the self-tests if asked, loads the program and then serves kernel calls.
#include "hal/riscv/csr.hpp"
#include "hal/sbi/sbi_call.hpp"
#include "kernel/bootargs.hpp"
#include "kernel/console.hpp"
#include "kernel/core/core_loop.hpp"
#include "kernel/core/user_hart.hpp"
#include "kernel/layout.hpp"
#include "kernel/mm/address_space.hpp"
#include "kernel/module.hpp"
#include "kernel/proc/cluster_ends.hpp"
#include "kernel/proc/deadlock_report.hpp"
#include "kernel/proc/process.hpp"
#include "kernel/selftest.hpp"

extern "C" char _kernel_secondary_entry[];
// Read by boot.S before C++ runs (hence C linkage).
extern "C" {
alignas(16) nvx::u8 g_kernel_stacks[nvx::kernel::kMaxHarts][nvx::kernel::kKernelStackSize];
extern const nvx::u64 g_kernel_stack_size;
const nvx::u64 g_kernel_stack_size = nvx::kernel::kKernelStackSize;
alignas(4096) nvx::u64 g_boot_root_table[512];
alignas(4096) nvx::u64 g_boot_l1_table[512];
}

namespace nvx::kernel {
ClusterLayout g_layout;

namespace {
BootArgs g_args;

void set_tp(Cpu& c) { asm volatile("mv tp, %0" ::"r"(&c)); }

// A cluster that cannot boot leaves the board unusable: power it off with a failure.
[[noreturn]] void fail_boot(const char* what, i64 detail) {
    kprint("[cluster %u] boot failed: %s (%ld)\n", g_layout.index, what, detail);
    sbi::system_reset(sbi::kResetShutdown, sbi::kReasonFailure);
    for (;;) riscv::wfi();
}

void start_user_harts() {
    const board::Cluster& c = *g_layout.cluster;
    u64 entry = g_layout.virt_to_phys(reinterpret_cast<u64>(_kernel_secondary_entry));
    for (u32 local = 1; local < c.harts; local++) {
        i64 err = sbi::hart_start(c.first_hart + local, entry, local);
        if (err != sbi::kSuccess) fail_boot("cannot start a user hart", err);
    }
    wait_for_user_harts(c.harts - 1);
}

[[noreturn]] void kernel_core_main(u64 hart, const board::BootInfo* info) {
    if (info->magic != board::kBootInfoMagic) {
        for (;;) riscv::wfi();  // no way to even print: the firmware did not set us up
    }
    g_layout = {static_cast<u32>(info->cluster), &board::kBoard.cluster(static_cast<u32>(info->cluster)),
                info->mem_base, info->mem_size};
    Cpu& core = cpu_at(0);
    core.local = 0;
    core.hart = static_cast<u32>(hart);
    set_tp(core);
    NVX_CSR_WRITE(stvec, reinterpret_cast<u64>(&kernelvec));

    u64 free_start = g_layout.virt_to_phys(reinterpret_cast<u64>(_kernel_end));
    // The first I/O cluster keeps the launcher's image region out of the page pool.
    u64 free_end = g_layout.index == board::kControlCluster ? board::image_region_base(board::kBoard)
                                       : board::boot_info_address(*g_layout.cluster);
    g_pages.init(free_start, free_end - free_start);
    if (!g_space.init()) fail_boot("out of memory for the kernel page table", 0);
    NVX_CSR_WRITE(satp, g_space.satp());
    asm volatile("sfence.vma" ::: "memory");

    for (u32 local = 1; local < g_layout.cluster->harts; local++) {
        Cpu& c = cpu_at(local);
        c.local = local;
        c.hart = g_layout.cluster->first_hart + local;
        c.stack_top = reinterpret_cast<u64>(g_kernel_stacks[local]) + kKernelStackSize;
    }
    start_user_harts();
    const char* kind = g_layout.is_compute() ? "compute" : "I/O";
    kprint("[cluster %u] %s kernel ready: harts %u-%u (%u/%u ready), %lu KiB memory, %lu KiB free\n", g_layout.index,
           kind, g_layout.cluster->first_hart, g_layout.cluster->first_hart + g_layout.cluster->harts - 1,
           cpu_at(0).ready + 1, g_layout.cluster->harts, g_layout.mem_size / KiB, g_pages.free_pages() * 4);

    if (!parse_bootargs(info->bootargs, &g_args)) fail_boot(g_args.error, 0);
    for (const KernelModule* m = modules_begin(); m != modules_end(); m++)
        if (m->boot != nullptr && !m->boot()) fail_boot(m->name, 0);
    if (u32 clash = calls_init()) fail_boot("kernel call listed twice or out of range", clash);
    if (g_args.has(KernelOption::Selftest)) {
        unsigned failures = run_selftests();
        kprint("[cluster %u] selftest summary: %u failed\n", g_layout.index, failures);
    }
    watch_cluster_ends();
    watch_deadlock();
    // Test of the firmware's rule: the last compute cluster's kernel asks for a board
    // reset; the firmware must end that cluster only (test compute_reset).
    if (g_args.has(KernelOption::ComputeResetTest) && g_layout.index == board::kBoard.cluster_count - 1 &&
        g_layout.is_compute()) {
        kprint("[cluster %u] compute-reset-test: asking the firmware to power the board off with status 0\n",
               g_layout.index);
        sbi::system_reset(sbi::kResetShutdown, sbi::kReasonNone);
        kprint("[cluster %u] compute-reset-test: the firmware refused and let this cluster run\n", g_layout.index);
    }
    int err = start_system_program(g_args);
    if (err != 0) fail_boot("cannot load the system program", err);
    core_loop();
}
}  // namespace
}  // namespace nvx::kernel

extern "C" [[noreturn]] void kernel_entry(nvx::u64 hart, const nvx::board::BootInfo* info, nvx::u64 local) {
    using namespace nvx::kernel;
    if (local == 0) kernel_core_main(hart, info);
    NVX_CSR_WRITE(satp, g_space.satp());  // leave the boot table for the final one
    asm volatile("sfence.vma" ::: "memory");
    Cpu& c = cpu_at(static_cast<nvx::u32>(local));
    asm volatile("mv tp, %0" ::"r"(&c));
    user_hart_main(c);
}
