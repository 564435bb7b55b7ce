// The pool of asynchronous IKC operations (ikc/op_slots.hpp): bounded per owner and in
// all, refusing (never dropping) past either bound, and giving slots back.
#include <gtest/gtest.h>

#include "ikc/op_slots.hpp"

namespace {
using nvx::u32;
using nvx::u64;
using nvx::ikc::OpSlots;

TEST(OpSlots, AnOwnerGetsItsBoundThenIsRefused) {
    OpSlots<8, 3, 4> s;
    for (int i = 0; i < 3; i++) EXPECT_GE(s.take(1), 0);
    EXPECT_EQ(s.take(1), -1);
    EXPECT_EQ(s.held_by(1), 3u);
    EXPECT_GE(s.take(2), 0);  // another owner still gets one
}

TEST(OpSlots, ThePoolIsRefusedWhenFull) {
    OpSlots<4, 3, 4> s;
    for (int i = 0; i < 3; i++) EXPECT_GE(s.take(0), 0);
    EXPECT_GE(s.take(1), 0);
    EXPECT_EQ(s.take(2), -1);  // 4 in use: full, though owner 2 holds none
    EXPECT_EQ(s.held_by(2), 0u);
}

TEST(OpSlots, SlotsComeBackAndAreDistinct) {
    OpSlots<64, 64, 2> s;
    u64 seen = 0;
    for (int i = 0; i < 64; i++) {
        int slot = s.take(0);
        ASSERT_GE(slot, 0);
        EXPECT_EQ((seen >> slot) & 1, 0u);
        seen |= u64{1} << slot;
    }
    EXPECT_EQ(s.take(0), -1);
    s.give_back(17);
    EXPECT_FALSE(s.used(17));
    EXPECT_EQ(s.take(1), 17);
    EXPECT_EQ(s.owner_of(17), 1u);
    EXPECT_EQ(s.held_by(0), 63u);
}

TEST(OpSlots, OfListsAnOwnersSlots) {
    OpSlots<8, 8, 3> s;
    int a = s.take(0), b = s.take(1), c = s.take(0);
    EXPECT_EQ(s.of(0), (u64{1} << a) | (u64{1} << c));
    EXPECT_EQ(s.of(1), u64{1} << b);
    EXPECT_EQ(s.of(2), 0u);
}

TEST(OpSlots, BadOwnersAndSlotsChangeNothing) {
    OpSlots<8, 2, 3> s;
    EXPECT_EQ(s.take(3), -1);
    int a = s.take(0);
    s.give_back(a);
    s.give_back(a);  // twice: the second is ignored
    s.give_back(200);
    EXPECT_EQ(s.held_by(0), 0u);
    EXPECT_EQ(s.take(0), a);
    s.clear();
    EXPECT_FALSE(s.used(a));
    EXPECT_EQ(s.held_by(0), 0u);
}
}  // namespace
