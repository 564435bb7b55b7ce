// Thread queues and the thread table (kernel/sched/thread.cpp).
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <vector>

#include "kernel/sched/thread.hpp"

namespace {
using namespace nvx;
using nvx::kernel::kMaxThreads;
using nvx::kernel::Thread;
using nvx::kernel::ThreadQueue;
using nvx::kernel::ThreadState;
using nvx::kernel::ThreadTable;

// ---------------------------------------------------------------- ThreadQueue

class ThreadQueueTest : public ::testing::Test {
protected:
    ThreadQueueTest() : threads_(std::make_unique<Thread[]>(kCount)) {
        for (u32 i = 0; i < kCount; i++) threads_[i].id = i;
    }
    Thread* t(u32 i) { return &threads_[i]; }
    // Pops everything, returning the ids in order.
    std::vector<u64> drain() {
        std::vector<u64> ids;
        while (Thread* x = q.pop()) ids.push_back(x->id);
        return ids;
    }
    static constexpr u32 kCount = 8;
    std::unique_ptr<Thread[]> threads_;
    ThreadQueue q;
};

TEST_F(ThreadQueueTest, StartsEmpty) {
    EXPECT_TRUE(q.empty());
    EXPECT_EQ(q.front(), nullptr);
    EXPECT_EQ(q.pop(), nullptr);
    EXPECT_EQ(q.take_first([](Thread*) { return true; }), nullptr);
}

TEST_F(ThreadQueueTest, FifoOrder) {
    for (u32 i = 0; i < 5; i++) q.push(t(i));
    EXPECT_FALSE(q.empty());
    EXPECT_EQ(q.front(), t(0));
    EXPECT_EQ(drain(), (std::vector<u64>{0, 1, 2, 3, 4}));
    EXPECT_TRUE(q.empty());
    EXPECT_EQ(q.front(), nullptr);
}

TEST_F(ThreadQueueTest, FrontDoesNotRemove) {
    q.push(t(3));
    q.push(t(4));
    EXPECT_EQ(q.front(), t(3));
    EXPECT_EQ(q.front(), t(3));
    EXPECT_EQ(q.pop(), t(3));
    EXPECT_EQ(q.front(), t(4));
}

TEST_F(ThreadQueueTest, PopClearsTheLink) {
    q.push(t(0));
    q.push(t(1));
    Thread* x = q.pop();
    EXPECT_EQ(x, t(0));
    EXPECT_EQ(x->next, nullptr);
}

TEST_F(ThreadQueueTest, PushAfterDrainingWorks) {
    q.push(t(0));
    EXPECT_EQ(q.pop(), t(0));
    EXPECT_TRUE(q.empty());
    q.push(t(1));
    q.push(t(2));
    EXPECT_EQ(drain(), (std::vector<u64>{1, 2}));
}

TEST_F(ThreadQueueTest, PushOverwritesAStaleLink) {
    t(0)->next = t(5);  // left over from another queue
    q.push(t(0));
    q.push(t(1));
    EXPECT_EQ(drain(), (std::vector<u64>{0, 1}));
}

TEST_F(ThreadQueueTest, InterleavedPushAndPop) {
    q.push(t(0));
    q.push(t(1));
    EXPECT_EQ(q.pop(), t(0));
    q.push(t(2));
    EXPECT_EQ(q.pop(), t(1));
    q.push(t(3));
    q.push(t(0));  // a popped thread re-queued
    EXPECT_EQ(drain(), (std::vector<u64>{2, 3, 0}));
}

TEST_F(ThreadQueueTest, TakeFirstFromTheHead) {
    for (u32 i = 0; i < 4; i++) q.push(t(i));
    Thread* x = q.take_first([](Thread* th) { return th->id == 0; });
    EXPECT_EQ(x, t(0));
    EXPECT_EQ(x->next, nullptr);
    EXPECT_EQ(q.front(), t(1));
    q.push(t(7));
    EXPECT_EQ(drain(), (std::vector<u64>{1, 2, 3, 7}));
}

TEST_F(ThreadQueueTest, TakeFirstFromTheMiddle) {
    for (u32 i = 0; i < 5; i++) q.push(t(i));
    Thread* x = q.take_first([](Thread* th) { return th->id == 2; });
    EXPECT_EQ(x, t(2));
    EXPECT_EQ(x->next, nullptr);
    q.push(t(7));
    EXPECT_EQ(drain(), (std::vector<u64>{0, 1, 3, 4, 7}));
}

TEST_F(ThreadQueueTest, TakeFirstFromTheTailUpdatesTheTail) {
    for (u32 i = 0; i < 4; i++) q.push(t(i));
    EXPECT_EQ(q.take_first([](Thread* th) { return th->id == 3; }), t(3));
    // A later push must link after the new tail (2), not after the removed thread.
    q.push(t(6));
    q.push(t(7));
    EXPECT_EQ(drain(), (std::vector<u64>{0, 1, 2, 6, 7}));
}

TEST_F(ThreadQueueTest, TakeFirstOfTheOnlyThreadEmptiesTheQueue) {
    q.push(t(4));
    EXPECT_EQ(q.take_first([](Thread*) { return true; }), t(4));
    EXPECT_TRUE(q.empty());
    EXPECT_EQ(q.front(), nullptr);
    EXPECT_EQ(q.pop(), nullptr);
    q.push(t(5));  // tail was reset as well
    EXPECT_EQ(q.front(), t(5));
    EXPECT_EQ(drain(), (std::vector<u64>{5}));
}

TEST_F(ThreadQueueTest, TakeFirstTakesOnlyTheFirstMatch) {
    for (u32 i = 0; i < 6; i++) q.push(t(i));
    auto odd = [](Thread* th) { return th->id % 2 == 1; };
    EXPECT_EQ(q.take_first(odd), t(1));
    EXPECT_EQ(q.take_first(odd), t(3));
    EXPECT_EQ(q.take_first(odd), t(5));  // the tail
    EXPECT_EQ(q.take_first(odd), nullptr);
    q.push(t(7));
    EXPECT_EQ(drain(), (std::vector<u64>{0, 2, 4, 7}));
}

TEST_F(ThreadQueueTest, TakeFirstWithoutAMatchLeavesTheQueueAlone) {
    for (u32 i = 0; i < 3; i++) q.push(t(i));
    u32 asked = 0;
    EXPECT_EQ(q.take_first([&asked](Thread*) {
        asked++;
        return false;
    }),
              nullptr);
    EXPECT_EQ(asked, 3u);  // every thread considered once
    EXPECT_EQ(drain(), (std::vector<u64>{0, 1, 2}));
}

TEST_F(ThreadQueueTest, TakeFirstVisitsInQueueOrder) {
    for (u32 i : {4u, 1u, 6u, 2u}) q.push(t(i));
    std::vector<u64> seen;
    q.take_first([&seen](Thread* th) {
        seen.push_back(th->id);
        return th->id == 6;
    });
    EXPECT_EQ(seen, (std::vector<u64>{4, 1, 6}));
    EXPECT_EQ(drain(), (std::vector<u64>{4, 1, 2}));
}

TEST_F(ThreadQueueTest, TakeEverythingFromTheBackThenReuse) {
    for (u32 i = 0; i < 4; i++) q.push(t(i));
    for (int i = 3; i >= 0; i--) {
        u64 want = static_cast<u64>(i);
        ASSERT_EQ(q.take_first([want](Thread* th) { return th->id == want; }), t(i));
    }
    EXPECT_TRUE(q.empty());
    q.push(t(2));
    q.push(t(1));
    EXPECT_EQ(drain(), (std::vector<u64>{2, 1}));
}

// ---------------------------------------------------------------- ThreadTable

// The kernel's table is zeroed static storage; value-initialisation gives the same here.
class ThreadTableTest : public ::testing::Test {
protected:
    ThreadTable& table() { return *table_; }
    std::unique_ptr<ThreadTable> table_ = std::make_unique<ThreadTable>();
};

TEST_F(ThreadTableTest, StartsEmpty) {
    EXPECT_EQ(table().live(), 0u);
    for (u64 id = 0; id < 64; id++) EXPECT_EQ(table().find(id), nullptr) << id;
}

TEST_F(ThreadTableTest, AllocateGivesAReadyThread) {
    Thread* t = table().allocate();
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->state, ThreadState::Ready);
    EXPECT_EQ(t->affinity, -1);
    EXPECT_EQ(t->next, nullptr);
    EXPECT_EQ(t->cpu, nullptr);
    EXPECT_FALSE(t->has_joiner);
    EXPECT_EQ(table().live(), 1u);
    EXPECT_EQ(table().find(t->id), t);
}

