// Buffered mailbox messages (ikc/message_buffers.cpp): bounded store, per-(node, port)
// FIFO order, payload round trip, per-port quota and the allowance of unclaimed ports.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "ikc/message_buffers.hpp"

namespace {
using namespace nvx;
using nvx::ikc::BufferedMessage;
using nvx::ikc::kMessageBuffers;
using nvx::ikc::MessageBuffers;
using nvx::ikc::kPortQuota;
using nvx::ikc::kUnclaimedAllowance;
using nvx::ikc::Origin;

constexpr u32 kMax = NVX_MAILBOX_MSG_MAX;

// A payload whose bytes encode `tag`, so messages are told apart by content.
std::vector<u8> payload_of(u32 tag, u32 length = 8) {
    std::vector<u8> p(length);
    for (u32 i = 0; i < length; i++) p[i] = static_cast<u8>(tag * 31 + i * 7 + 1);
    return p;
}

// The kernel keeps the table in zeroed static storage; the tests value-initialise it
// (zeroed as well) on the heap.
// Most tests look at the table itself: every port has a reader (claimed); the quota and
// allowance tests below start from an unclaimed table.
class MessageBuffersTest : public ::testing::Test {
protected:
    void SetUp() override { claim_all(true); }
    void claim_all(bool claimed) {
        for (u32 node = 0; node < nvx::board::kMaxNodes; node++)
            for (u32 port = 0; port < nvx::ikc::kPorts; port++) buffers().set_claimed(node, port, claimed);
    }
    MessageBuffers& buffers() { return *buffers_; }
    bool store(u32 node, u32 port, u32 tag, u32 length = 8) {
        // A real buffer even for length 0, as the kernel's callers always pass one.
        u8 buffer[kMax] = {};
        std::vector<u8> p = payload_of(tag, length);
        std::copy(p.begin(), p.end(), buffer);
        bool room = buffers().has_room(node, port);
        bool stored = buffers().store(node, port, Origin{static_cast<u16>(tag), 0}, buffer, length);
        EXPECT_EQ(room, stored) << "has_room disagrees with store";
        return stored;
    }
    // Takes the oldest message for (node, port), checks it carries `tag`, releases it.
    void expect_take(u32 node, u32 port, u32 tag, u32 length = 8) {
        BufferedMessage* m = buffers().oldest(node, port);
        ASSERT_NE(m, nullptr) << "no message for (" << node << ", " << port << "), expected tag " << tag;
        EXPECT_TRUE(m->used);
        EXPECT_EQ(m->node, node);
        EXPECT_EQ(m->port, port);
        EXPECT_EQ(m->origin.node, static_cast<u16>(tag));
        ASSERT_EQ(m->length, length);
        std::vector<u8> expected = payload_of(tag, length);
        EXPECT_EQ(std::vector<u8>(m->payload, m->payload + length), expected) << "expected tag " << tag;
        buffers().release(m);
    }
    std::unique_ptr<MessageBuffers> buffers_ = std::make_unique<MessageBuffers>();
};

TEST_F(MessageBuffersTest, CapacityIsTheConfiguredOne) { EXPECT_EQ(kMessageBuffers, 64u); }

TEST_F(MessageBuffersTest, StartsEmpty) {
    EXPECT_EQ(buffers().used(), 0u);
    EXPECT_EQ(buffers().oldest(0, 0), nullptr);
    EXPECT_EQ(buffers().oldest(1, 5), nullptr);
}

TEST_F(MessageBuffersTest, StoreAndTakeOne) {
    EXPECT_TRUE(store(2, 7, 42));
    EXPECT_EQ(buffers().used(), 1u);
    expect_take(2, 7, 42);
    EXPECT_EQ(buffers().used(), 0u);
    EXPECT_EQ(buffers().oldest(2, 7), nullptr);
}

TEST_F(MessageBuffersTest, PayloadAndLengthRoundTrip) {
    for (u32 length : {0u, 1u, 2u, 63u, 64u, 127u, kMax}) {
        SCOPED_TRACE(length);
        ASSERT_TRUE(store(1, 3, length + 100, length));
        expect_take(1, 3, length + 100, length);
    }
    EXPECT_EQ(buffers().used(), 0u);
}

TEST_F(MessageBuffersTest, PayloadIsCopiedNotReferenced) {
    std::vector<u8> p = payload_of(9, kMax);
    ASSERT_TRUE(buffers().store(0, 0, Origin{9, 0}, p.data(), kMax));
    std::fill(p.begin(), p.end(), u8{0xee});  // the sender reuses its buffer
    BufferedMessage* m = buffers().oldest(0, 0);
    ASSERT_NE(m, nullptr);
    std::vector<u8> expected = payload_of(9, kMax);
    EXPECT_EQ(std::memcmp(m->payload, expected.data(), kMax), 0);
}

TEST_F(MessageBuffersTest, ReusedSlotKeepsNoBytesOfTheOldMessage) {
    ASSERT_TRUE(store(0, 0, 1, kMax));
    expect_take(0, 0, 1, kMax);
    ASSERT_TRUE(store(0, 0, 2, 4));  // same slot, shorter message
    BufferedMessage* m = buffers().oldest(0, 0);
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(m->length, 4u);
    for (u32 i = 4; i < kMax; i++) ASSERT_EQ(m->payload[i], 0u) << "stale byte at " << i;
}

TEST_F(MessageBuffersTest, FullTableRefusesWithoutOverwriting) {
    for (u32 i = 0; i < kMessageBuffers; i++) {
        ASSERT_TRUE(store(i % 3, i % 5, i)) << i;
        EXPECT_EQ(buffers().used(), i + 1);
    }
    EXPECT_FALSE(store(0, 0, 1000));
    EXPECT_FALSE(store(7, 9, 1001));  // a key with no message yet: refused as well
    EXPECT_EQ(buffers().used(), kMessageBuffers);
    EXPECT_EQ(buffers().oldest(7, 9), nullptr);
    // Every stored message is still there, in order.
    std::map<std::pair<u32, u32>, std::deque<u32>> expected;
    for (u32 i = 0; i < kMessageBuffers; i++) expected[{i % 3, i % 5}].push_back(i);
    for (auto& [key, tags] : expected)
        for (u32 tag : tags) expect_take(key.first, key.second, tag);
    EXPECT_EQ(buffers().used(), 0u);
}

TEST_F(MessageBuffersTest, OneFreedSlotTakesExactlyOneMore) {
    // Port 2 takes what port 1's quota leaves: the table is full, no port over its quota.
    for (u32 i = 0; i < kMessageBuffers; i++) ASSERT_TRUE(store(0, i < kPortQuota ? 1 : 2, i));
    ASSERT_FALSE(store(0, 2, 999));
    ASSERT_FALSE(store(0, 3, 999));
    expect_take(0, 2, kPortQuota);
    EXPECT_EQ(buffers().used(), kMessageBuffers - 1);
    EXPECT_TRUE(store(0, 2, 64));
    EXPECT_FALSE(store(0, 2, 65));
    for (u32 i = 0; i < kPortQuota; i++) expect_take(0, 1, i);
    for (u32 i = kPortQuota + 1; i <= 64; i++) expect_take(0, 2, i);
    EXPECT_EQ(buffers().oldest(0, 1), nullptr);
    EXPECT_EQ(buffers().oldest(0, 2), nullptr);
}

TEST_F(MessageBuffersTest, QuotasAreTheConfiguredOnes) {
    EXPECT_EQ(kPortQuota, 48u);
    EXPECT_EQ(kUnclaimedAllowance, 16u);
    EXPECT_LT(kPortQuota, kMessageBuffers);  // one port can never take every buffer
}

TEST_F(MessageBuffersTest, APortStopsAtItsQuotaTheOthersGoOn) {
    for (u32 i = 0; i < kPortQuota; i++) ASSERT_TRUE(store(3, 6, i));
    EXPECT_FALSE(store(3, 6, 1000));       // its quota: refused
    EXPECT_EQ(buffers().held_by(3, 6), kPortQuota);
    EXPECT_TRUE(store(3, 8, 2000));        // another port of the same node
    EXPECT_TRUE(store(4, 6, 2001));        // the same port of another node
    expect_take(3, 6, 0);                  // one read frees exactly one place
    EXPECT_TRUE(store(3, 6, kPortQuota));
    EXPECT_FALSE(store(3, 6, 1001));
    for (u32 i = 1; i <= kPortQuota; i++) expect_take(3, 6, i);
    expect_take(3, 8, 2000);
    expect_take(4, 6, 2001);
    EXPECT_EQ(buffers().used(), 0u);
    EXPECT_EQ(buffers().held_by(3, 6), 0u);
}

TEST_F(MessageBuffersTest, UnclaimedPortsShareASmallAllowance) {
    claim_all(false);
    buffers().set_claimed(0, 8, true);
    for (u32 i = 0; i < kUnclaimedAllowance; i++) ASSERT_TRUE(store(0, 4 + i % 3, i));
    EXPECT_EQ(buffers().unclaimed(), kUnclaimedAllowance);
    EXPECT_FALSE(store(0, 9, 100));        // any unclaimed port: refused
    EXPECT_FALSE(store(1, 4, 101));        // on any node
    EXPECT_TRUE(store(0, 8, 102));         // a claimed port is not affected
    EXPECT_EQ(buffers().unclaimed(), kUnclaimedAllowance);
    // A reader appears on port 4: its messages leave the allowance, room for the others.
    buffers().set_claimed(0, 4, true);
    u32 on_port_4 = buffers().held_by(0, 4);
    EXPECT_EQ(buffers().unclaimed(), kUnclaimedAllowance - on_port_4);
    EXPECT_TRUE(store(0, 9, 103));
    // It goes away with its messages unread: they count against the allowance again.
    buffers().set_claimed(0, 4, false);
    EXPECT_EQ(buffers().unclaimed(), kUnclaimedAllowance + 1);
    EXPECT_FALSE(store(0, 10, 104));
    // Reading an unclaimed port's message gives its place back.
    BufferedMessage* m = buffers().oldest(0, 9);
    ASSERT_NE(m, nullptr);
    buffers().release(m);
    EXPECT_EQ(buffers().unclaimed(), kUnclaimedAllowance);
    EXPECT_FALSE(store(0, 10, 105));       // still at the allowance
    expect_take(0, 4, 0);
    EXPECT_TRUE(store(0, 10, 106));
}

TEST_F(MessageBuffersTest, ProgramEndUnclaimsEveryPort) {
    for (u32 i = 0; i < 20; i++) ASSERT_TRUE(store(2, 5, i));
    buffers().unclaim_all();
    EXPECT_EQ(buffers().unclaimed(), 20u);  // over the allowance: nothing more for unclaimed ports
    EXPECT_FALSE(store(2, 6, 100));
    buffers().set_claimed(2, 5, true);      // the next program reads the port again
    EXPECT_EQ(buffers().unclaimed(), 0u);
    EXPECT_TRUE(store(2, 6, 101));
    for (u32 i = 0; i < 20; i++) expect_take(2, 5, i);
}

TEST_F(MessageBuffersTest, ClaimingTwiceChangesNothing) {
    claim_all(false);
    ASSERT_TRUE(store(1, 1, 1));
    buffers().set_claimed(1, 1, true);
    buffers().set_claimed(1, 1, true);
    EXPECT_EQ(buffers().unclaimed(), 0u);
    buffers().set_claimed(1, 1, false);
    buffers().set_claimed(1, 1, false);
    EXPECT_EQ(buffers().unclaimed(), 1u);
    buffers().set_claimed(nvx::board::kMaxNodes, 0, true);  // out of range: ignored
    buffers().set_claimed(0, nvx::ikc::kPorts, true);
    expect_take(1, 1, 1);
    EXPECT_EQ(buffers().unclaimed(), 0u);
}

TEST_F(MessageBuffersTest, OldestIsPerNodeAndPort) {
    ASSERT_TRUE(store(0, 1, 10));
    ASSERT_TRUE(store(1, 0, 11));
    ASSERT_TRUE(store(1, 1, 12));
    ASSERT_TRUE(store(0, 0, 13));
    EXPECT_EQ(buffers().oldest(2, 1), nullptr);
    EXPECT_EQ(buffers().oldest(0, 2), nullptr);
    expect_take(0, 0, 13);  // the newest overall, but the only one for (0, 0)
    expect_take(1, 1, 12);
    expect_take(1, 0, 11);  // node and port are not swapped
    expect_take(0, 1, 10);
    EXPECT_EQ(buffers().used(), 0u);
}

TEST_F(MessageBuffersTest, OrderPreservedAcrossInterleavedKeys) {
    const std::pair<u32, u32> keys[] = {{0, 0}, {0, 31}, {1, 0}, {5, 17}};
    std::map<std::pair<u32, u32>, std::deque<u32>> expected;
    for (u32 i = 0; i < 40; i++) {
        auto key = keys[(i * 7 + i / 3) % 4];
        ASSERT_TRUE(store(key.first, key.second, i));
        expected[key].push_back(i);
    }
    // Drain the keys round-robin: each one in its own arrival order.
    for (bool any = true; any;) {
        any = false;
        for (auto& [key, tags] : expected) {
            if (tags.empty()) continue;
            expect_take(key.first, key.second, tags.front());
            tags.pop_front();
            any = true;
        }
    }
    EXPECT_EQ(buffers().used(), 0u);
}

TEST_F(MessageBuffersTest, OrderSurvivesSlotReuse) {
    // Slots 0..3 hold A0, B0, A1, B1; freeing B0 puts the next A message into slot 1,
    // before A1 in the table: arrival order, not slot order, must decide.
    ASSERT_TRUE(store(0, 1, 0));  // A0
    ASSERT_TRUE(store(0, 2, 1));  // B0
    ASSERT_TRUE(store(0, 1, 2));  // A1
    ASSERT_TRUE(store(0, 2, 3));  // B1
    expect_take(0, 2, 1);         // frees slot 1
    ASSERT_TRUE(store(0, 1, 4));  // A2, into slot 1
    expect_take(0, 1, 0);         // frees slot 0
    ASSERT_TRUE(store(0, 1, 5));  // A3, into slot 0
    expect_take(0, 1, 2);
    expect_take(0, 1, 4);
    expect_take(0, 1, 5);
    expect_take(0, 2, 3);
    EXPECT_EQ(buffers().used(), 0u);
}

TEST_F(MessageBuffersTest, OrderSurvivesManyFillAndDrainRounds) {
    // A model check: random-ish traffic against per-key FIFOs, over many slot reuses.
    std::map<std::pair<u32, u32>, std::deque<u32>> model;
    u32 tag = 0, stored = 0;
    u64 state = 12345;
    auto next = [&state]() {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<u32>(state >> 33);
    };
    for (int step = 0; step < 5000; step++) {
        u32 node = next() % 3, port = next() % 4;
        if (next() % 3 != 0) {
            bool fits = stored < kMessageBuffers && model[std::make_pair(node, port)].size() < kPortQuota;
            bool ok = store(node, port, tag);
            ASSERT_EQ(ok, fits) << "step " << step;
            if (ok) {
                model[{node, port}].push_back(tag);
                stored++;
            }
            tag++;
        } else {
            auto& q = model[{node, port}];
            if (q.empty()) {
                ASSERT_EQ(buffers().oldest(node, port), nullptr) << "step " << step;
            } else {
                expect_take(node, port, q.front());
                ASSERT_FALSE(HasFailure()) << "step " << step;
                q.pop_front();
                stored--;
            }
        }
        ASSERT_EQ(buffers().used(), stored) << "step " << step;
    }
}

TEST_F(MessageBuffersTest, UsedCountsStoresAndReleases) {
    for (u32 i = 0; i < 10; i++) ASSERT_TRUE(store(i, 0, i));
    EXPECT_EQ(buffers().used(), 10u);
    for (u32 i = 0; i < 10; i += 2) expect_take(i, 0, i);
    EXPECT_EQ(buffers().used(), 5u);
    for (u32 i = 1; i < 10; i += 2) expect_take(i, 0, i);
    EXPECT_EQ(buffers().used(), 0u);
}
}  // namespace

TEST_F(MessageBuffersTest, OutOfRangeNodeOrPortIsRefused) {
    EXPECT_FALSE(store(nvx::board::kMaxNodes, 0, 1));
    EXPECT_FALSE(store(0, nvx::ikc::kPorts, 2));
    EXPECT_EQ(buffers().used(), 0u);
    EXPECT_EQ(buffers().oldest(nvx::board::kMaxNodes, 0), nullptr);
    EXPECT_EQ(buffers().oldest(0, nvx::ikc::kPorts), nullptr);
}
