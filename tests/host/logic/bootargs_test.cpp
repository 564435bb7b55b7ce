// Launch arguments (kernel/bootargs.cpp): `[options] -- argv...`.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "kernel/bootargs.hpp"

namespace {
using namespace nvx;
using nvx::kernel::BootArgs;
using nvx::kernel::kMaxArgs;
using nvx::kernel::parse_bootargs;

struct Parsed {
    bool ok;
    std::unique_ptr<BootArgs> args = std::make_unique<BootArgs>();

    std::vector<std::string> argv() const {
        std::vector<std::string> v;
        for (u32 i = 0; i < args->argc; i++) v.emplace_back(args->argv[i]);
        return v;
    }
};

Parsed parse(const char* text) {
    Parsed p{false};
    p.ok = parse_bootargs(text, p.args.get());
    // Every argv entry lives in the BootArgs' own storage, never in the caller's text.
    const char* lo = p.args->storage;
    const char* hi = p.args->storage + sizeof p.args->storage;
    for (u32 i = 0; i < p.args->argc; i++) {
        EXPECT_GE(p.args->argv[i], lo) << i;
        EXPECT_LT(p.args->argv[i], hi) << i;
    }
    return p;
}

using Args = std::vector<std::string>;

TEST(BootArgs, EmptyString) {
    Parsed p = parse("");
    EXPECT_TRUE(p.ok);
    EXPECT_FALSE(p.args->has(nvx::kernel::KernelOption::Selftest));
    EXPECT_EQ(p.args->argc, 0u);
    EXPECT_EQ(p.args->error, nullptr);
}

TEST(BootArgs, OnlyWhitespace) {
    Parsed p = parse("  \t \t  ");
    EXPECT_TRUE(p.ok);
    EXPECT_EQ(p.args->argc, 0u);
    EXPECT_FALSE(p.args->has(nvx::kernel::KernelOption::Selftest));
}

TEST(BootArgs, SelftestOption) {
    Parsed p = parse("selftest");
    EXPECT_TRUE(p.ok);
    EXPECT_TRUE(p.args->has(nvx::kernel::KernelOption::Selftest));
    EXPECT_EQ(p.args->argc, 0u);
    EXPECT_EQ(p.args->error, nullptr);
}

TEST(BootArgs, RepeatedOptionIsHarmless) {
    Parsed p = parse("selftest selftest");
    EXPECT_TRUE(p.ok);
    EXPECT_TRUE(p.args->has(nvx::kernel::KernelOption::Selftest));
}

TEST(BootArgs, ProgramArgumentsAfterSeparator) {
    Parsed p = parse("-- /bin/demo 3 fast");
    EXPECT_TRUE(p.ok);
    EXPECT_FALSE(p.args->has(nvx::kernel::KernelOption::Selftest));
    EXPECT_EQ(p.argv(), (Args{"/bin/demo", "3", "fast"}));
}

TEST(BootArgs, OptionsThenArguments) {
    Parsed p = parse("selftest -- prog x");
    EXPECT_TRUE(p.ok);
    EXPECT_TRUE(p.args->has(nvx::kernel::KernelOption::Selftest));
    EXPECT_EQ(p.argv(), (Args{"prog", "x"}));
}

TEST(BootArgs, ExtraSpacesAndTabs) {
    Parsed p = parse("  selftest \t --\t prog   x\t\ty  ");
    EXPECT_TRUE(p.ok);
    EXPECT_TRUE(p.args->has(nvx::kernel::KernelOption::Selftest));
    EXPECT_EQ(p.argv(), (Args{"prog", "x", "y"}));
}

TEST(BootArgs, SeparatorAlone) {
    Parsed p = parse("--");
    EXPECT_TRUE(p.ok);
    EXPECT_EQ(p.args->argc, 0u);
    p = parse("selftest --   ");
    EXPECT_TRUE(p.ok);
    EXPECT_TRUE(p.args->has(nvx::kernel::KernelOption::Selftest));
    EXPECT_EQ(p.args->argc, 0u);
}

TEST(BootArgs, EverythingAfterTheSeparatorIsArgv) {
    Parsed p = parse("-- selftest -- bogus");
    EXPECT_TRUE(p.ok);
    EXPECT_FALSE(p.args->has(nvx::kernel::KernelOption::Selftest));  // an argument, not an option
    EXPECT_EQ(p.argv(), (Args{"selftest", "--", "bogus"}));
}

TEST(BootArgs, UnknownOption) {
    Parsed p = parse("verbose -- prog");
    EXPECT_FALSE(p.ok);
    ASSERT_NE(p.args->error, nullptr);
    EXPECT_NE(std::string(p.args->error).find("unknown"), std::string::npos) << p.args->error;
}

TEST(BootArgs, UnknownOptionAfterAKnownOne) {
    Parsed p = parse("selftest bogus");
    EXPECT_FALSE(p.ok);
    EXPECT_NE(p.args->error, nullptr);
}

TEST(BootArgs, ProgramWithoutSeparatorIsAnUnknownOption) {
    Parsed p = parse("/bin/demo 3");
    EXPECT_FALSE(p.ok);
    EXPECT_NE(p.args->error, nullptr);
    EXPECT_EQ(p.args->argc, 0u);
}

TEST(BootArgs, OptionsAreCaseSensitiveAndWhole) {
    EXPECT_FALSE(parse("SELFTEST").ok);
    EXPECT_FALSE(parse("selftests").ok);
    EXPECT_FALSE(parse("self").ok);
    EXPECT_FALSE(parse("-").ok);
    EXPECT_FALSE(parse("---").ok);
}

std::string program_with(u32 args) {
    std::string text = "--";
    for (u32 i = 0; i < args; i++) text += " a" + std::to_string(i);
    return text;
}

TEST(BootArgs, ExactlyMaxArgs) {
    std::string text = program_with(kMaxArgs);
    Parsed p = parse(text.c_str());
    EXPECT_TRUE(p.ok);
    EXPECT_EQ(p.args->error, nullptr);
    ASSERT_EQ(p.args->argc, kMaxArgs);
    EXPECT_STREQ(p.args->argv[0], "a0");
    EXPECT_STREQ(p.args->argv[kMaxArgs - 1], ("a" + std::to_string(kMaxArgs - 1)).c_str());
}

TEST(BootArgs, TooManyArgs) {
    std::string text = program_with(kMaxArgs + 1);
    Parsed p = parse(text.c_str());
    EXPECT_FALSE(p.ok);
    ASSERT_NE(p.args->error, nullptr);
    EXPECT_NE(std::string(p.args->error).find("too many"), std::string::npos) << p.args->error;
    EXPECT_LE(p.args->argc, kMaxArgs);  // never writes past argv[]
}

TEST(BootArgs, TooManyArgsEvenWithTrailingSpaces) {
    std::string text = program_with(kMaxArgs + 5) + "   ";
    EXPECT_FALSE(parse(text.c_str()).ok);
}

TEST(BootArgs, InputTextIsNotModified) {
    const std::string original = " selftest -- a  b ";
    std::vector<char> text(original.begin(), original.end());
    text.push_back('\0');
    auto args = std::make_unique<BootArgs>();
    ASSERT_TRUE(parse_bootargs(text.data(), args.get()));
    EXPECT_EQ(std::string(text.data()), original);
    EXPECT_EQ(args->argc, 2u);
}

TEST(BootArgs, LongTextIsBoundedByStorage) {
    // Longer than the BootInfo's bootargs field: parsing stays inside its own storage.
    std::string text = "-- " + std::string(2 * board::kBootArgsMax, 'a');
    Parsed p = parse(text.c_str());
    EXPECT_TRUE(p.ok);
    ASSERT_EQ(p.args->argc, 1u);
    EXPECT_EQ(std::string(p.args->argv[0]).size(), board::kBootArgsMax - 1 - 3);
}

TEST(BootArgs, LimitsMatchTheKernelConfig) {
    EXPECT_EQ(kMaxArgs, 32u);
    EXPECT_EQ(sizeof(BootArgs::argv) / sizeof(BootArgs::argv[0]), kMaxArgs);
    EXPECT_EQ(sizeof(BootArgs::storage), board::kBootArgsMax);
}
}  // namespace

