// Support library: support/types.hpp, support/bitmap.hpp, support/string.hpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "support/bitmap.hpp"
#include "support/bits.hpp"
#include "support/copy.hpp"
#include "support/string.hpp"
#include "support/types.hpp"

namespace {
using namespace nvx;

constexpr u64 kMax = ~u64{0};

// ---------------------------------------------------------------- types.hpp

TEST(Types, Sizes) {
    EXPECT_EQ(sizeof(u8), 1u);
    EXPECT_EQ(sizeof(u16), 2u);
    EXPECT_EQ(sizeof(u32), 4u);
    EXPECT_EQ(sizeof(u64), 8u);
    EXPECT_EQ(sizeof(i64), 8u);
    EXPECT_EQ(sizeof(uptr), sizeof(void*));
    EXPECT_EQ(KiB, 1024u);
    EXPECT_EQ(MiB, 1024u * 1024u);
}

TEST(Types, AlignUp) {
    EXPECT_EQ(align_up(0, 4096), 0u);
    EXPECT_EQ(align_up(1, 4096), 4096u);
    EXPECT_EQ(align_up(4095, 4096), 4096u);
    EXPECT_EQ(align_up(4096, 4096), 4096u);
    EXPECT_EQ(align_up(4097, 4096), 8192u);
    EXPECT_EQ(align_up(5, 1), 5u);
    EXPECT_EQ(align_up(0x80000001, 2 * MiB), 0x80200000u);
    static_assert(align_up(13, 8) == 16);
}

TEST(Types, AlignDown) {
    EXPECT_EQ(align_down(0, 4096), 0u);
    EXPECT_EQ(align_down(4095, 4096), 0u);
    EXPECT_EQ(align_down(4096, 4096), 4096u);
    EXPECT_EQ(align_down(8191, 4096), 4096u);
    EXPECT_EQ(align_down(kMax, 4096), 0xfffffffffffff000u);
    EXPECT_EQ(align_down(7, 1), 7u);
    static_assert(align_down(13, 8) == 8);
}

TEST(Types, IsAligned) {
    EXPECT_TRUE(is_aligned(0, 4096));
    EXPECT_TRUE(is_aligned(8192, 4096));
    EXPECT_FALSE(is_aligned(8193, 4096));
    EXPECT_FALSE(is_aligned(2048, 4096));
    EXPECT_TRUE(is_aligned(0x80200000, 2 * MiB));
    EXPECT_FALSE(is_aligned(0x80100000, 2 * MiB));
    EXPECT_TRUE(is_aligned(12345, 1));
}

TEST(Types, RangeContainsInside) {
    EXPECT_TRUE(range_contains(0x1000, 0x1000, 0x1000, 0x1000));  // exactly the range
    EXPECT_TRUE(range_contains(0x1000, 0x1000, 0x1000, 1));
    EXPECT_TRUE(range_contains(0x1000, 0x1000, 0x1fff, 1));        // last byte
    EXPECT_TRUE(range_contains(0x1000, 0x1000, 0x1800, 0x800));
    EXPECT_TRUE(range_contains(0x1000, 0x1000, 0x1800, 0));
    EXPECT_TRUE(range_contains(0x1000, 0x1000, 0x2000, 0));        // empty range at the end
}

TEST(Types, RangeContainsOutside) {
    EXPECT_FALSE(range_contains(0x1000, 0x1000, 0x0fff, 1));       // starts before
    EXPECT_FALSE(range_contains(0x1000, 0x1000, 0x0fff, 2));
    EXPECT_FALSE(range_contains(0x1000, 0x1000, 0x2000, 1));       // starts past the end
    EXPECT_FALSE(range_contains(0x1000, 0x1000, 0x1fff, 2));       // runs past the end
    EXPECT_FALSE(range_contains(0x1000, 0x1000, 0x1000, 0x1001));  // longer than the range
    EXPECT_FALSE(range_contains(0x1000, 0, 0x1000, 1));
    EXPECT_FALSE(range_contains(0x1000, 0x1000, 0x2001, 0));
}

TEST(Types, RangeContainsDoesNotOverflow) {
    // addr + len wraps to a small number: a naive `addr + len <= base + size` would accept.
    EXPECT_FALSE(range_contains(0, 0x10000, 0x1000, kMax));
    EXPECT_FALSE(range_contains(0, 0x10000, kMax, 2));
    EXPECT_FALSE(range_contains(0x1000, 0x1000, 0x1800, kMax - 0x7ff));
    EXPECT_FALSE(range_contains(0, kMax, kMax - 1, 16));
    // base + size wraps: the range still ends at the top of the address space.
    EXPECT_TRUE(range_contains(kMax - 0xfff, 0x1000, kMax, 1));
    EXPECT_TRUE(range_contains(kMax - 0xfff, 0x1000, kMax - 0xfff, 0x1000));
    EXPECT_FALSE(range_contains(kMax - 0xfff, 0x1000, kMax, 2));
    EXPECT_TRUE(range_contains(1, kMax, 5, 10));
    EXPECT_TRUE(range_contains(0, kMax, 0, kMax));
    EXPECT_FALSE(range_contains(1, kMax - 1, 0, 1));
    static_assert(!range_contains(0, 16, 8, kMax));
}

// ---------------------------------------------------------------- bitmap.hpp

TEST(Bitmap, WordsFor) {
    EXPECT_EQ(Bitmap::words_for(0), 0u);
    EXPECT_EQ(Bitmap::words_for(1), 1u);
    EXPECT_EQ(Bitmap::words_for(63), 1u);
    EXPECT_EQ(Bitmap::words_for(64), 1u);
    EXPECT_EQ(Bitmap::words_for(65), 2u);
    EXPECT_EQ(Bitmap::words_for(8192), 128u);
}

TEST(Bitmap, ConstructorClearsTheWords) {
    std::vector<u64> words(4, ~u64{0});
    Bitmap map(words.data(), 200);
    EXPECT_EQ(map.size(), 200u);
    EXPECT_EQ(words[0], 0u);
    EXPECT_EQ(words[3], 0u);
    EXPECT_EQ(map.count_set(), 0u);
    EXPECT_EQ(map.find_clear(), 0u);
}

TEST(Bitmap, ConstructorTouchesOnlyItsWords) {
    std::vector<u64> words(4, 0x5555);
    Bitmap map(words.data(), 65);  // two words
    EXPECT_EQ(words[0], 0u);
    EXPECT_EQ(words[1], 0u);
    EXPECT_EQ(words[2], 0x5555u);
    EXPECT_EQ(words[3], 0x5555u);
}

TEST(Bitmap, SetTestClear) {
    std::vector<u64> words(2);
    Bitmap map(words.data(), 128);
    for (u64 bit : {0, 1, 63, 64, 100, 127}) {
        EXPECT_FALSE(map.test(bit)) << bit;
        map.set(bit);
        EXPECT_TRUE(map.test(bit)) << bit;
    }
    EXPECT_EQ(map.count_set(), 6u);
    EXPECT_EQ(words[0], (1ull << 0) | (1ull << 1) | (1ull << 63));
    EXPECT_EQ(words[1], (1ull << 0) | (1ull << 36) | (1ull << 63));
    map.set(63);  // setting twice changes nothing
    EXPECT_EQ(map.count_set(), 6u);
    map.clear(63);
    EXPECT_FALSE(map.test(63));
    EXPECT_TRUE(map.test(64));
    EXPECT_TRUE(map.test(1));
    map.clear(63);  // clearing twice changes nothing
    EXPECT_EQ(map.count_set(), 5u);
}

TEST(Bitmap, FindClearSkipsSetBits) {
    std::vector<u64> words(3);
    Bitmap map(words.data(), 150);
    for (u64 bit = 0; bit < 130; bit++) map.set(bit);
    EXPECT_EQ(map.find_clear(), 130u);
    EXPECT_EQ(map.find_clear(5), 130u);
    EXPECT_EQ(map.find_clear(64), 130u);
    EXPECT_EQ(map.find_clear(131), 131u);
    map.clear(70);
    EXPECT_EQ(map.find_clear(), 70u);
    EXPECT_EQ(map.find_clear(70), 70u);
    EXPECT_EQ(map.find_clear(71), 130u);
}

TEST(Bitmap, FindClearOnAFullMap) {
    std::vector<u64> words(2);
    Bitmap map(words.data(), 70);  // the last word is partial
    for (u64 bit = 0; bit < 70; bit++) map.set(bit);
    EXPECT_EQ(map.count_set(), 70u);
    EXPECT_EQ(map.find_clear(), 70u);       // not one of the spare bits 70..127
    EXPECT_EQ(map.find_clear(65), 70u);
    EXPECT_EQ(map.find_clear(70), 70u);
    EXPECT_EQ(map.find_clear(1000), 70u);   // from past the end: none
}

TEST(Bitmap, FindClearInsideAFullWordFromTheMiddle) {
    std::vector<u64> words(2);
    Bitmap map(words.data(), 128);
    for (u64 bit = 0; bit < 64; bit++) map.set(bit);
    map.set(64);
    EXPECT_EQ(map.find_clear(3), 65u);
    EXPECT_EQ(map.find_clear(63), 65u);
}

TEST(Bitmap, EmptyBitmap) {
    u64 word = 0x1234;
    Bitmap map(&word, 0);
    EXPECT_EQ(map.size(), 0u);
    EXPECT_EQ(map.find_clear(), 0u);
    EXPECT_EQ(map.count_set(), 0u);
    EXPECT_EQ(word, 0x1234u);  // zero bits own zero words
}

// ---------------------------------------------------------------- string.hpp

TEST(String, Length) {
    EXPECT_EQ(str_length(""), 0u);
    EXPECT_EQ(str_length("a"), 1u);
    EXPECT_EQ(str_length("hello world"), 11u);
    const char embedded[] = {'a', 'b', '\0', 'c', '\0'};
    EXPECT_EQ(str_length(embedded), 2u);
    static_assert(str_length("nvx") == 3);
}

TEST(String, Equal) {
    EXPECT_TRUE(str_equal("", ""));
    EXPECT_TRUE(str_equal("chosen", "chosen"));
    EXPECT_FALSE(str_equal("chosen", "chose"));
    EXPECT_FALSE(str_equal("chose", "chosen"));
    EXPECT_FALSE(str_equal("", "a"));
    EXPECT_FALSE(str_equal("a", ""));
    EXPECT_FALSE(str_equal("abc", "abd"));
    EXPECT_FALSE(str_equal("Abc", "abc"));
    static_assert(str_equal("cpus", "cpus") && !str_equal("cpus", "cpu"));
}

TEST(String, CopyFits) {
    char dst[8];
    std::memset(dst, 'X', sizeof dst);
    EXPECT_EQ(str_copy(dst, sizeof dst, "abc"), 3u);
    EXPECT_STREQ(dst, "abc");
    EXPECT_EQ(dst[4], 'X');  // nothing written past the terminator

    EXPECT_EQ(str_copy(dst, sizeof dst, "1234567"), 7u);  // exactly fills the buffer
    EXPECT_STREQ(dst, "1234567");

    EXPECT_EQ(str_copy(dst, sizeof dst, ""), 0u);
    EXPECT_STREQ(dst, "");
}

TEST(String, CopyTruncatesAndTerminates) {
    char dst[8];
    std::memset(dst, 'X', sizeof dst);
    EXPECT_EQ(str_copy(dst, 5, "hello world"), 4u);
    EXPECT_STREQ(dst, "hell");
    EXPECT_EQ(dst[5], 'X');  // capacity respected

    EXPECT_EQ(str_copy(dst, sizeof dst, "12345678"), 7u);
    EXPECT_STREQ(dst, "1234567");
}

TEST(String, CopyTinyCapacities) {
    char dst[2] = {'X', 'X'};
    EXPECT_EQ(str_copy(dst, 0, "abc"), 0u);
    EXPECT_EQ(dst[0], 'X');  // capacity 0: untouched
    EXPECT_EQ(str_copy(dst, 1, "abc"), 0u);
    EXPECT_EQ(dst[0], '\0');
    EXPECT_EQ(dst[1], 'X');
}

TEST(String, CopyIsConstexpr) {
    constexpr auto copied = [] {
        struct {
            char buf[4];
            size_t n;
        } r{};
        r.n = str_copy(r.buf, sizeof r.buf, "abcdef");
        return r;
    }();
    static_assert(copied.n == 3 && copied.buf[2] == 'c' && copied.buf[3] == '\0');
    EXPECT_STREQ(copied.buf, "abc");
}
}  // namespace

