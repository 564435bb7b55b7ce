// Kernel console: formatted lines go to the firmware console in one SBI call each.
#pragma once
#include "support/types.hpp"

namespace nvx::kernel {
void kprint(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
// Writes bytes held in kernel memory (any length, sent in chunks).
void console_write_kernel(const char* text, u64 length);
[[noreturn]] void panic(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
}  // namespace nvx::kernel
