// mputil's matching rule and queues (mputil/match.hpp).
#include "mputil/match.hpp"

#include <gtest/gtest.h>

using mputil::Envelope;
using mputil::kWildcard;
using mputil::matches;
using mputil::Queue;

namespace {

struct Item {
    Item* next;
    Envelope env;
    int id;
};

Envelope env(int source, uint32_t context, int tag) { return Envelope{source, context, tag, 0}; }

}  // namespace

TEST(MputilMatch, ExactFieldsMustAgree)
{
    EXPECT_TRUE(matches(3, 7, 9, env(3, 7, 9)));
    EXPECT_FALSE(matches(3, 7, 9, env(4, 7, 9)));
    EXPECT_FALSE(matches(3, 7, 9, env(3, 8, 9)));
    EXPECT_FALSE(matches(3, 7, 9, env(3, 7, 10)));
}

TEST(MputilMatch, WildcardsCoverSourceAndTagButNeverTheContext)
{
    EXPECT_TRUE(matches(kWildcard, 7, 9, env(5, 7, 9)));
    EXPECT_TRUE(matches(3, 7, kWildcard, env(3, 7, 12345)));
    EXPECT_TRUE(matches(kWildcard, 7, kWildcard, env(0, 7, 0)));
    EXPECT_FALSE(matches(kWildcard, 7, kWildcard, env(0, 8, 0)));
    EXPECT_FALSE(matches(kWildcard, 7, 1, env(0, 7, 2)));
}

TEST(MputilMatch, QueueTakesTheFirstMatchSoAPairNeverOvertakes)
{
    Item a{nullptr, env(1, 0, 5), 1}, b{nullptr, env(2, 0, 5), 2}, c{nullptr, env(1, 0, 5), 3};
    Queue<Item> q;
    q.push_back(&a);
    q.push_back(&b);
    q.push_back(&c);
    EXPECT_EQ(q.size(), 3u);
    auto from1 = [](Item* it) { return matches(1, 0, 5, it->env); };
    EXPECT_EQ(q.take_first(from1), &a);
    EXPECT_EQ(q.take_first(from1), &c);
    EXPECT_EQ(q.take_first(from1), nullptr);
    EXPECT_EQ(q.size(), 1u);
    EXPECT_EQ(q.front(), &b);
}

TEST(MputilMatch, RemovingTheTailKeepsAppendingCorrect)
{
    Item a{nullptr, env(1, 0, 1), 1}, b{nullptr, env(1, 0, 2), 2}, c{nullptr, env(1, 0, 3), 3};
    Queue<Item> q;
    q.push_back(&a);
    q.push_back(&b);
    EXPECT_TRUE(q.remove(&b));
    EXPECT_FALSE(q.remove(&b));
    q.push_back(&c);
    EXPECT_EQ(q.take_first([](Item*) { return true; }), &a);
    EXPECT_EQ(q.take_first([](Item*) { return true; }), &c);
    EXPECT_TRUE(q.empty());
    q.push_back(&b);  // an emptied queue works again
    EXPECT_EQ(q.front(), &b);
}

TEST(MputilMatch, FindLeavesTheItemQueued)
{
    Item a{nullptr, env(1, 0, 1), 1};
    Queue<Item> q;
    q.push_back(&a);
    EXPECT_EQ(q.find_first([](Item* it) { return it->id == 1; }), &a);
    EXPECT_EQ(q.size(), 1u);
    EXPECT_EQ(q.find_first([](Item* it) { return it->id == 2; }), nullptr);
}

TEST(MputilMatch, TruncationTakesAtMostTheCapacity)
{
    EXPECT_EQ(mputil::delivered_bytes(100, 10), 10u);
    EXPECT_TRUE(mputil::truncates(100, 10));
    EXPECT_EQ(mputil::delivered_bytes(10, 100), 10u);
    EXPECT_FALSE(mputil::truncates(10, 100));
    EXPECT_EQ(mputil::delivered_bytes(0, 0), 0u);
    EXPECT_FALSE(mputil::truncates(0, 0));
}

TEST(MputilMatch, QueuePushFrontGoesFirstAndPopFrontEmptiesInOrder)
{
    Item a{}, b{}, c{};
    a.id = 1;
    b.id = 2;
    c.id = 3;
    Queue<Item> q;
    EXPECT_EQ(q.pop_front(), nullptr);
    q.push_front(&b);  // into an empty queue: head and tail
    q.push_back(&c);
    q.push_front(&a);
    EXPECT_EQ(q.size(), 3u);
    EXPECT_EQ(q.pop_front()->id, 1);
    EXPECT_EQ(q.pop_front()->id, 2);
    EXPECT_EQ(q.pop_front()->id, 3);
    EXPECT_TRUE(q.empty());
    q.push_back(&a);  // the tail was reset: appending works again
    EXPECT_EQ(q.front()->id, 1);
    EXPECT_EQ(q.size(), 1u);
}
