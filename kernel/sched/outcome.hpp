// How a kernel call leaves its thread, and what it returns to user space. Handlers return
// a CallResult; the call table (kernel/syscall/call_table.cpp) writes the value into the
// caller's a0, in one place, unless the thread blocked (its waker sets the result) or ended.
#pragma once
#include "support/types.hpp"

namespace nvx::kernel {
enum class Outcome : u8 { Resume, Yield, Blocked, Ended };

struct CallResult {
    i64 value;
    Outcome outcome;
};

constexpr CallResult resume_with(i64 value) { return {value, Outcome::Resume}; }
constexpr CallResult yield_with(i64 value) { return {value, Outcome::Yield}; }
constexpr CallResult blocked() { return {0, Outcome::Blocked}; }
constexpr CallResult ended() { return {0, Outcome::Ended}; }
}  // namespace nvx::kernel
