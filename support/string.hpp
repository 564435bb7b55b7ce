// Small string helpers for freestanding code (the compiler-required memcpy/memset
// symbols are defined in mem.cpp for the target builds only).
#pragma once
#include "support/types.hpp"

namespace nvx {
constexpr size_t str_length(const char* s) {
    size_t n = 0;
    while (s[n] != '\0') n++;
    return n;
}

constexpr bool str_equal(const char* a, const char* b) {
    while (*a != '\0' && *a == *b) {
        a++;
        b++;
    }
    return *a == *b;
}

// Copies at most capacity-1 characters and always terminates; returns the copied length.
constexpr size_t str_copy(char* dst, size_t capacity, const char* src) {
    if (capacity == 0) return 0;
    size_t n = 0;
    for (; n + 1 < capacity && src[n] != '\0'; n++) dst[n] = src[n];
    dst[n] = '\0';
    return n;
}
}  // namespace nvx
