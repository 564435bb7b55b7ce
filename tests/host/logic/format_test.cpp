// printf subset (support/format.cpp).
#include <gtest/gtest.h>

#include <climits>
#include <cstdarg>
#include <cstdint>
#include <cstring>
#include <string>

#include <sys/types.h>

#include "support/format.hpp"

namespace {
using namespace nvx;

// Formats into a large buffer and checks both the text and the returned length. The
// format string stays a literal, so the compiler checks every argument against it.
#define EXPECT_FORMAT(expected, ...)                                      \
    do {                                                                  \
        char buf_[256];                                                   \
        std::memset(buf_, 'X', sizeof buf_);                              \
        size_t n_ = nvx::format(buf_, sizeof buf_, __VA_ARGS__);          \
        EXPECT_STREQ(buf_, expected);                                     \
        EXPECT_EQ(n_, std::strlen(expected));                             \
    } while (0)

// Through format_v with a runtime format string: for inputs the printf checker rejects
// (unknown conversions, a trailing %) and to exercise the va_list entry point.
size_t format_runtime(char* buffer, size_t capacity, const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    size_t n = format_v(buffer, capacity, fmt, args);
    va_end(args);
    return n;
}

std::string runtime(const char* fmt, int value = 0) {
    char buf[64];
    size_t n = format_runtime(buf, sizeof buf, fmt, value);
    EXPECT_EQ(n, std::strlen(buf));
    return buf;
}

TEST(Format, PlainText) {
    EXPECT_EQ(runtime(""), "");
    EXPECT_FORMAT("hello, world", "hello, world");
    EXPECT_FORMAT("100%", "100%%");
    EXPECT_FORMAT("%%", "%%%%");
}

TEST(Format, SignedDecimal) {
    EXPECT_FORMAT("0", "%d", 0);
    EXPECT_FORMAT("42", "%d", 42);
    EXPECT_FORMAT("-42", "%d", -42);
    EXPECT_FORMAT("7", "%i", 7);
    EXPECT_FORMAT("-7", "%i", -7);
    EXPECT_FORMAT("2147483647", "%d", INT_MAX);
    EXPECT_FORMAT("-2147483648", "%d", INT_MIN);
}

TEST(Format, SignedDecimalLong) {
    EXPECT_FORMAT("9223372036854775807", "%ld", static_cast<long>(INT64_MAX));
    EXPECT_FORMAT("-9223372036854775808", "%ld", static_cast<long>(INT64_MIN));
    EXPECT_FORMAT("-9223372036854775808", "%lld", LLONG_MIN);
    EXPECT_FORMAT("-1", "%lld", -1LL);
    EXPECT_FORMAT("-5000000000", "%ld", -5000000000L);
    EXPECT_FORMAT("-3", "%zd", static_cast<ssize_t>(-3));
}

TEST(Format, IntArgumentIsNotReadAsLong) {
    // Without a length modifier only 32 bits are taken, sign-extended.
    EXPECT_FORMAT("-1 2", "%d %d", -1, 2);
    EXPECT_FORMAT("4294967295 5", "%u %d", 0xffffffffu, 5);
}

TEST(Format, Unsigned) {
    EXPECT_FORMAT("0", "%u", 0u);
    EXPECT_FORMAT("4294967295", "%u", UINT_MAX);
    EXPECT_FORMAT("18446744073709551615", "%lu", static_cast<unsigned long>(UINT64_MAX));
    EXPECT_FORMAT("18446744073709551615", "%llu", ULLONG_MAX);
    EXPECT_FORMAT("123456789012", "%zu", static_cast<size_t>(123456789012ull));
}

TEST(Format, Hex) {
    EXPECT_FORMAT("0", "%x", 0u);
    EXPECT_FORMAT("deadbeef", "%x", 0xdeadbeefu);
    EXPECT_FORMAT("DEADBEEF", "%X", 0xdeadbeefu);
    EXPECT_FORMAT("ffffffff", "%x", 0xffffffffu);
    EXPECT_FORMAT("ffffffffffffffff", "%lx", static_cast<unsigned long>(UINT64_MAX));
    EXPECT_FORMAT("80200000", "%llx", 0x80200000ull);
    EXPECT_FORMAT("ABCDEF0123", "%lX", 0xabcdef0123ul);
    EXPECT_FORMAT("1000", "%zx", static_cast<size_t>(4096));
}

TEST(Format, Pointer) {
    EXPECT_FORMAT("0x1234", "%p", reinterpret_cast<void*>(0x1234));
    EXPECT_FORMAT("0xffffffffc0000000", "%p", reinterpret_cast<void*>(0xffffffffc0000000ull));
    EXPECT_FORMAT("0x0", "%p", static_cast<void*>(nullptr));
}

TEST(Format, StringsAndChars) {
    EXPECT_FORMAT("abc", "%s", "abc");
    EXPECT_FORMAT("", "%s", "");
    EXPECT_FORMAT("[x]", "[%c]", 'x');
    EXPECT_FORMAT("a-b", "%c-%c", 'a', 'b');
    const char* volatile missing = nullptr;
    EXPECT_FORMAT("(null)", "%s", missing);
}

TEST(Format, FieldWidth) {
    EXPECT_FORMAT("   42", "%5d", 42);
    EXPECT_FORMAT("  -42", "%5d", -42);
    EXPECT_FORMAT("12345", "%2d", 12345);  // too narrow: never truncates the number
    EXPECT_FORMAT("12345", "%5d", 12345);
    EXPECT_FORMAT("   ab", "%5s", "ab");
    EXPECT_FORMAT("abcdef", "%3s", "abcdef");
    EXPECT_FORMAT("      beef", "%10x", 0xbeefu);
    EXPECT_FORMAT("          ", "%10s", "");
}

TEST(Format, ZeroPadding) {
    EXPECT_FORMAT("00042", "%05d", 42);
    EXPECT_FORMAT("-0042", "%05d", -42);  // sign first, then the zeros
    EXPECT_FORMAT("0000beef", "%08x", 0xbeefu);
    EXPECT_FORMAT("00000000deadbeef", "%016lx", 0xdeadbeeful);
    EXPECT_FORMAT("0", "%01u", 0u);
    EXPECT_FORMAT("000", "%03u", 0u);
    EXPECT_FORMAT("-9223372036854775808", "%020ld", static_cast<long>(INT64_MIN));
    EXPECT_FORMAT("-09223372036854775808", "%021ld", static_cast<long>(INT64_MIN));
}

TEST(Format, Mixed) {
    EXPECT_FORMAT("cluster 3 hart 17: ok (0x80a00000)", "cluster %u hart %d: %s (0x%lx)", 3u, 17, "ok", 0x80a00000ul);
    EXPECT_FORMAT("[ 7|0007|   x]", "[%2d|%04d|%4s]", 7, 7, "x");
}

TEST(Format, TruncationAlwaysTerminates) {
    char buf[16];
    std::memset(buf, 'X', sizeof buf);
    EXPECT_EQ(format(buf, 6, "hello world"), 5u);
    EXPECT_STREQ(buf, "hello");
    EXPECT_EQ(buf[6], 'X');  // nothing past capacity

    std::memset(buf, 'X', sizeof buf);
    EXPECT_EQ(format(buf, 4, "%d", 123456), 3u);
    EXPECT_STREQ(buf, "123");
    EXPECT_EQ(buf[4], 'X');

    std::memset(buf, 'X', sizeof buf);
    EXPECT_EQ(format(buf, 5, "%s and %s", "one", "two"), 4u);
    EXPECT_STREQ(buf, "one ");

    std::memset(buf, 'X', sizeof buf);
    EXPECT_EQ(format(buf, 3, "%05d", -1), 2u);
    EXPECT_STREQ(buf, "-0");
}

TEST(Format, ExactFit) {
    char buf[6];
    EXPECT_EQ(format(buf, sizeof buf, "%s", "12345"), 5u);
    EXPECT_STREQ(buf, "12345");
    EXPECT_EQ(format(buf, sizeof buf, "%s", "123456"), 5u);
    EXPECT_STREQ(buf, "12345");
}

TEST(Format, CapacityOneAndZero) {
    char buf[4] = {'X', 'X', 'X', 'X'};
    EXPECT_EQ(format(buf, 1, "abc%d", 5), 0u);
    EXPECT_EQ(buf[0], '\0');
    EXPECT_EQ(buf[1], 'X');

    buf[0] = 'X';
    EXPECT_EQ(format(buf, 0, "abc%d", 5), 0u);
    EXPECT_EQ(buf[0], 'X');  // capacity 0: the buffer is not touched at all
}

TEST(Format, UnsupportedConversionsAreCopied) {
    EXPECT_EQ(runtime("%q"), "%q");
    EXPECT_EQ(runtime("a%yb"), "a%yb");
    EXPECT_EQ(runtime("%5q"), "%q");  // the width is consumed
}

TEST(Format, TrailingPercentIsDropped) {
    EXPECT_EQ(runtime("abc%"), "abc");
    EXPECT_EQ(runtime("abc%05"), "abc");
    EXPECT_EQ(runtime("abc%l"), "abc");
}

TEST(Format, FormatVTakesAVaList) {
    char buf[32];
    EXPECT_EQ(format_runtime(buf, sizeof buf, "%s=%d/%x", "n", -3, 255u), 7u);
    EXPECT_STREQ(buf, "n=-3/ff");
}
}  // namespace