TEST(Bits, LowestSetBitOfEverySingleBit) {
    for (unsigned bit = 0; bit < 64; bit++) EXPECT_EQ(nvx::lowest_set_bit(1ull << bit), bit);
}

TEST(Bits, LowestSetBitIgnoresHigherBits) {
    EXPECT_EQ(nvx::lowest_set_bit(~0ull), 0u);
    EXPECT_EQ(nvx::lowest_set_bit(0xf0f0ull), 4u);
    EXPECT_EQ(nvx::lowest_set_bit(0x8000000000000000ull | (1ull << 33)), 33u);
    static_assert(nvx::lowest_set_bit(0x100) == 8);
}

// copy_memory (behind the supervisor's memcpy) against the C library, for every small
// alignment of source and destination and lengths around its 8- and 64-byte steps.
TEST(CopyMemory, MatchesMemcpyForEveryAlignmentAndLength) {
    std::vector<unsigned char> src(400), want(400), got(400);
    for (size_t i = 0; i < src.size(); i++) src[i] = static_cast<unsigned char>(i * 7 + 3);
    for (size_t so = 0; so < 9; so++)
        for (size_t doff = 0; doff < 9; doff++)
            for (size_t n : {0u, 1u, 7u, 8u, 9u, 63u, 64u, 65u, 127u, 128u, 200u, 300u}) {
                std::fill(want.begin(), want.end(), 0xee);
                std::fill(got.begin(), got.end(), 0xee);
                std::memcpy(want.data() + doff, src.data() + so, n);
                nvx::copy_memory(got.data() + doff, src.data() + so, n);
                ASSERT_EQ(got, want) << "src+" << so << " dst+" << doff << " n " << n;
            }
}
