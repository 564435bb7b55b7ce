// Reservations (support/reservations.hpp): first fit in virtual time, merging, bounded
// memory, and results independent of the order reservations are made in.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "support/reservations.hpp"

namespace {
using nvx::Reservations;
using nvx::u64;

TEST(Reservations, EmptyFitsAtOnce) {
    Reservations<4> r;
    EXPECT_EQ(r.first_fit(100, 50), 100u);
    EXPECT_EQ(r.first_fit(0, 0), 0u);
}

TEST(Reservations, WaitsBehindOverlapOnly) {
    Reservations<8> r;
    r.reserve(100, 200);
    EXPECT_EQ(r.first_fit(150, 10), 200u);  // inside: after it
    EXPECT_EQ(r.first_fit(50, 50), 50u);    // ends where it starts: fits before
    EXPECT_EQ(r.first_fit(50, 51), 200u);   // one cycle too long for the gap
    EXPECT_EQ(r.first_fit(200, 10), 200u);
    EXPECT_EQ(r.first_fit(100, 0), 200u);   // an instant inside is busy
    EXPECT_EQ(r.first_fit(99, 0), 99u);
}

TEST(Reservations, SkipsGapsTooSmall) {
    Reservations<8> r;
    r.reserve(100, 200);
    r.reserve(210, 300);
    r.reserve(400, 500);
    EXPECT_EQ(r.first_fit(150, 20), 300u);  // the 10-cycle gap is too small
    EXPECT_EQ(r.first_fit(150, 10), 200u);
    EXPECT_EQ(r.first_fit(250, 100), 300u);
    EXPECT_EQ(r.first_fit(250, 101), 500u);
}

TEST(Reservations, MergesOverlapsAndNeighbours) {
    Reservations<8> r;
    r.reserve(100, 200);
    r.reserve(300, 400);
    r.reserve(200, 300);  // touches both: one interval
    EXPECT_EQ(r.size(), 1u);
    EXPECT_EQ(r.first_fit(100, 1), 400u);
    r.reserve(50, 120);
    EXPECT_EQ(r.size(), 1u);
    EXPECT_EQ(r.first_fit(0, 50), 0u);
    EXPECT_EQ(r.first_fit(0, 51), 400u);
}

TEST(Reservations, FullForgetsTheEarliest) {
    Reservations<4> r;
    r.reserve(100, 110);
    r.reserve(200, 210);
    r.reserve(300, 310);
    r.reserve(350, 360);
    r.reserve(400, 410);  // the 100 interval goes
    EXPECT_EQ(r.size(), 4u);
    EXPECT_EQ(r.first_fit(100, 5), 100u);
    EXPECT_EQ(r.first_fit(200, 5), 210u);
    EXPECT_EQ(r.first_fit(400, 5), 410u);
    r.reserve(10, 20);  // earlier than everything kept: not kept
    EXPECT_EQ(r.size(), 4u);
    EXPECT_EQ(r.first_fit(10, 5), 10u);
}

TEST(Reservations, InsertsBetween) {
    Reservations<8> r;
    r.reserve(300, 310);
    r.reserve(100, 110);
    r.reserve(200, 210);
    EXPECT_EQ(r.size(), 3u);
    EXPECT_EQ(r.first_fit(95, 10), 110u);
    EXPECT_EQ(r.first_fit(195, 10), 210u);
    EXPECT_EQ(r.first_fit(295, 10), 310u);
}

// A server taking requests first fit: when the requests' intervals do not collide, every
// host order gives each request the same start (its own stamp).
TEST(Reservations, HostOrderDoesNotMatterWithoutCollisions) {
    std::vector<u64> stamps = {5000, 100, 30000, 2500, 17000, 900, 12000, 7000};
    constexpr u64 kService = 700;
    std::vector<size_t> order(stamps.size());
    std::iota(order.begin(), order.end(), 0);
    int permutations = 0;
    do {
        Reservations<16> r;
        for (size_t i : order) {
            u64 start = r.first_fit(stamps[i], kService);
            ASSERT_EQ(start, stamps[i]);
            r.reserve(start, start + kService);
        }
        permutations++;
    } while (std::next_permutation(order.begin(), order.end()) && permutations < 2000);
}

// The ring wraps many times; the intervals kept are always the latest N, in order.
TEST(Reservations, RingKeepsTheLatest) {
    Reservations<8> r;
    for (u64 i = 0; i < 100; i++) r.reserve(i * 100, i * 100 + 10);
    EXPECT_EQ(r.size(), 8u);
    EXPECT_EQ(r.first_fit(9900, 20), 9910u);
    EXPECT_EQ(r.first_fit(9805, 1), 9810u);
    EXPECT_EQ(r.first_fit(9100, 20), 9100u);  // forgotten
    r.reserve(9550, 9650);  // swallows 9600 and lands in the middle of the ring
    EXPECT_EQ(r.first_fit(9550, 1), 9650u);
    EXPECT_EQ(r.first_fit(9510, 40), 9510u);
    EXPECT_EQ(r.first_fit(9510, 41), 9650u);
    EXPECT_EQ(r.first_fit(9695, 10), 9710u);
    EXPECT_EQ(r.size(), 8u);
}

// Colliding requests queue: each is delayed by the ones reserved before it, never past
// the sum of all services.
TEST(Reservations, CollisionsQueue) {
    Reservations<16> r;
    u64 end = 0;
    for (int i = 0; i < 5; i++) {
        u64 start = r.first_fit(1000, 100);
        EXPECT_EQ(start, 1000u + 100u * static_cast<u64>(i));
        r.reserve(start, start + 100);
        end = start + 100;
    }
    EXPECT_EQ(end, 1500u);
}
}  // namespace
