// The rules of rank threads (runtime/rank_rules.c, nvx/ranks.h): a rank's stack and the
// memory the ranks of a cluster need before they start.
#include <gtest/gtest.h>

#include <nvx/ranks.h>
#include <nvx/thread.h>

namespace {
constexpr uint64_t kKiB = 1024, kMiB = 1024 * kKiB;

size_t stack_for(uint64_t user_memory, unsigned count, const char* setting = nullptr)
{
    size_t stack = 0;
    EXPECT_EQ(nvx_rank_stack_rule(user_memory, count, setting, &stack), 0);
    return stack;
}
}  // namespace

// README's figures: 64 KiB for one rank on mppa256 (1600 KiB of user memory), 16 KiB for 12.
TEST(RankStack, AnEighthOfUserMemoryPerRankWithinTheBounds)
{
    EXPECT_EQ(stack_for(1600 * kKiB, 1), NVX_RANK_STACK_MAX);
    EXPECT_EQ(stack_for(1600 * kKiB, 12), NVX_RANK_STACK_MIN);
    EXPECT_EQ(stack_for(1600 * kKiB, 5), 40 * kKiB);  // 1600 / 40 = 40 KiB
    EXPECT_EQ(stack_for(1600 * kKiB, 6), 32 * kKiB);  // 33.3 KiB rounded down to pages
    EXPECT_EQ(stack_for(32 * kMiB, 16), NVX_RANK_STACK_MAX);
}

TEST(RankStack, RoundedDownToPages)
{
    EXPECT_EQ(stack_for(3 * kMiB + 123, 9) % NVX_PAGE_SIZE, 0u);
}

TEST(RankStack, TheSettingWinsInBytes)
{
    EXPECT_EQ(stack_for(1600 * kKiB, 12, "262144"), 262144u);
    EXPECT_EQ(stack_for(1600 * kKiB, 1, "4096"), 4096u);
    EXPECT_EQ(stack_for(1600 * kKiB, 4, ""), 50 * kKiB & ~uint64_t(4095));  // empty: the rule
}

TEST(RankStack, ABadSettingIsRefused)
{
    size_t stack = 7;
    for (const char* bad : {"4095", "64K", "-1", " 8192", "+8192", "8192 ", "x", "99999999999999999999999"})
        EXPECT_EQ(nvx_rank_stack_rule(1600 * kKiB, 4, bad, &stack), -1) << bad;
    EXPECT_EQ(stack, 7u);
    EXPECT_EQ(NVX_THREAD_STACK_MIN, 4096u);  // the launcher's --rank-stack minimum (4K)
}

TEST(RankMemory, PrivateGlobalsArePagesPlusTheirTables)
{
    EXPECT_EQ(nvx_rank_private_bytes(0), 0u);  // no private region: nothing per rank
    // A root table, the private slot's table and one leaf table per 2 MiB of the region.
    EXPECT_EQ(nvx_rank_private_bytes(1), 4096u + 12 * kKiB);
    EXPECT_EQ(nvx_rank_private_bytes(4096), 4096u + 12 * kKiB);
    EXPECT_EQ(nvx_rank_private_bytes(4097), 8192u + 12 * kKiB);
    EXPECT_EQ(nvx_rank_private_bytes(2 << 20), (2u << 20) + 12 * kKiB);
    EXPECT_EQ(nvx_rank_private_bytes((2 << 20) + 1), (2u << 20) + 4096u + 16 * kKiB);
}

TEST(RankMemory, StacksAndPrivateGlobalsOfEveryRank)
{
    EXPECT_EQ(nvx_ranks_memory(4, 512 * kKiB, 0), 2048 * kKiB);
    EXPECT_EQ(nvx_ranks_memory(12, 16 * kKiB, 10000), 12 * (16 * kKiB + 12 * kKiB + 12 * kKiB));
}

TEST(RankLimits, OneUserPortPerRank)
{
    EXPECT_EQ(NVX_RANKS_PER_CLUSTER_MAX, 28);
}
