// Firmware console: whole buffers go out under one lock, so lines never interleave.
#pragma once
#include "support/types.hpp"

namespace nvx::firmware {
void console_write(const char* text, u64 length);
void console_print(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
}  // namespace nvx::firmware
