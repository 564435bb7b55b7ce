// A mailbox port's bound in virtual time (ikc/port_times.hpp): the n-th message enters no
// earlier than the (n - Q)-th departure, whatever order the host interleaved them in.
#include <gtest/gtest.h>

#include "ikc/port_times.hpp"

namespace {
using nvx::u64;
using nvx::ikc::PortTimes;

TEST(PortTimes, NoBoundUntilTheQuotaWasReached) {
    PortTimes<3> p;
    for (int i = 0; i < 3; i++) {
        EXPECT_EQ(p.entry_bound(), 0u);
        p.entered();
    }
    EXPECT_EQ(p.held(), 3u);
}

TEST(PortTimes, TheNthEntersAfterTheNMinusQthLeft) {
    PortTimes<3> p;
    for (int i = 0; i < 3; i++) p.entered();
    p.left(100);  // message 0
    EXPECT_EQ(p.entry_bound(), 100u);  // message 3 waits for message 0
    p.entered();
    p.left(250);  // message 1
    p.left(180);  // message 2 (a reader's later take may be stamped earlier: kept as given)
    EXPECT_EQ(p.entry_bound(), 250u);  // message 4 waits for message 1
    p.entered();
    EXPECT_EQ(p.entry_bound(), 180u);  // message 5 waits for message 2
}

TEST(PortTimes, TheBoundDoesNotDependOnWhenTheHostDrained) {
    // Two hosts: one drains each message as soon as it can, one lets the port fill first.
    // Message n's bound is message (n - Q)'s departure either way.
    PortTimes<2> eager, lazy;
    u64 left_at[8] = {10, 20, 30, 40, 50, 60, 70, 80};
    u64 eager_bounds[8], lazy_bounds[8];
    for (int n = 0, out = 0; n < 8; n++) {
        eager_bounds[n] = eager.entry_bound();
        eager.entered();
        eager.left(left_at[out++]);
    }
    int out = 0;
    for (int n = 0; n < 8; n++) {
        if (lazy.held() == 2) lazy.left(left_at[out++]);  // drained only when full
        lazy_bounds[n] = lazy.entry_bound();
        lazy.entered();
    }
    for (int n = 0; n < 8; n++) EXPECT_EQ(eager_bounds[n], lazy_bounds[n]) << "message " << n;
    EXPECT_EQ(lazy_bounds[2], 10u);
    EXPECT_EQ(lazy_bounds[7], 60u);
}
}  // namespace
