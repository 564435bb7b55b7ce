// Firmware boot: hart 0 prepares the board (reads the device tree, places a kernel in
// every cluster's memory) and starts each cluster's kernel core; every other hart sleeps
// until its cluster's kernel starts it through SBI HSM.
#include "hal/board/boot_info.hpp"
#include "hal/firmware/noc_time.hpp"
#include "hal/board/current.hpp"
#include "hal/firmware/console.hpp"
#include "hal/firmware/fdt.hpp"
#include "hal/firmware/harts.hpp"
#include "hal/firmware/pmp_setup.hpp"
#include "hal/firmware/power.hpp"
#include "support/string.hpp"
#include "support/mem.hpp"

extern "C" const nvx::u8 g_kernel_image_start[];
extern "C" const nvx::u8 g_kernel_image_end[];
extern "C" const nvx::u8 g_system_image_start[];
extern "C" const nvx::u8 g_system_image_end[];

namespace nvx::firmware {
namespace {
using board::kBoard;

static_assert(pmp_plan_for(kBoard.cluster(0)).used <= 8, "program_pmp writes eight entries");

constexpr u64 kMaxFdtSize = 1 * MiB;

void place_kernel(u32 index, const fdt::Facts& facts) {
    const board::Cluster& c = kBoard.cluster(index);
    u64 image_size = static_cast<u64>(g_kernel_image_end - g_kernel_image_start);
    memcpy(reinterpret_cast<void*>(c.mem_base), g_kernel_image_start, image_size);
    auto* info = reinterpret_cast<board::BootInfo*>(board::boot_info_address(c));
    memset(info, 0, sizeof *info);
    info->magic = board::kBootInfoMagic;
    info->cluster = index;
    info->mem_base = c.mem_base;
    info->mem_size = c.mem_size;
    info->program_base = board::kProgramBase;
    info->program_size = board::kProgramSize;
    info->kernel_image_size = image_size;
    if (facts.bootargs != nullptr) str_copy(info->bootargs, sizeof info->bootargs, facts.bootargs);
}

// .bss is zero-filled by QEMU's ELF loader (other harts already run on stacks there).
void boot_board(u64 fdt_address) {
    fdt::Facts facts = fdt::read_facts(reinterpret_cast<const u8*>(fdt_address), kMaxFdtSize);
    console_print("[firmware] board %s: %u clusters (%u I/O, %u compute), %u harts, %lu MiB RAM\n", kBoard.name,
                  kBoard.cluster_count, kBoard.io_count, kBoard.compute_count, kBoard.hart_count,
                  kBoard.ram_size / MiB);
    if (!facts.valid || facts.cpu_count != kBoard.hart_count) {
        console_print("[firmware] error: QEMU gave %u harts (device tree %s), board %s needs %u\n", facts.cpu_count,
                      facts.valid ? "ok" : "unreadable", kBoard.name, kBoard.hart_count);
        power_off(0xfd);
    }
    if (facts.bootargs_length >= board::kBootArgsMax) {
        console_print("[firmware] error: boot arguments longer than %lu bytes\n", board::kBootArgsMax - 1);
        power_off(0xfd);
    }
    u64 system_size = static_cast<u64>(g_system_image_end - g_system_image_start);
    if (system_size > board::kProgramImageSize) {  // the clock's counter page follows it
        console_print("[firmware] error: system program (%lu bytes) exceeds the program region\n", system_size);
        power_off(0xfd);
    }
    memcpy(reinterpret_cast<void*>(board::kProgramBase), g_system_image_start, system_size);
    noc_time::boot();
    for (u32 i = 0; i < kBoard.cluster_count; i++) {
        const board::Cluster& c = kBoard.cluster(i);
        for (u32 h = c.first_hart; h < c.first_hart + c.harts; h++) {
            hart_record(h).cluster = i;
            hart_record(h).state = sbi::kHartStopped;
        }
        place_kernel(i, facts);
    }
    for (u32 i = 0; i < kBoard.cluster_count; i++) {
        const board::Cluster& c = kBoard.cluster(i);
        request_start(c.first_hart, c.mem_base, board::boot_info_address(c));
    }
}
}  // namespace
}  // namespace nvx::firmware

extern "C" [[noreturn]] void firmware_main(nvx::u64 hart, nvx::u64 fdt_address) {
    if (hart == 0) nvx::firmware::boot_board(fdt_address);
    nvx::firmware::wait_for_start(hart);
}
