// printf-style formatting into a bounded buffer, for firmware and kernel consoles.
// Supports %d %i %u %x %X %p %s %c %% with the l, ll and z length modifiers, a field
// width and the 0 flag. Output is always NUL-terminated and never overruns `capacity`.
#pragma once
#include <stdarg.h>
#include "support/types.hpp"

namespace nvx {
// Returns the number of characters written (excluding the NUL), truncated to fit.
size_t format_v(char* buffer, size_t capacity, const char* fmt, va_list args);
size_t format(char* buffer, size_t capacity, const char* fmt, ...) __attribute__((format(printf, 3, 4)));
}  // namespace nvx
