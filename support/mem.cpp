// The memory primitives GCC may emit calls to, for firmware and kernel (no libc there).
#include "support/mem.hpp"

#include "support/copy.hpp"

extern "C" {
void* memcpy(void* dst, const void* src, size_t n) {
    nvx::copy_memory(dst, src, n);
    return dst;
}

void* memmove(void* dst, const void* src, size_t n) {
    auto* d = static_cast<unsigned char*>(dst);
    auto* s = static_cast<const unsigned char*>(src);
    if (d < s) {
        for (size_t i = 0; i < n; i++) d[i] = s[i];
    } else {
        for (size_t i = n; i > 0; i--) d[i - 1] = s[i - 1];
    }
    return dst;
}

void* memset(void* dst, int value, size_t n) {
    auto* d = static_cast<unsigned char*>(dst);
    if (((reinterpret_cast<nvx::uptr>(d) | n) & 7) == 0) {
        nvx::u64 pattern = 0x0101010101010101ull * static_cast<unsigned char>(value);
        for (size_t i = 0; i < n; i += 8) *reinterpret_cast<nvx::u64*>(d + i) = pattern;
        return dst;
    }
    for (size_t i = 0; i < n; i++) d[i] = static_cast<unsigned char>(value);
    return dst;
}

int memcmp(const void* a, const void* b, size_t n) {
    auto* x = static_cast<const unsigned char*>(a);
    auto* y = static_cast<const unsigned char*>(b);
    for (size_t i = 0; i < n; i++) {
        if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    }
    return 0;
}
}
