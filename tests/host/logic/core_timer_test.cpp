// The kernel core's timer rule (kernel/sched/core_timer.hpp): the tick runs only while
// threads wait for a hart, a sleeper's deadline arms it too, the earlier of the two wins,
// and a fired timer is always rewritten.
#include "kernel/sched/core_timer.hpp"

#include <gtest/gtest.h>

using nvx::u64;
using nvx::kernel::CoreTimer;

namespace {
constexpr u64 kInterval = 100'000;
constexpr u64 kNoSleeper = CoreTimer::kNever;
}

TEST(CoreTimer, QuietCoreLeavesTheTimerAlone) {
    CoreTimer t;
    u64 deadline = 7;
    EXPECT_FALSE(t.update(false, false, 1000, kInterval, kNoSleeper, deadline));
    EXPECT_EQ(deadline, 7u);
    EXPECT_FALSE(t.tick_armed());
}

TEST(CoreTimer, ArmsWhenThreadsStartWaiting) {
    CoreTimer t;
    u64 deadline = 0;
    ASSERT_TRUE(t.update(false, true, 1000, kInterval, kNoSleeper, deadline));
    EXPECT_EQ(deadline, 1000 + kInterval);
    EXPECT_TRUE(t.tick_armed());
    EXPECT_FALSE(t.update(false, true, 2000, kInterval, kNoSleeper, deadline)) << "an armed tick is not rewritten each pass";
}

TEST(CoreTimer, DisarmsWhenNobodyWaits) {
    CoreTimer t;
    u64 deadline = 0;
    ASSERT_TRUE(t.update(false, true, 1000, kInterval, kNoSleeper, deadline));
    ASSERT_TRUE(t.update(false, false, 1500, kInterval, kNoSleeper, deadline));
    EXPECT_EQ(deadline, CoreTimer::kNever);
    EXPECT_FALSE(t.tick_armed());
}

TEST(CoreTimer, FiredTickWithThreadsStillWaitingIsRearmed) {
    CoreTimer t;
    u64 deadline = 0;
    ASSERT_TRUE(t.update(false, true, 1000, kInterval, kNoSleeper, deadline));
    ASSERT_TRUE(t.update(true, true, 1000 + kInterval, kInterval, kNoSleeper, deadline));
    EXPECT_EQ(deadline, 1000 + 2 * kInterval);
    EXPECT_TRUE(t.tick_armed());
}

// A tick fired while a thread waited, and that thread got a hart before
// the tick was handled. Nobody waits any more, but the pending timer interrupt must still be
// cleared by writing a deadline, else wfi returns at once and the kernel core spins.
TEST(CoreTimer, FiredTickWithNobodyWaitingIsStillRewritten) {
    CoreTimer t;
    u64 deadline = 0;
    ASSERT_TRUE(t.update(false, true, 1000, kInterval, kNoSleeper, deadline));
    ASSERT_TRUE(t.update(true, false, 1000 + kInterval, kInterval, kNoSleeper, deadline));
    EXPECT_EQ(deadline, CoreTimer::kNever);
    EXPECT_FALSE(t.tick_armed());
}

TEST(CoreTimer, FiredTimerWhileDisarmedIsRewritten) {
    CoreTimer t;  // e.g. a stale deadline from before the program started
    u64 deadline = 0;
    ASSERT_TRUE(t.update(true, false, 5000, kInterval, kNoSleeper, deadline));
    EXPECT_EQ(deadline, CoreTimer::kNever);
}

TEST(CoreTimer, SleeperAloneArmsItsDeadline) {
    CoreTimer t;
    u64 deadline = 0;
    ASSERT_TRUE(t.update(false, false, 1000, kInterval, 9000, deadline));
    EXPECT_EQ(deadline, 9000u);
    EXPECT_FALSE(t.tick_armed());
    EXPECT_FALSE(t.update(false, false, 2000, kInterval, 9000, deadline)) << "the same deadline is not rewritten";
}

TEST(CoreTimer, EarlierSleeperMovesTheTimerForward) {
    CoreTimer t;
    u64 deadline = 0;
    ASSERT_TRUE(t.update(false, false, 1000, kInterval, 9000, deadline));
    ASSERT_TRUE(t.update(false, false, 1200, kInterval, 4000, deadline));
    EXPECT_EQ(deadline, 4000u);
}

TEST(CoreTimer, EarlierOfTickAndSleeperWins) {
    CoreTimer t;
    u64 deadline = 0;
    ASSERT_TRUE(t.update(false, true, 1000, kInterval, 1000 + 5 * kInterval, deadline));
    EXPECT_EQ(deadline, 1000 + kInterval) << "the tick comes first";
    // The tick fires, threads still wait, the sleeper is now nearer than the next tick.
    ASSERT_TRUE(t.update(true, true, 1000 + kInterval, kInterval, 1000 + kInterval + 10, deadline));
    EXPECT_EQ(deadline, 1000 + kInterval + 10);
}

TEST(CoreTimer, SleeperFiringKeepsTheTickWhereItWas) {
    CoreTimer t;
    u64 deadline = 0;
    ASSERT_TRUE(t.update(false, true, 1000, kInterval, 1500, deadline));
    EXPECT_EQ(deadline, 1500u);
    // The sleeper's deadline fires and it was woken: the tick keeps its own deadline.
    ASSERT_TRUE(t.update(true, true, 1500, kInterval, kNoSleeper, deadline));
    EXPECT_EQ(deadline, 1000 + kInterval);
}

TEST(CoreTimer, LastSleeperWokenDisarms) {
    CoreTimer t;
    u64 deadline = 0;
    ASSERT_TRUE(t.update(false, false, 1000, kInterval, 1500, deadline));
    ASSERT_TRUE(t.update(true, false, 1500, kInterval, kNoSleeper, deadline));
    EXPECT_EQ(deadline, CoreTimer::kNever);
}