TEST_F(ThreadTableTest, AllocatesUpToMaxThreadsThenNull) {
    ASSERT_EQ(kMaxThreads, 64u);
    std::set<u64> ids;
    std::set<Thread*> threads;
    for (u32 i = 0; i < kMaxThreads; i++) {
        Thread* t = table().allocate();
        ASSERT_NE(t, nullptr) << i;
        EXPECT_EQ(t, table().slot(i));
        EXPECT_EQ(t->id & 63, i);  // the slot index lives in the low 6 bits
        EXPECT_TRUE(ids.insert(t->id).second);
        EXPECT_TRUE(threads.insert(t).second);
        EXPECT_EQ(table().live(), i + 1);
    }
    EXPECT_EQ(table().allocate(), nullptr);
    EXPECT_EQ(table().allocate(), nullptr);
    EXPECT_EQ(table().live(), kMaxThreads);
    for (u64 id : ids) EXPECT_NE(table().find(id), nullptr) << id;
}

TEST_F(ThreadTableTest, ReleaseDecrementsLiveAndHidesTheThread) {
    Thread* a = table().allocate();
    Thread* b = table().allocate();
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    u64 a_id = a->id;
    table().release(a);
    EXPECT_EQ(table().live(), 1u);
    EXPECT_EQ(a->state, ThreadState::Free);
    EXPECT_EQ(table().find(a_id), nullptr);
    EXPECT_EQ(table().find(b->id), b);
}

