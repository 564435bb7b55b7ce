// The memory primitives of firmware and kernel (support/mem.cpp): one declaration for the
// supervisor side, which has no libc.
#pragma once
#include <stddef.h>

extern "C" {
void* memcpy(void* dst, const void* src, size_t n);
void* memmove(void* dst, const void* src, size_t n);
void* memset(void* dst, int value, size_t n);
int memcmp(const void* a, const void* b, size_t n);
}
