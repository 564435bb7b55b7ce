// Refused mailbox messages kept by the sending kernel (ikc/held_messages.cpp): one per
// (target, port), resent only once the receiver said that port drained, drain notices that
// come early are remembered, bounded pool.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>

#include "ikc/held_messages.hpp"

namespace {
using namespace nvx;
using nvx::ikc::HeldMessage;
using nvx::ikc::HeldMessages;
using nvx::ikc::kHeldMessages;

noc::MailboxMessage message(u32 port, u8 fill, u16 length = 16) {
    noc::MailboxMessage m{};
    m.header = {0, noc::kFromSystem, static_cast<u16>(port), length};
    std::memset(m.payload, fill, length);
    return m;
}

class HeldMessagesTest : public ::testing::Test {
protected:
    HeldMessages& held() { return *held_; }
    std::unique_ptr<HeldMessages> held_ = std::make_unique<HeldMessages>();
};

TEST_F(HeldMessagesTest, KeptUntilItsPortDrains) {
    ASSERT_TRUE(held().keep(5, message(6, 0xaa)));
    EXPECT_TRUE(held().holds(5, 6));
    EXPECT_FALSE(held().holds(5, 7));
    EXPECT_FALSE(held().holds(4, 6));
    EXPECT_EQ(held().ready(5), nullptr);      // no drain yet: nothing to resend
    EXPECT_EQ(held().ready_targets(), 0u);
    held().drained(5, 1u << 7);               // another port drained: still nothing
    EXPECT_EQ(held().ready(5), nullptr);
    held().drained(5, 1u << 6);
    EXPECT_EQ(held().ready_targets(), 1ull << 5);
    HeldMessage* h = held().ready(5);
    ASSERT_NE(h, nullptr);
    EXPECT_EQ(h->target, 5u);
    EXPECT_EQ(h->message.header.target_port, 6u);
    EXPECT_EQ(h->message.header.flags, noc::kFromSystem);
    EXPECT_EQ(h->message.header.length, 16u);
    EXPECT_EQ(h->message.payload[15], 0xaa);
    held().release(h);
    EXPECT_FALSE(held().holds(5, 6));
    EXPECT_EQ(held().count(), 0u);
    EXPECT_EQ(held().ready_targets(), 0u);
}

TEST_F(HeldMessagesTest, ADrainSeenBeforeTheMessageIsKeptIsNotLost) {
    held().drained(9, 1u << 4);               // the notice overtook the refused message
    ASSERT_TRUE(held().keep(9, message(4, 1)));
    HeldMessage* h = held().ready(9);
    ASSERT_NE(h, nullptr);
    held().release(h);                        // the resend uses the notice up
    ASSERT_TRUE(held().keep(9, message(4, 2)));  // refused again: waits for a new notice
    EXPECT_EQ(held().ready(9), nullptr);
}

TEST_F(HeldMessagesTest, OnePerTargetAndPort) {
    ASSERT_TRUE(held().keep(3, message(6, 1)));
    EXPECT_FALSE(held().keep(3, message(6, 2)));  // later ones wait in their writers
    EXPECT_TRUE(held().keep(3, message(7, 3)));
    EXPECT_TRUE(held().keep(4, message(6, 4)));
    EXPECT_EQ(held().count(), 3u);
    held().drained(3, (1u << 6) | (1u << 7));
    u32 resent = 0;
    while (HeldMessage* h = held().ready(3)) {
        EXPECT_EQ(h->target, 3u);
        held().release(h);
        resent++;
    }
    EXPECT_EQ(resent, 2u);
    EXPECT_TRUE(held().holds(4, 6));
}

TEST_F(HeldMessagesTest, BoundedPool) {
    for (u32 i = 0; i < kHeldMessages; i++) ASSERT_TRUE(held().keep(i % 8, message(i / 8, static_cast<u8>(i)))) << i;
    EXPECT_TRUE(held().full());
    EXPECT_FALSE(held().keep(60, message(1, 0)));  // the caller leaves it where it is
    held().drained(0, 1u << 0);
    HeldMessage* h = held().ready(0);
    ASSERT_NE(h, nullptr);
    held().release(h);
    EXPECT_FALSE(held().full());
    EXPECT_TRUE(held().keep(60, message(1, 0)));
}

TEST_F(HeldMessagesTest, OutOfRangeIsRefused) {
    EXPECT_FALSE(held().keep(board::kMaxNodes, message(1, 0)));
    EXPECT_FALSE(held().keep(0, message(ikc::kPorts, 0)));
    EXPECT_FALSE(held().holds(board::kMaxNodes, 0));
    held().drained(board::kMaxNodes, ~0u);
    EXPECT_EQ(held().ready(board::kMaxNodes), nullptr);
    EXPECT_EQ(held().count(), 0u);
}

TEST_F(HeldMessagesTest, LengthIsBoundedByThePayload) {
    noc::MailboxMessage m = message(2, 7, 100);
    m.header.length = 1000;  // a sender's kernel bug must not overrun the copy
    ASSERT_TRUE(held().keep(1, m));
    held().drained(1, 1u << 2);
    HeldMessage* h = held().ready(1);
    ASSERT_NE(h, nullptr);
    EXPECT_EQ(h->message.header.length, NVX_MAILBOX_MSG_MAX);
}
}  // namespace
