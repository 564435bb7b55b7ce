// Eager flow control accounting (mputil/credits.hpp).
#include "mputil/credits.hpp"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

using mputil::CreditDebts;
using mputil::CreditLedger;

TEST(MputilCredits, SenderSpendsItsCreditsThenIsRefused)
{
    uint32_t slots[3];
    uint64_t stamps[3];
    CreditLedger ledger;
    ledger.init(slots, stamps, 3, 2);
    EXPECT_TRUE(ledger.take(1));
    EXPECT_TRUE(ledger.take(1));
    EXPECT_FALSE(ledger.take(1));
    EXPECT_EQ(ledger.available(1), 0u);
    EXPECT_EQ(ledger.available(0), 2u);  // other destinations keep theirs
    ledger.give(1, 2, 500);
    EXPECT_EQ(ledger.available(1), 2u);
    EXPECT_TRUE(ledger.take(1));
}

TEST(MputilCredits, SendsGoNoEarlierThanTheLatestReturn)
{
    uint32_t slots[2];
    uint64_t stamps[2];
    CreditLedger ledger;
    ledger.init(slots, stamps, 2, 1);
    EXPECT_EQ(ledger.returned_at(0), 0u);  // the initial credits need no return
    ledger.give(0, 1, 700);
    ledger.give(0, 1, 300);                // carried by a message handled later in host order
    EXPECT_EQ(ledger.returned_at(0), 700u);
    EXPECT_EQ(ledger.returned_at(1), 0u);  // per destination
    EXPECT_EQ(ledger.available(0), 3u);
}

TEST(MputilCredits, ReceiverOwesInBatches)
{
    uint32_t slots[2];
    CreditDebts debts;
    debts.init(slots, 2, 3);
    EXPECT_FALSE(debts.consumed(0));
    EXPECT_FALSE(debts.consumed(0));
    EXPECT_EQ(debts.collect(0, debts.batch()), 0u);  // not a batch yet
    EXPECT_TRUE(debts.consumed(0));                   // the third makes a batch due
    EXPECT_EQ(debts.collect(0, debts.batch()), 3u);
    EXPECT_EQ(debts.collect(0, 1), 0u);               // paid
    EXPECT_FALSE(debts.consumed(1));
    EXPECT_EQ(debts.collect(1, 1), 1u);               // everything, e.g. at the end
}

TEST(MputilCredits, CreditsAreNeitherLostNorDuplicatedUnderConcurrency)
{
    // One sender thread spends, one "agent" thread returns; the total stays constant.
    uint32_t slots[1];
    uint64_t stamps[1];
    CreditLedger ledger;
    ledger.init(slots, stamps, 1, 4);
    constexpr int kRounds = 20000;
    uint32_t returned = 0;
    std::thread agent([&] {
        for (int i = 0; i < kRounds; i++) {
            while (__atomic_load_n(&returned, __ATOMIC_ACQUIRE) == 0) std::this_thread::yield();
            __atomic_sub_fetch(&returned, 1, __ATOMIC_ACQ_REL);
            ledger.give(0, 1, static_cast<uint64_t>(i));
        }
    });
    int spent = 0;
    while (spent < kRounds) {
        if (ledger.take(0)) {
            spent++;
            __atomic_add_fetch(&returned, 1, __ATOMIC_ACQ_REL);
        } else {
            std::this_thread::yield();
        }
    }
    agent.join();
    EXPECT_EQ(ledger.available(0), 4u);
}
