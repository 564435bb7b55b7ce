// Machine-mode traps: SBI calls from S-mode, and timer expiries, which become the
// supervisor's STIP (IPIs become SSIP in entry.S without reaching C++).
#include "hal/firmware/cluster_end.hpp"
#include "hal/firmware/console.hpp"
#include "hal/firmware/devices.hpp"
#include "hal/firmware/harts.hpp"
#include "hal/firmware/power.hpp"
#include "hal/firmware/sbi_dispatch.hpp"
#include "hal/riscv/csr.hpp"

namespace {
using nvx::u64;
namespace riscv = nvx::riscv;

// Register file as saved by machine_trap_vector: x[n] at index n (the registers a call may
// clobber, and sp; the others keep their values through machine_trap).
struct MachineFrame {
    u64 x[32];
};
constexpr int kA0 = 10, kA6 = 16, kA7 = 17;
}  // namespace

extern "C" void machine_trap(MachineFrame* frame) {
    nvx::firmware::park_if_ended(nvx::firmware::current_hart());  // its cluster was ended
    u64 cause = NVX_CSR_READ(mcause);
    if (cause == riscv::kEcallFromS) {  // first: the common case
        nvx::sbi::Result r = nvx::firmware::sbi_dispatch(frame->x[kA7], frame->x[kA6], &frame->x[kA0]);
        frame->x[kA0] = static_cast<u64>(r.error);
        frame->x[kA0 + 1] = r.value;
        NVX_CSR_WRITE(mepc, NVX_CSR_READ(mepc) + 4);
        return;
    }
    // IPIs (machine software interrupts) never come here: entry.S turns them into SSIP.
    if (cause == (riscv::kCauseInterrupt | riscv::kIrqMTimer)) {
        NVX_CSR_CLEAR(mie, riscv::kIntMTimer);
        NVX_CSR_SET(mip, riscv::kIntSTimer);
        return;
    }
    // Anything else reaching M-mode is a firmware bug or an undelegated fault: stop loudly.
    nvx::firmware::console_print("[firmware] hart %lu: unexpected trap cause %lu (%s) at %lx, tval %lx\n",
                                 nvx::firmware::current_hart(), cause, riscv::cause_name(cause),
                                 NVX_CSR_READ(mepc), NVX_CSR_READ(mtval));
    nvx::firmware::power_off(0xfe);
}
