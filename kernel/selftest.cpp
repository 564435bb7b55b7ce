#include "kernel/selftest.hpp"

#include "hal/board/platform.hpp"
#include "hal/riscv/csr.hpp"
#include "hal/riscv/sv39.hpp"
#include "hal/sbi/sbi_call.hpp"
#include "kernel/console.hpp"
#include "kernel/layout.hpp"
#include "kernel/mm/address_space.hpp"
#include "kernel/module.hpp"

namespace nvx::kernel {
// Returned in a0/a1 by the assembly probes.
struct ProbeResult {
    u64 faulted;
    u64 cause;
};
}  // namespace nvx::kernel

extern "C" nvx::kernel::ProbeResult probe_load(nvx::u64 address);
extern "C" nvx::kernel::ProbeResult probe_store(nvx::u64 address);

namespace nvx::kernel {
namespace {
namespace sv39 = riscv::sv39;
// A window in the kernel half, outside every regular mapping, for foreign pages.
constexpr u64 kProbeWindow = 0xffffffff40000000ull;

ProbeResult probe(u64 phys, bool store) {
    DirectMapMemory memory;
    sv39::PageTable<DirectMapMemory> table(memory, g_space.root());
    u64 page = align_down(phys, sv39::kPageSize);
    table.map(kProbeWindow, page, sv39::kRead | sv39::kWrite | sv39::kGlobal);
    asm volatile("sfence.vma" ::: "memory");
    u64 va = kProbeWindow + (phys - page);
    ProbeResult r = store ? probe_store(va) : probe_load(va);
    table.unmap(kProbeWindow);
    asm volatile("sfence.vma" ::: "memory");
    return r;
}

unsigned g_failures = 0;

void expect_fault(const char* name, u64 phys, bool store) {
    ProbeResult r = probe(phys, store);
    u64 expected = store ? riscv::kStoreAccessFault : riscv::kLoadAccessFault;
    selftest_report(name, r.faulted && r.cause == expected, r.faulted ? riscv::cause_name(r.cause) : "access succeeded");
}
}  // namespace

void selftest_report(const char* name, bool pass, const char* detail) {
    kprint("[cluster %u] selftest %s: %s (%s)\n", g_layout.index, name, pass ? "PASS" : "FAIL", detail);
    if (!pass) g_failures++;
}

void expect_sbi(const char* name, i64 got, i64 expected) {
    selftest_report(name, got == expected, got == expected ? "refused" : "unexpected SBI answer");
}

unsigned run_selftests() {
    const board::Board& b = board::kBoard;
    u32 other = (g_layout.index + 1) % b.cluster_count;
    const board::Cluster& foreign = b.cluster(other);
    // Last word of each forbidden region: unused, so a broken PMP would corrupt nothing.
    u64 foreign_word = foreign.mem_end() - 8;
    u64 firmware_word = board::kFirmwareBase + board::kFirmwareSize - 8;
    u64 program_word = board::kProgramBase + board::kProgramImageSize - 8;  // below the clock's counter page

    ProbeResult own = probe(g_layout.mem_base + g_layout.mem_size - 8, false);
    selftest_report("own-memory-load", !own.faulted, own.faulted ? "faulted" : "readable");
    expect_fault("foreign-cluster-load", foreign_word, false);
    expect_fault("foreign-cluster-store", foreign_word, true);
    expect_fault("firmware-load", firmware_word, false);
    expect_fault("firmware-store", firmware_word, true);
    expect_fault("program-region-store", program_word, true);
    expect_fault("uart-mmio-store", platform::kUartBase, true);
    expect_fault("clint-mmio-load", platform::kClintMtime, false);

    expect_sbi("sbi-console-foreign-buffer", sbi::console_write(foreign.mem_base, 16).error, sbi::kErrInvalidParam);
    expect_sbi("sbi-ipi-foreign-hart", sbi::send_ipi(1, foreign.first_hart), sbi::kErrInvalidParam);
    expect_sbi("sbi-hart-start-foreign-hart", sbi::hart_start(foreign.first_hart, foreign.mem_base, 0),
               sbi::kErrInvalidParam);
    expect_sbi("sbi-hart-start-foreign-address", sbi::hart_start(g_layout.cluster->first_hart + 1, foreign.mem_base, 0),
               sbi::kErrInvalidAddress);
    expect_sbi("sbi-hart-status-foreign-hart", sbi::hart_status(foreign.first_hart).error, sbi::kErrInvalidParam);

    for (const KernelModule* m = modules_begin(); m != modules_end(); m++)
        if (m->selftest != nullptr) m->selftest();
    return g_failures;
}
}  // namespace nvx::kernel