// split_args: the exec strings block (argv, an empty string, then the environment).
namespace {
template <size_t N>
nvx::kernel::BootArgs split(const char (&literal)[N]) {
    std::string block(literal, N - 1);  // the literal's own terminating NUL is not part of it
    static char storage[512];
    nvx::kernel::BootArgs out;
    memcpy(storage, block.data(), block.size());
    EXPECT_TRUE(nvx::kernel::split_args(storage, block.size(), &out));
    return out;
}
}  // namespace

TEST(SplitArgs, ArgvThenEnvironment) {
    auto a = split("prog\0-x\0\0NVX_RANKS=4\0NVX_MAP=scatter\0");
    ASSERT_EQ(a.argc, 2u);
    EXPECT_STREQ(a.argv[0], "prog");
    EXPECT_STREQ(a.argv[1], "-x");
    ASSERT_EQ(a.envc, 2u);
    EXPECT_STREQ(a.envp[0], "NVX_RANKS=4");
    EXPECT_STREQ(a.envp[1], "NVX_MAP=scatter");
}

TEST(SplitArgs, ArgvOnly) {
    auto a = split("prog\0");
    EXPECT_EQ(a.argc, 1u);
    EXPECT_EQ(a.envc, 0u);
}

TEST(SplitArgs, RejectsEmptyUnterminatedAndTooMany) {
    nvx::kernel::BootArgs out;
    char empty[] = "\0env=1";
    EXPECT_FALSE(nvx::kernel::split_args(empty, sizeof empty, &out));  // no argv[0]
    char open[] = {'p', 'r', 'o', 'g'};
    EXPECT_FALSE(nvx::kernel::split_args(open, sizeof open, &out));
    EXPECT_FALSE(nvx::kernel::split_args(open, 0, &out));
    std::string many;
    for (unsigned i = 0; i <= nvx::kernel::kMaxArgs; i++) many += std::string("a\0", 2);
    static char big[512];
    memcpy(big, many.data(), many.size());
    EXPECT_FALSE(nvx::kernel::split_args(big, many.size(), &out));
}

// Every option of the one list (kernel/options.hpp, which the launcher reads through
// board-info) is accepted and sets its own bit only.
TEST(BootArgs, EveryListedOptionParses) {
    for (const nvx::kernel::KernelOptionName& o : nvx::kernel::kKernelOptions) {
        Parsed p = parse(o.name);
        EXPECT_TRUE(p.ok) << o.name;
        EXPECT_TRUE(p.args->has(o.option)) << o.name;
        EXPECT_EQ(p.args->options, 1u << static_cast<u32>(o.option)) << o.name;
    }
}