TEST_F(ThreadTableTest, ReallocatedSlotGetsANewId) {
    Thread* t = table().allocate();
    ASSERT_NE(t, nullptr);
    const u64 old_id = t->id;
    table().release(t);
    Thread* again = table().allocate();
    ASSERT_EQ(again, t);  // the same (lowest free) slot
    EXPECT_NE(again->id, old_id);
    EXPECT_EQ(again->id & 63, old_id & 63);
    EXPECT_EQ(table().find(old_id), nullptr);  // the stale id is rejected
    EXPECT_EQ(table().find(again->id), again);
    EXPECT_EQ(table().live(), 1u);
}

TEST_F(ThreadTableTest, IdsNeverRepeatOverManyGenerations) {
    std::set<u64> seen;
    for (int round = 0; round < 500; round++) {
        Thread* t = table().allocate();
        ASSERT_NE(t, nullptr);
        ASSERT_TRUE(seen.insert(t->id).second) << "id reused in round " << round;
        table().release(t);
    }
    EXPECT_EQ(table().live(), 0u);
}

TEST_F(ThreadTableTest, ReallocationWipesTheOldThread) {
    Thread* t = table().allocate();
    ASSERT_NE(t, nullptr);
    t->affinity = 3;
    t->futex_address = nvx::kernel::UserAddr(0x1234);
    t->has_joiner = true;
    t->frame.x[10] = 99;
    table().release(t);
    Thread* again = table().allocate();
    ASSERT_EQ(again, t);
    EXPECT_EQ(again->affinity, -1);
    EXPECT_TRUE(again->futex_address.is_null());
    EXPECT_FALSE(again->has_joiner);
    EXPECT_EQ(again->frame.x[10], 0u);
}

TEST_F(ThreadTableTest, FullTableReusesOnlyTheFreedSlot) {
    std::vector<Thread*> all;
    for (u32 i = 0; i < kMaxThreads; i++) all.push_back(table().allocate());
    u64 old_id = all[17]->id;
    table().release(all[17]);
    EXPECT_EQ(table().live(), kMaxThreads - 1);
    Thread* t = table().allocate();
    EXPECT_EQ(t, all[17]);
    EXPECT_NE(t->id, old_id);
    EXPECT_EQ(table().allocate(), nullptr);
    EXPECT_EQ(table().live(), kMaxThreads);
}

TEST_F(ThreadTableTest, FindRejectsForgedIds) {
    Thread* t = table().allocate();
    ASSERT_NE(t, nullptr);
    const u64 id = t->id;
    EXPECT_EQ(table().find(id), t);
    EXPECT_EQ(table().find(id + 64), nullptr);        // right slot, next generation
    EXPECT_EQ(table().find(id - 64), nullptr);        // right slot, previous generation
    EXPECT_EQ(table().find(id & 63), nullptr);        // generation 0: never handed out
    EXPECT_EQ(table().find(id ^ (u64{1} << 40)), nullptr);  // high bits differ
    EXPECT_EQ(table().find((id & ~u64{63}) | 1), nullptr);  // unused slot
    EXPECT_EQ(table().find(~u64{0}), nullptr);
}

TEST_F(ThreadTableTest, LiveCountsMixedTraffic) {
    std::vector<Thread*> held;
    for (int i = 0; i < 20; i++) held.push_back(table().allocate());
    for (int i = 0; i < 20; i += 4) table().release(held[i]);
    EXPECT_EQ(table().live(), 15u);
    for (int i = 0; i < 5; i++) ASSERT_NE(table().allocate(), nullptr);
    EXPECT_EQ(table().live(), 20u);
    u32 found = 0;
    for (u32 i = 0; i < kMaxThreads; i++)
        if (table().find(table().slot(i)->id) != nullptr) found++;
    EXPECT_EQ(found, 20u);
}
}  // namespace
