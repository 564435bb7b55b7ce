// Virtual endpoint tables (ikc/endpoint_table.hpp): ids, lookups, release rules.
#include <gtest/gtest.h>

#include <memory>
#include <set>

#include "ikc/endpoint_table.hpp"

namespace {
using namespace nvx;
using nvx::ikc::Direction;
using nvx::ikc::Endpoint;
using nvx::ikc::EndpointTable;

constexpr u32 kSmall = 4;

// The kernel's tables live in zeroed static storage; value-initialise them the same way.
class EndpointTableTest : public ::testing::Test {
protected:
    EndpointTable<kSmall>& table() { return *table_; }
    std::unique_ptr<EndpointTable<kSmall>> table_ = std::make_unique<EndpointTable<kSmall>>();
};

TEST(EndpointErrors, AreNegativeErrnos) {
    EXPECT_LT(-NVX_ENOSPC, 0);
    EXPECT_LT(-NVX_EBUSY, 0);
    EXPECT_NE(NVX_ENOSPC, NVX_EBUSY);
}

TEST_F(EndpointTableTest, AllocatesIdsInOrderThenENOSPC) {
    for (u32 id = 0; id < kSmall; id++) EXPECT_EQ(table().allocate(Direction::Input, 0, id), i64{id});
    EXPECT_EQ(table().allocate(Direction::Input, 0, 9), -i64{NVX_ENOSPC});
    EXPECT_EQ(table().allocate(Direction::Output, 1, 9), -i64{NVX_ENOSPC});
}

TEST_F(EndpointTableTest, ClearFreesEveryEndpointAndInput) {
    for (u32 id = 0; id < kSmall; id++) ASSERT_GE(table().allocate(Direction::Input, 2, id), 0);
    table().clear();
    for (u32 id = 0; id < kSmall; id++) {
        EXPECT_EQ(table().lookup_any(id), nullptr);
        EXPECT_EQ(table().find_input(2, id), nullptr);
    }
    EXPECT_EQ(table().allocate(Direction::Input, 2, 0), 0);  // the table is as new
}

TEST_F(EndpointTableTest, AllocateRecordsDirectionNodeAndPort) {
    i64 in = table().allocate(Direction::Input, 3, 17);
    i64 out = table().allocate(Direction::Output, 1, 0);
    ASSERT_GE(in, 0);
    ASSERT_GE(out, 0);
    Endpoint* e = table().lookup(in, Direction::Input);
    ASSERT_NE(e, nullptr);
    EXPECT_TRUE(e->used);
    EXPECT_EQ(e->direction, Direction::Input);
    EXPECT_EQ(e->node, 3u);
    EXPECT_EQ(e->port, 17u);
    EXPECT_EQ(e->pending, 0u);
    EXPECT_TRUE(e->waiters.empty());
    EXPECT_EQ(e->stats.messages, 0u);
    Endpoint* o = table().lookup(out, Direction::Output);
    ASSERT_NE(o, nullptr);
    EXPECT_EQ(o->direction, Direction::Output);
    EXPECT_EQ(o->node, 1u);
    EXPECT_EQ(o->port, 0u);
    EXPECT_NE(e, o);
}

TEST_F(EndpointTableTest, LookupChecksTheDirection) {
    i64 in = table().allocate(Direction::Input, 0, 1);
    i64 out = table().allocate(Direction::Output, 0, 1);
    EXPECT_NE(table().lookup(in, Direction::Input), nullptr);
    EXPECT_EQ(table().lookup(in, Direction::Output), nullptr);
    EXPECT_NE(table().lookup(out, Direction::Output), nullptr);
    EXPECT_EQ(table().lookup(out, Direction::Input), nullptr);
}

TEST_F(EndpointTableTest, LookupRejectsUnusedAndOutOfRangeIds) {
    ASSERT_EQ(table().allocate(Direction::Input, 0, 0), 0);
    EXPECT_EQ(table().lookup(1, Direction::Input), nullptr);  // in range, never allocated
    EXPECT_EQ(table().lookup(1, Direction::Output), nullptr);
    EXPECT_EQ(table().lookup(kSmall, Direction::Input), nullptr);
    EXPECT_EQ(table().lookup(kSmall + 1, Direction::Input), nullptr);
    EXPECT_EQ(table().lookup(~u64{0}, Direction::Input), nullptr);  // -1 from user space
    EXPECT_EQ(table().lookup(u64{1} << 32, Direction::Input), nullptr);  // not truncated to 0
    EXPECT_EQ(table().lookup_any(1), nullptr);
    EXPECT_EQ(table().lookup_any(kSmall), nullptr);
    EXPECT_EQ(table().lookup_any(~u64{0}), nullptr);
    EXPECT_EQ(table().lookup_any(u64{1} << 32), nullptr);
}

TEST_F(EndpointTableTest, LookupAnyIgnoresTheDirection) {
    i64 in = table().allocate(Direction::Input, 0, 1);
    i64 out = table().allocate(Direction::Output, 2, 3);
    EXPECT_EQ(table().lookup_any(in), table().lookup(in, Direction::Input));
    EXPECT_EQ(table().lookup_any(out), table().lookup(out, Direction::Output));
    EXPECT_NE(table().lookup_any(in), nullptr);
    EXPECT_NE(table().lookup_any(out), nullptr);
}

TEST_F(EndpointTableTest, IdOfAndAtAgree) {
    for (u32 i = 0; i < kSmall; i++) ASSERT_EQ(table().allocate(Direction::Output, i, i), i64{i});
    for (u32 i = 0; i < kSmall; i++) {
        Endpoint* e = table().lookup_any(i);
        ASSERT_NE(e, nullptr);
        EXPECT_EQ(table().id_of(e), i);
        EXPECT_EQ(&table().at(i), e);
        EXPECT_EQ(e->node, i);
    }
}

TEST_F(EndpointTableTest, FindInputMatchesOnlyInputsOnNodeAndPort) {
    i64 out = table().allocate(Direction::Output, 1, 5);  // same (node, port), but output
    i64 a = table().allocate(Direction::Input, 1, 5);
    i64 b = table().allocate(Direction::Input, 1, 6);
    i64 c = table().allocate(Direction::Input, 2, 5);
    ASSERT_EQ(out, 0);
    Endpoint* found = table().find_input(1, 5);
    ASSERT_NE(found, nullptr);
    EXPECT_EQ(table().id_of(found), u32(a));
    EXPECT_EQ(table().id_of(table().find_input(1, 6)), u32(b));
    EXPECT_EQ(table().id_of(table().find_input(2, 5)), u32(c));
    EXPECT_EQ(table().find_input(2, 6), nullptr);
    EXPECT_EQ(table().find_input(5, 1), nullptr);  // node and port not swapped
    EXPECT_EQ(table().find_input(0, 0), nullptr);
}

TEST_F(EndpointTableTest, FindInputIgnoresAnOutputAlone) {
    ASSERT_EQ(table().allocate(Direction::Output, 1, 5), 0);
    EXPECT_EQ(table().find_input(1, 5), nullptr);
}

TEST_F(EndpointTableTest, FindInputForgetsReleasedEndpoints) {
    i64 a = table().allocate(Direction::Input, 1, 5);
    ASSERT_EQ(table().release(table().lookup(a, Direction::Input)), 0);
    EXPECT_EQ(table().find_input(1, 5), nullptr);
}

TEST_F(EndpointTableTest, ReleaseFreesAndTheIdIsReused) {
    for (u32 i = 0; i < kSmall; i++) ASSERT_EQ(table().allocate(Direction::Input, 0, i), i64{i});
    Endpoint* e = table().lookup(2, Direction::Input);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(table().release(e), 0);
    EXPECT_EQ(table().lookup(2, Direction::Input), nullptr);
    EXPECT_EQ(table().lookup_any(2), nullptr);
    EXPECT_NE(table().lookup_any(1), nullptr);  // neighbours untouched
    EXPECT_NE(table().lookup_any(3), nullptr);
    EXPECT_EQ(table().allocate(Direction::Output, 4, 8), 2);
    EXPECT_EQ(table().allocate(Direction::Output, 4, 9), -i64{NVX_ENOSPC});
    Endpoint* again = table().lookup(2, Direction::Output);
    ASSERT_NE(again, nullptr);
    EXPECT_EQ(again->node, 4u);
    EXPECT_EQ(again->port, 8u);
}

TEST_F(EndpointTableTest, LowestFreeIdIsReusedFirst) {
    for (u32 i = 0; i < kSmall; i++) ASSERT_EQ(table().allocate(Direction::Input, 0, i), i64{i});
    ASSERT_EQ(table().release(&table().at(3)), 0);
    ASSERT_EQ(table().release(&table().at(1)), 0);
    EXPECT_EQ(table().allocate(Direction::Input, 0, 9), 1);
    EXPECT_EQ(table().allocate(Direction::Input, 0, 9), 3);
}

TEST_F(EndpointTableTest, ReleaseRefusedWhilePending) {
    i64 id = table().allocate(Direction::Input, 0, 0);
    Endpoint* e = table().lookup(id, Direction::Input);
    ASSERT_NE(e, nullptr);
    e->pending = 1;
    EXPECT_EQ(table().release(e), -i64{NVX_EBUSY});
    EXPECT_EQ(table().lookup(id, Direction::Input), e);  // still there
    EXPECT_EQ(table().find_input(0, 0), e);
    EXPECT_EQ(table().allocate(Direction::Input, 0, 1), 1);  // its id stays taken
    e->pending = 0;
    EXPECT_EQ(table().release(e), 0);
    EXPECT_EQ(table().lookup_any(id), nullptr);
}

TEST_F(EndpointTableTest, ReleaseRefusedWhileOperationsWait) {
    i64 id = table().allocate(Direction::Input, 0, 0);
    Endpoint* e = table().lookup(id, Direction::Input);
    ASSERT_NE(e, nullptr);
    ikc::IkcOp t{};
    e->waiters.push(&t);
    EXPECT_EQ(table().release(e), -i64{NVX_EBUSY});
    EXPECT_EQ(table().lookup(id, Direction::Input), e);
    EXPECT_EQ(e->waiters.front(), &t);  // the waiter is left alone
    EXPECT_EQ(e->waiters.pop(), &t);
    EXPECT_EQ(table().release(e), 0);
    EXPECT_EQ(table().lookup_any(id), nullptr);
}

TEST_F(EndpointTableTest, ReleaseRefusedWhilePendingAndWaiting) {
    i64 id = table().allocate(Direction::Output, 0, 0);
    Endpoint* e = table().lookup(id, Direction::Output);
    ASSERT_NE(e, nullptr);
    ikc::IkcOp t{};
    e->pending = 2;
    e->waiters.push(&t);
    EXPECT_EQ(table().release(e), -i64{NVX_EBUSY});
    e->pending = 0;
    EXPECT_EQ(table().release(e), -i64{NVX_EBUSY});  // the waiter still blocks it
    e->waiters.pop();
    e->pending = 1;
    EXPECT_EQ(table().release(e), -i64{NVX_EBUSY});  // and so does pending alone
    e->pending = 0;
    EXPECT_EQ(table().release(e), 0);
}

TEST_F(EndpointTableTest, ReusedSlotStartsFresh) {
    i64 id = table().allocate(Direction::Input, 1, 2);
    Endpoint* e = table().lookup(id, Direction::Input);
    ASSERT_NE(e, nullptr);
    e->remote_node = 7;
    e->remote_port = 8;
    e->allowed = true;
    e->sync_nodes = 0xff;
    e->stats.messages = 5;
    e->stats.bytes = 500;
    ASSERT_EQ(table().release(e), 0);
    ASSERT_EQ(table().allocate(Direction::Output, 3, 4), id);
    Endpoint* f = table().lookup(id, Direction::Output);
    ASSERT_EQ(f, e);
    EXPECT_EQ(f->node, 3u);
    EXPECT_EQ(f->port, 4u);
    EXPECT_EQ(f->remote_node, 0u);
    EXPECT_EQ(f->remote_port, 0u);
    EXPECT_FALSE(f->allowed);
    EXPECT_EQ(f->pending, 0u);
    EXPECT_EQ(f->sync_nodes, 0u);
    EXPECT_EQ(f->stats.messages, 0u);
    EXPECT_EQ(f->stats.bytes, 0u);
    EXPECT_TRUE(f->waiters.empty());
}

TEST(EndpointTableFull, KernelSizedTable) {
    auto table = std::make_unique<EndpointTable<ikc::kVirtualMailboxes>>();
    std::set<i64> ids;
    for (u32 i = 0; i < ikc::kVirtualMailboxes; i++) {
        i64 id = table->allocate(i % 2 ? Direction::Output : Direction::Input, i % 6, i % ikc::kPorts);
        ASSERT_EQ(id, i64{i});
        ids.insert(id);
    }
    EXPECT_EQ(ids.size(), ikc::kVirtualMailboxes);
    EXPECT_EQ(table->allocate(Direction::Input, 0, 0), -i64{NVX_ENOSPC});
    EXPECT_EQ(table->lookup_any(ikc::kVirtualMailboxes), nullptr);
    EXPECT_NE(table->lookup_any(ikc::kVirtualMailboxes - 1), nullptr);
    // Input i (even) listens on (i % 6, i % 32); find_input returns the first such one.
    Endpoint* e = table->find_input(4, 4);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(table->id_of(e), 4u);
    EXPECT_EQ(table->find_input(1, 1), nullptr);  // only outputs there (odd ids)
}
}  // namespace
