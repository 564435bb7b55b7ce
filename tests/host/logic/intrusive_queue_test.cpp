// The kernel's FIFO of objects linked through their own `next` (support/intrusive_queue.hpp).
#include <gtest/gtest.h>

#include "support/intrusive_queue.hpp"

namespace {
struct Item {
    int value;
    Item* next;
};
using Queue = nvx::IntrusiveQueue<Item>;

TEST(IntrusiveQueue, FirstInFirstOut) {
    Item a{1, nullptr}, b{2, nullptr}, c{3, nullptr};
    Queue q;
    EXPECT_TRUE(q.empty());
    EXPECT_EQ(q.count(), 0u);
    q.push(&a);
    q.push(&b);
    q.push(&c);
    EXPECT_EQ(q.count(), 3u);
    EXPECT_EQ(q.front(), &a);
    EXPECT_EQ(q.pop(), &a);
    EXPECT_EQ(q.pop(), &b);
    EXPECT_EQ(q.pop(), &c);
    EXPECT_EQ(q.pop(), nullptr);
    EXPECT_TRUE(q.empty());
}

TEST(IntrusiveQueue, TakeFirstAndRemoveKeepTheRestInOrder) {
    Item a{1, nullptr}, b{2, nullptr}, c{3, nullptr}, d{4, nullptr};
    Queue q;
    for (Item* i : {&a, &b, &c, &d}) q.push(i);
    EXPECT_EQ(q.take_first([](Item* i) { return i->value % 2 == 0; }), &b);
    EXPECT_TRUE(q.remove(&d));   // the tail
    EXPECT_FALSE(q.remove(&d));  // not queued any more
    q.push(&b);                  // the tail moved back correctly
    EXPECT_EQ(q.pop(), &a);
    EXPECT_EQ(q.pop(), &c);
    EXPECT_EQ(q.pop(), &b);
    EXPECT_TRUE(q.empty());
}
}  // namespace
