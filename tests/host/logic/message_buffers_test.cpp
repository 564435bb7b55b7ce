// Buffered mailbox messages (ikc/message_buffers.cpp): bounded store, the order a port
// hands its messages out in (earliest stamp, ties and each sender's messages in arrival
// order), payload round trip, per-port quota and the allowance of unclaimed ports.
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
using nvx::ikc::Sender;

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
    // Stores message `tag`; unless told otherwise, every message has a sender of its own
    // and the same stamp, so the port hands them out in arrival order.
    bool store(u32 node, u32 port, u32 tag, u32 length = 8) { return store_from(node, port, tag, tag, 0, length); }
    bool store_from(u32 node, u32 port, u32 tag, Sender sender, u64 stamp, u32 length = 8) {
        // A real buffer even for length 0, as the kernel's callers always pass one.
        u8 buffer[kMax] = {};
        std::vector<u8> p = payload_of(tag, length);
        std::copy(p.begin(), p.end(), buffer);
        bool room = buffers().has_room(node, port);
        bool stored = buffers().store(node, port, Origin{static_cast<u16>(tag), 0}, sender, buffer, length, stamp);
        EXPECT_EQ(room, stored) << "has_room disagrees with store";
        return stored;
    }
    // Takes the message (node, port) hands out next, checks it carries `tag`, releases it.
    void expect_take(u32 node, u32 port, u32 tag, u32 length = 8) {
        BufferedMessage* m = buffers().next_out(node, port);
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
    EXPECT_EQ(buffers().next_out(0, 0), nullptr);
    EXPECT_EQ(buffers().next_out(1, 5), nullptr);
}

TEST_F(MessageBuffersTest, StoreAndTakeOne) {
    EXPECT_TRUE(store(2, 7, 42));
    EXPECT_EQ(buffers().used(), 1u);
    expect_take(2, 7, 42);
    EXPECT_EQ(buffers().used(), 0u);
    EXPECT_EQ(buffers().next_out(2, 7), nullptr);
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
    ASSERT_TRUE(buffers().store(0, 0, Origin{9, 0}, 9, p.data(), kMax));
    std::fill(p.begin(), p.end(), u8{0xee});  // the sender reuses its buffer
    BufferedMessage* m = buffers().next_out(0, 0);
    ASSERT_NE(m, nullptr);
    std::vector<u8> expected = payload_of(9, kMax);
    EXPECT_EQ(std::memcmp(m->payload, expected.data(), kMax), 0);
}

