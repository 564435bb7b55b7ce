#include "hal/firmware/console.hpp"

#include "hal/firmware/devices.hpp"
#include "support/format.hpp"
#include "support/spinlock.hpp"

namespace nvx::firmware {
namespace {
// Held only while bytes go to the UART; nobody waits here for another hart's event.
SpinLock g_console_lock;
}  // namespace

void console_write(const char* text, u64 length) {
    LockGuard guard(g_console_lock);
    for (u64 i = 0; i < length; i++) {
        if (text[i] == '\n') uart_putc('\r');
        uart_putc(text[i]);
    }
}

void console_print(const char* fmt, ...) {
    char line[256];
    va_list args;
    va_start(args, fmt);
    size_t n = format_v(line, sizeof line, fmt, args);
    va_end(args);
    console_write(line, n);
}
}  // namespace nvx::firmware
