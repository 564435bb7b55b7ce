#include "support/format.hpp"

namespace nvx {
namespace {
class Output {
public:
    Output(char* buffer, size_t capacity) : buffer_(buffer), capacity_(capacity) {}
    void put(char c) {
        if (length_ + 1 < capacity_) buffer_[length_++] = c;
    }
    size_t finish() {
        if (capacity_ > 0) buffer_[length_] = '\0';
        return length_;
    }

private:
    char* buffer_;
    size_t capacity_;
    size_t length_ = 0;
};

void put_number(Output& out, u64 value, unsigned base, bool upper, bool negative, int width, char pad) {
    const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = digits[value % base];
        value /= base;
    } while (value != 0);
    int total = n + (negative ? 1 : 0);
    if (negative && pad == '0') out.put('-');
    for (; total < width; total++) out.put(pad);
    if (negative && pad != '0') out.put('-');
    while (n > 0) out.put(tmp[--n]);
}
}  // namespace

size_t format_v(char* buffer, size_t capacity, const char* fmt, va_list args) {
    Output out(buffer, capacity);
    for (const char* p = fmt; *p != '\0'; p++) {
        if (*p != '%') {
            out.put(*p);
            continue;
        }
        p++;
        char pad = ' ';
        if (*p == '0') {
            pad = '0';
            p++;
        }
        int width = 0;
        while (*p >= '0' && *p <= '9') width = width * 10 + (*p++ - '0');
        int longs = 0;
        while (*p == 'l' || *p == 'z') {
            longs++;
            p++;
        }
        switch (*p) {
        case 'd':
        case 'i': {
            i64 v = longs ? va_arg(args, i64) : va_arg(args, int);
            u64 magnitude = v < 0 ? 0 - static_cast<u64>(v) : static_cast<u64>(v);
            put_number(out, magnitude, 10, false, v < 0, width, pad);
            break;
        }
        case 'u':
        case 'x':
        case 'X': {
            u64 v = longs ? va_arg(args, u64) : va_arg(args, unsigned);
            put_number(out, v, *p == 'u' ? 10 : 16, *p == 'X', false, width, pad);
            break;
        }
        case 'p':
            out.put('0');
            out.put('x');
            put_number(out, reinterpret_cast<uptr>(va_arg(args, void*)), 16, false, false, width, pad);
            break;
        case 's': {
            const char* s = va_arg(args, const char*);
            if (s == nullptr) s = "(null)";
            int len = 0;
            while (s[len] != '\0') len++;
            for (; len < width; width--) out.put(' ');
            while (*s != '\0') out.put(*s++);
            break;
        }
        case 'c':
            out.put(static_cast<char>(va_arg(args, int)));
            break;
        case '%':
            out.put('%');
            break;
        case '\0':
            return out.finish();
        default:
            out.put('%');
            out.put(*p);
            break;
        }
    }
    return out.finish();
}

size_t format(char* buffer, size_t capacity, const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    size_t n = format_v(buffer, capacity, fmt, args);
    va_end(args);
    return n;
}
}  // namespace nvx
