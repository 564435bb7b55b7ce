// A user address as a kernel call receives it (in the spirit of Zircon's user_ptr): its
// own type, so that it is never dereferenced, never mixed up with a length, an id or a
// kernel address; only the address space's checked accessors (address_space.hpp) take one.
#pragma once
#include "support/types.hpp"

namespace nvx::kernel {
// Trivial like the integer it wraps (kernel tables of threads are cleared with memset);
// UserAddr{} is the null address.
class UserAddr {
public:
    UserAddr() = default;
    constexpr explicit UserAddr(u64 value) : value_(value) {}

    constexpr u64 value() const { return value_; }
    constexpr bool is_null() const { return value_ == 0; }
    // Moving within the user buffer keeps the type.
    constexpr UserAddr operator+(u64 offset) const { return UserAddr(value_ + offset); }
    constexpr UserAddr operator-(u64 offset) const { return UserAddr(value_ - offset); }
    constexpr UserAddr& operator+=(u64 offset) {
        value_ += offset;
        return *this;
    }
    constexpr bool operator==(const UserAddr&) const = default;

private:
    u64 value_;
};
}  // namespace nvx::kernel
