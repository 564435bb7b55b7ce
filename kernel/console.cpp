#include "kernel/console.hpp"

#include "hal/sbi/sbi_call.hpp"
#include "kernel/layout.hpp"
#include "support/format.hpp"

namespace nvx::kernel {
void console_write_kernel(const char* text, u64 length) {
    // The firmware takes physical addresses and checks them against this cluster.
    u64 virt = reinterpret_cast<u64>(text);
    while (length > 0) {
        sbi::Result r = sbi::console_write(g_layout.virt_to_phys(virt), length);
        if (r.error != sbi::kSuccess || r.value == 0) return;
        virt += r.value;
        length -= r.value;
    }
}

void kprint(const char* fmt, ...) {
    char line[256];
    va_list args;
    va_start(args, fmt);
    size_t n = format_v(line, sizeof line, fmt, args);
    va_end(args);
    console_write_kernel(line, n);
}

void panic(const char* fmt, ...) {
    char line[256];
    size_t n = format(line, sizeof line, "[cluster %u] kernel panic: ", g_layout.index);
    va_list args;
    va_start(args, fmt);
    n += format_v(line + n, sizeof line - n, fmt, args);
    va_end(args);
    console_write_kernel(line, n);
    console_write_kernel("\n", 1);
    sbi::system_reset(sbi::kResetShutdown, sbi::kReasonFailure);
    for (;;) asm volatile("wfi");
}
}  // namespace nvx::kernel
