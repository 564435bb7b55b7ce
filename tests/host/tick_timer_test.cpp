// The kernel core's tick rule (kernel/sched/tick_timer.hpp): the timer runs only while
// threads wait for a hart, and a fired timer is always rewritten.
#include "kernel/sched/tick_timer.hpp"

#include <gtest/gtest.h>

using nvx::u64;
using nvx::kernel::TickTimer;

namespace {
constexpr u64 kInterval = 100'000;
}

TEST(TickTimer, QuietCoreLeavesTheTimerAlone) {
    TickTimer t;
    u64 deadline = 7;
    EXPECT_FALSE(t.update(false, false, 1000, kInterval, deadline));
    EXPECT_EQ(deadline, 7u);
    EXPECT_FALSE(t.armed());
}

TEST(TickTimer, ArmsWhenThreadsStartWaiting) {
    TickTimer t;
    u64 deadline = 0;
    ASSERT_TRUE(t.update(false, true, 1000, kInterval, deadline));
    EXPECT_EQ(deadline, 1000 + kInterval);
    EXPECT_TRUE(t.armed());
    EXPECT_FALSE(t.update(false, true, 2000, kInterval, deadline)) << "an armed tick is not rewritten each pass";
}

TEST(TickTimer, DisarmsWhenNobodyWaits) {
    TickTimer t;
    u64 deadline = 0;
    ASSERT_TRUE(t.update(false, true, 1000, kInterval, deadline));
    ASSERT_TRUE(t.update(false, false, 1500, kInterval, deadline));
    EXPECT_EQ(deadline, TickTimer::kNever);
    EXPECT_FALSE(t.armed());
}

TEST(TickTimer, FiredTickWithThreadsStillWaitingIsRearmed) {
    TickTimer t;
    u64 deadline = 0;
    ASSERT_TRUE(t.update(false, true, 1000, kInterval, deadline));
    ASSERT_TRUE(t.update(true, true, 1000 + kInterval, kInterval, deadline));
    EXPECT_EQ(deadline, 1000 + 2 * kInterval);
    EXPECT_TRUE(t.armed());
}

// The bug of issue 7: the tick fired while a thread waited, and that thread got a hart before
// the tick was handled. Nobody waits any more, but the pending timer interrupt must still be
// cleared by writing a deadline, else wfi returns at once and the kernel core spins.
TEST(TickTimer, FiredTickWithNobodyWaitingIsStillRewritten) {
    TickTimer t;
    u64 deadline = 0;
    ASSERT_TRUE(t.update(false, true, 1000, kInterval, deadline));
    ASSERT_TRUE(t.update(true, false, 1000 + kInterval, kInterval, deadline));
    EXPECT_EQ(deadline, TickTimer::kNever);
    EXPECT_FALSE(t.armed());
}

TEST(TickTimer, FiredTimerWhileDisarmedIsRewritten) {
    TickTimer t;  // e.g. a stale deadline from before the program started
    u64 deadline = 0;
    ASSERT_TRUE(t.update(true, false, 5000, kInterval, deadline));
    EXPECT_EQ(deadline, TickTimer::kNever);
}
