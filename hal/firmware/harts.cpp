#include "hal/firmware/harts.hpp"

#include "hal/firmware/devices.hpp"
#include "hal/firmware/idle.hpp"
#include "hal/firmware/pmp_setup.hpp"
#include "hal/riscv/csr.hpp"
#include "support/atomic.hpp"

extern "C" [[noreturn]] void enter_supervisor(nvx::u64 start, nvx::u64 hart, nvx::u64 opaque, nvx::u64 stack_top);

namespace nvx::firmware {
inline constexpr u64 kMachineStackSize = 2048;
}

// Read by entry.S before any C++ runs.
extern "C" {
alignas(16) nvx::u8 g_machine_stacks[nvx::board::kBoard.hart_count][nvx::firmware::kMachineStackSize];
extern const nvx::u64 g_machine_stack_size, g_firmware_hart_count, g_clint_msip;
const nvx::u64 g_machine_stack_size = nvx::firmware::kMachineStackSize;
const nvx::u64 g_firmware_hart_count = nvx::board::kBoard.hart_count;
const nvx::u64 g_clint_msip = nvx::platform::kClintMsip;  // the IPI fast paths in entry.S
}

namespace nvx::firmware {
// Per hart, its cluster's harts as first | end << 32: the IPI fast path in entry.S checks
// targets against it. Built from the board table at compile time.
struct HartSpans {
    u64 span[board::kBoard.hart_count];
    constexpr HartSpans() : span{} {
        for (u32 h = 0; h < board::kBoard.hart_count; h++) {
            const board::Cluster& c = board::kBoard.cluster(board::kBoard.cluster_of_hart(h));
            span[h] = c.first_hart | u64{c.first_hart + c.harts} << 32;
        }
    }
};
}  // namespace nvx::firmware
extern "C" const nvx::firmware::HartSpans g_hart_spans;
constexpr nvx::firmware::HartSpans g_hart_spans{};

static_assert((nvx::riscv::kCauseInterrupt | nvx::riscv::kIrqMSoft) == 0x8000000000000003ull, "MCAUSE_MSOFT in entry.S");
static_assert(nvx::riscv::kEcallFromS == 9, "MCAUSE_ECALL_S in entry.S");
static_assert(nvx::riscv::kIntSSoft == 2, "MIP_SSIP in entry.S");
static_assert(nvx::sbi::kExtIpi == 0x735049 && nvx::sbi::kSuccess == 0, "SBI_EXT_IPI in entry.S");
static_assert(nvx::sbi::kExtHsm == 0x48534d && nvx::sbi::kHsmSuspend == 3, "SBI_EXT_HSM, SBI_HSM_SUSPEND in entry.S");

namespace nvx::firmware {
HartRecord g_harts[board::kBoard.hart_count];

namespace {

// Exceptions S-mode handles itself; ecalls from S stay here (they are SBI calls).
constexpr u64 kDelegatedExceptions =
    (1 << riscv::kInstructionMisaligned) | (1 << riscv::kInstructionAccessFault) |
    (1 << riscv::kIllegalInstruction) | (1 << riscv::kBreakpoint) | (1 << riscv::kLoadMisaligned) |
    (1 << riscv::kLoadAccessFault) | (1 << riscv::kStoreMisaligned) | (1 << riscv::kStoreAccessFault) |
    (1 << riscv::kEcallFromU) | (1 << riscv::kInstructionPageFault) | (1 << riscv::kLoadPageFault) |
    (1 << riscv::kStorePageFault);
constexpr u64 kDelegatedInterrupts = riscv::kIntSSoft | riscv::kIntSTimer | riscv::kIntSExternal;
}  // namespace

bool request_start(u64 hart, u64 start_address, u64 opaque) {
    HartRecord& r = g_harts[hart];
    u64 expected = sbi::kHartStopped;
    r.start_address = start_address;  // only the owner cluster's kernel core writes these
    r.opaque = opaque;
    if (!atomic::compare_exchange(&r.state, expected, static_cast<u64>(sbi::kHartStartPending))) return false;
    atomic::fence();
    *msip(hart) = 1;
    return true;
}

void wait_for_start(u64 hart) {
    HartRecord& r = g_harts[hart];
    NVX_CSR_CLEAR(mip, riscv::kIntSSoft | riscv::kIntSTimer);
    NVX_CSR_WRITE(mie, riscv::kIntMSoft);  // wfi wakes on an IPI; MIE=0 so no trap is taken
    for (;;) {
        *msip(hart) = 0;
        if (atomic::load_acquire(&r.state) == sbi::kHartStartPending) break;
        idle_wait();  // a stopped hart is idle until started
    }
    program_pmp(cluster_of(hart));
    NVX_CSR_WRITE(medeleg, kDelegatedExceptions);
    NVX_CSR_WRITE(mideleg, kDelegatedInterrupts);
    NVX_CSR_WRITE(mcounteren, 0x7);  // S may read cycle, time, instret
    NVX_CSR_WRITE(satp, 0);
    u64 status = NVX_CSR_READ(mstatus);
    status = (status & ~riscv::kStatusMPPMask) | (riscv::kPrivSupervisor << riscv::kStatusMPPShift);
    NVX_CSR_WRITE(mstatus, status);
    atomic::store_release(&r.state, static_cast<u64>(sbi::kHartStarted));
    u64 stack_top = reinterpret_cast<u64>(g_machine_stacks[hart]) + kMachineStackSize;
    enter_supervisor(r.start_address, hart, r.opaque, stack_top);
}
}  // namespace nvx::firmware