TEST_F(MessageBuffersTest, ReusedSlotKeepsNoBytesOfTheOldMessage) {
    ASSERT_TRUE(store(0, 0, 1, kMax));
    expect_take(0, 0, 1, kMax);
    ASSERT_TRUE(store(0, 0, 2, 4));  // same slot, shorter message
    BufferedMessage* m = buffers().next_out(0, 0);
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
    EXPECT_EQ(buffers().next_out(7, 9), nullptr);
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
    EXPECT_EQ(buffers().next_out(0, 1), nullptr);
    EXPECT_EQ(buffers().next_out(0, 2), nullptr);
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
    BufferedMessage* m = buffers().next_out(0, 9);
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

TEST_F(MessageBuffersTest, NextOutIsPerNodeAndPort) {
    ASSERT_TRUE(store(0, 1, 10));
    ASSERT_TRUE(store(1, 0, 11));
    ASSERT_TRUE(store(1, 1, 12));
    ASSERT_TRUE(store(0, 0, 13));
    EXPECT_EQ(buffers().next_out(2, 1), nullptr);
    EXPECT_EQ(buffers().next_out(0, 2), nullptr);
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
                ASSERT_EQ(buffers().next_out(node, port), nullptr) << "step " << step;
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

TEST_F(MessageBuffersTest, EarliestStampGoesOutFirst) {
    ASSERT_TRUE(store_from(0, 3, 1, 1, 300));
    ASSERT_TRUE(store_from(0, 3, 2, 2, 100));
    ASSERT_TRUE(store_from(0, 3, 3, 3, 200));
    ASSERT_TRUE(store_from(0, 4, 4, 4, 50));  // another port's earlier stamp does not count
    expect_take(0, 3, 2);
    ASSERT_TRUE(store_from(0, 3, 5, 5, 150));  // arrives later, stamped before two waiting ones
    expect_take(0, 3, 5);
    expect_take(0, 3, 3);
    expect_take(0, 3, 1);
    EXPECT_EQ(buffers().next_out(0, 3), nullptr);
    expect_take(0, 4, 4);
    EXPECT_EQ(buffers().used(), 0u);
}

TEST_F(MessageBuffersTest, EqualStampsGoOutInArrivalOrder) {
    ASSERT_TRUE(store_from(1, 2, 1, 1, 70));
    ASSERT_TRUE(store_from(1, 2, 2, 2, 40));
    ASSERT_TRUE(store_from(1, 2, 3, 3, 70));
    ASSERT_TRUE(store_from(1, 2, 4, 4, 40));
    ASSERT_TRUE(store_from(1, 2, 5, 5, 70));
    for (u32 tag : {2u, 4u, 1u, 3u, 5u}) expect_take(1, 2, tag);
    EXPECT_EQ(buffers().used(), 0u);
}

TEST_F(MessageBuffersTest, ASendersMessagesKeepTheirOrder) {
    // Sender 7's second message is stamped before its first (and before sender 8's): it
    // waits until the first has gone, then goes out by its stamp.
    ASSERT_TRUE(store_from(2, 1, 1, 7, 500));
    ASSERT_TRUE(store_from(2, 1, 2, 8, 300));
    ASSERT_TRUE(store_from(2, 1, 3, 7, 100));
    ASSERT_TRUE(store_from(2, 1, 4, 8, 400));
    ASSERT_TRUE(store_from(2, 1, 5, 9, 450));
    expect_take(2, 1, 2);  // 300: sender 8's first; its 400 may go next
    expect_take(2, 1, 4);  // 400
    expect_take(2, 1, 5);  // 450
    expect_take(2, 1, 1);  // 500: sender 7's first, at last
    expect_take(2, 1, 3);  // 100, behind it
    EXPECT_EQ(buffers().used(), 0u);
    // A sender's messages on another port do not hold it back.
    ASSERT_TRUE(store_from(2, 2, 6, 7, 900));
    ASSERT_TRUE(store_from(2, 1, 7, 7, 10));
    ASSERT_TRUE(store_from(2, 1, 8, 8, 20));
    expect_take(2, 1, 7);
    expect_take(2, 1, 8);
    expect_take(2, 2, 6);
}

TEST_F(MessageBuffersTest, StampOrderLeavesTheQuotasAlone) {
    claim_all(false);
    buffers().set_claimed(0, 1, true);
    // Stamps falling as they arrive: each store goes out before the ones stored before it.
    for (u32 i = 0; i < kPortQuota; i++) ASSERT_TRUE(store_from(0, 1, i, i, 1000 - i));
    EXPECT_FALSE(store_from(0, 1, 100, 100, 0));  // at its quota, whatever the stamp
    EXPECT_EQ(buffers().held_by(0, 1), kPortQuota);
    expect_take(0, 1, kPortQuota - 1);            // the last in, the first out
    EXPECT_EQ(buffers().held_by(0, 1), kPortQuota - 1);
    EXPECT_TRUE(store_from(0, 1, 101, 101, 5000));  // exactly one place came free
    EXPECT_FALSE(store_from(0, 1, 102, 102, 0));
    for (u32 left = kPortQuota; left > 0; left--) {  // drains, one place per message
        BufferedMessage* m = buffers().next_out(0, 1);
        ASSERT_NE(m, nullptr);
        buffers().release(m);
        EXPECT_EQ(buffers().held_by(0, 1), left - 1);
    }
    // Unclaimed ports: the allowance counts messages, whichever goes out.
    for (u32 i = 0; i < kUnclaimedAllowance; i++) ASSERT_TRUE(store_from(3, 4, 200 + i, 200 + i, 100 - i));
    EXPECT_FALSE(store_from(3, 5, 300, 300, 0));
    expect_take(3, 4, 200 + kUnclaimedAllowance - 1);
    EXPECT_EQ(buffers().unclaimed(), kUnclaimedAllowance - 1);
    EXPECT_TRUE(store_from(3, 5, 301, 301, 0));
    EXPECT_FALSE(store_from(3, 5, 302, 302, 0));
    EXPECT_EQ(buffers().used(), kUnclaimedAllowance);
}

TEST_F(MessageBuffersTest, ReleasingFromTheMiddleOrTheEndKeepsTheListWhole) {
    ASSERT_TRUE(store_from(5, 6, 1, 1, 30));
    ASSERT_TRUE(store_from(5, 6, 2, 2, 10));  // the middle one goes first
    ASSERT_TRUE(store_from(5, 6, 3, 3, 20));
    expect_take(5, 6, 2);
    ASSERT_TRUE(store_from(5, 6, 4, 4, 5));   // appended after what was the tail
    expect_take(5, 6, 4);                     // the tail goes: the one before it is the tail again
    ASSERT_TRUE(store_from(5, 6, 5, 5, 25));
    ASSERT_TRUE(store_from(5, 6, 6, 6, 40));
    expect_take(5, 6, 3);
    expect_take(5, 6, 5);
    expect_take(5, 6, 1);                     // the head
    expect_take(5, 6, 6);
    EXPECT_EQ(buffers().next_out(5, 6), nullptr);
    EXPECT_EQ(buffers().used(), 0u);
    EXPECT_EQ(buffers().held_by(5, 6), 0u);
    // The emptied port works as a new one.
    ASSERT_TRUE(store_from(5, 6, 7, 7, 0));
    ASSERT_TRUE(store_from(5, 6, 8, 8, 0));
    expect_take(5, 6, 7);
    expect_take(5, 6, 8);
}

TEST_F(MessageBuffersTest, HandOutMatchesAModelOverManyRounds) {
    // Random traffic with random stamps and few senders against a model: per (node, port),
    // the messages in arrival order; the next out is the earliest stamp among the first of
    // each sender, the first to arrive among equal stamps.
    struct Entry {
        u32 tag;
        Sender sender;
        u64 stamp;
    };
    std::map<std::pair<u32, u32>, std::vector<Entry>> model;
    auto next_of = [](const std::vector<Entry>& entries) {
        std::vector<Sender> seen;
        const Entry* best = nullptr;
        for (const Entry& e : entries) {
            bool first = std::find(seen.begin(), seen.end(), e.sender) == seen.end();
            seen.push_back(e.sender);
            if (first && (best == nullptr || e.stamp < best->stamp)) best = &e;
        }
        return best;
    };
    u32 tag = 0, stored = 0;
    u64 state = 987654321;
    auto next = [&state]() {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<u32>(state >> 33);
    };
    for (int step = 0; step < 20000; step++) {
        u32 node = next() % 2, port = next() % 3;
        std::vector<Entry>& entries = model[{node, port}];
        if (next() % 2 == 0) {
            Entry e = {tag++, next() % 4, next() % 8};
            bool fits = stored < kMessageBuffers && entries.size() < kPortQuota;
            bool ok = store_from(node, port, e.tag, e.sender, e.stamp);
            ASSERT_EQ(ok, fits) << "step " << step;
            if (ok) {
                entries.push_back(e);
                stored++;
            }
        } else if (const Entry* e = next_of(entries)) {
            BufferedMessage* m = buffers().next_out(node, port);
            ASSERT_NE(m, nullptr) << "step " << step;
            ASSERT_EQ(m->origin.node, static_cast<u16>(e->tag)) << "step " << step;
            EXPECT_EQ(m->sender, e->sender);
            EXPECT_EQ(m->stamp, e->stamp);
            buffers().release(m);
            entries.erase(entries.begin() + (e - entries.data()));
            stored--;
        } else {
            ASSERT_EQ(buffers().next_out(node, port), nullptr) << "step " << step;
        }
        ASSERT_EQ(buffers().used(), stored) << "step " << step;
        ASSERT_EQ(buffers().held_by(node, port), entries.size()) << "step " << step;
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
    EXPECT_EQ(buffers().next_out(nvx::board::kMaxNodes, 0), nullptr);
    EXPECT_EQ(buffers().next_out(0, nvx::ikc::kPorts), nullptr);
}
