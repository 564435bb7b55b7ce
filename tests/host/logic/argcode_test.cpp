// The launcher's encoding of program words (services/lib/argcode.c, nvx/argcode.h): what
// scripts/nvx-run writes decodes to exactly the original bytes; anything else is refused.
#include <gtest/gtest.h>

#include <string>

#include <nvx/argcode.h>

namespace {
// Decodes a copy; the result, or "<refused>".
std::string decode(const std::string& word) {
    std::string buffer = word;
    int n = nvx_arg_decode(buffer.data());
    if (n < 0) return "<refused>";
    EXPECT_EQ(static_cast<size_t>(n), std::string(buffer.c_str()).size());
    return std::string(buffer.c_str(), static_cast<size_t>(n));
}

// The encoder of scripts/nvx-run, written again from its description, for round trips.
std::string encode(const std::string& arg) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : arg) {
        bool plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                     std::string("-_.,/:+@").find(static_cast<char>(c)) != std::string::npos;
        if (plain) out += static_cast<char>(c);
        else out += {'%', hex[c >> 4], hex[c & 15]};
    }
    return out.empty() ? "%" : out;
}
}  // namespace

TEST(ArgCode, PlainWordsStayAsTheyAre) {
    EXPECT_EQ(decode("hello"), "hello");
    EXPECT_EQ(decode("--gamma"), "--gamma");  // after the Spawn Server's "--" a dash is just a byte
    EXPECT_EQ(decode("a-b_c.d,e/f:g+h@i"), "a-b_c.d,e/f:g+h@i");
}

TEST(ArgCode, EscapesDecodeToTheirBytes) {
    EXPECT_EQ(decode("a%20b"), "a b");
    EXPECT_EQ(decode("np%3D3"), "np=3");
    EXPECT_EQ(decode("%C3%A9"), "\xc3\xa9");
    EXPECT_EQ(decode("%c3%a9"), "\xc3\xa9");  // either case of hex digit
    EXPECT_EQ(decode("%25"), "%");
    EXPECT_EQ(decode("%09%0A%FF"), "\t\n\xff");
}

TEST(ArgCode, TheLonePercentIsTheEmptyArgument) { EXPECT_EQ(decode("%"), ""); }

TEST(ArgCode, RefusesWhatTheLauncherNeverWrites) {
    EXPECT_EQ(decode(""), "<refused>");       // no empty words in the boot arguments
    EXPECT_EQ(decode("%2"), "<refused>");     // short escape
    EXPECT_EQ(decode("a%"), "<refused>");     // stray percent
    EXPECT_EQ(decode("%G0"), "<refused>");    // not hex
    EXPECT_EQ(decode("%0G"), "<refused>");
    EXPECT_EQ(decode("%00"), "<refused>");    // NUL cannot be an argument byte
    EXPECT_EQ(decode("np=3"), "<refused>");   // '=' is always encoded
    EXPECT_EQ(decode("a'b"), "<refused>");
    EXPECT_EQ(decode("\xc3\xa9"), "<refused>");  // raw non-ASCII
}

TEST(ArgCode, EveryByteButNulRoundTrips) {
    std::string all;
    for (int c = 1; c < 256; c++) all += static_cast<char>(c);
    EXPECT_EQ(decode(encode(all)), all);
    for (int c = 1; c < 256; c++) {
        std::string one(1, static_cast<char>(c));
        EXPECT_EQ(decode(encode(one)), one) << "byte " << c;
    }
    for (const char* s : {"np=3", "a b", " ", "--", "-np", "'\"", "%", "%%", "x=y=z", "\xc3\xa9 \xc3\xbc"})
        EXPECT_EQ(decode(encode(s)), s);
}
