// User addresses at the kernel-call boundary (kernel/mm/user_addr.hpp): a distinct type
// that no integer or pointer turns into by accident, and the call adapters
// (kernel/syscall/call_table.hpp) hand a handler's UserAddr parameters their register.
#include "kernel/mm/user_addr.hpp"

#include <gtest/gtest.h>

#include <type_traits>

#include "kernel/syscall/call_table.hpp"

using nvx::i64;
using nvx::u64;
using nvx::kernel::CallArgs;
using nvx::kernel::UserAddr;

static_assert(!std::is_convertible_v<u64, UserAddr>, "an integer is no user address by accident");
static_assert(!std::is_convertible_v<UserAddr, u64>, "nor a user address an integer");
static_assert(!std::is_convertible_v<void*, UserAddr>, "nor a kernel pointer a user address");
static_assert(std::is_trivially_copyable_v<UserAddr> && std::is_trivial_v<UserAddr>,
              "as cheap as the integer it wraps, and thread tables stay memset-able");

TEST(UserAddr, ArithmeticStaysAUserAddress) {
    UserAddr a(0x4000);
    EXPECT_EQ((a + 0x10).value(), 0x4010u);
    EXPECT_EQ((a - 0x10).value(), 0x3ff0u);
    a += 8;
    EXPECT_EQ(a.value(), 0x4008u);
    EXPECT_TRUE(UserAddr{}.is_null());
    EXPECT_FALSE(a.is_null());
    EXPECT_EQ(a, UserAddr(0x4008));
}

namespace {
u64 seen_id, seen_size;
UserAddr seen_buffer;
i64 typed_call(u64 id, UserAddr buffer, u64 size, u64) {
    seen_id = id;
    seen_buffer = buffer;
    seen_size = size;
    return 7;
}
}  // namespace

TEST(UserAddr, CallAdapterTypesEachRegisterAsTheHandlerSays) {
    nvx::kernel::Thread caller{};
    auto r = nvx::kernel::call_with<typed_call>(&caller, CallArgs{3, 0x8000, 64, 0});
    EXPECT_EQ(r.value, 7);
    EXPECT_EQ(r.outcome, nvx::kernel::Outcome::Resume);
    EXPECT_EQ(seen_id, 3u);
    EXPECT_EQ(seen_buffer, UserAddr(0x8000));
    EXPECT_EQ(seen_size, 64u);
}

TEST(UserAddr, AnAddressInTheCallersPrivateCopyBecomesItsSharedAddress) {
    nvx::kernel::Thread caller{};
    caller.copy = 5;
    u64 va = NVX_USER_PRIVATE_BASE + 0x1234;
    nvx::kernel::call_with<typed_call>(&caller, CallArgs{3, va, 64, 0});
    EXPECT_EQ(seen_buffer, UserAddr(NVX_USER_PRIVATE_SHARED + 5 * (1ull << 30) + 0x1234));
    nvx::kernel::call_with<typed_call>(&caller, CallArgs{3, 0x8000, 64, 0});
    EXPECT_EQ(seen_buffer, UserAddr(0x8000));  // a shared address stays
    caller.copy = 0;
    nvx::kernel::call_with<typed_call>(&caller, CallArgs{3, va, 64, 0});
    EXPECT_EQ(seen_buffer, UserAddr(NVX_USER_PRIVATE_SHARED + 0x1234));  // the program's own copy
}
