// How many freed objects a rank keeps for reuse (mputil/config.hpp, spare_objects).
#include "mputil/config.hpp"

#include <gtest/gtest.h>

using mputil::config::kMinSpare;
using mputil::config::kSpareShare;
using mputil::config::spare_objects;

TEST(MputilSpares, AShareOfTheRanksPartOfTheCluster)
{
    // 16 ranks on a 2 MiB cluster's 1,536 KiB: 1.5 KiB each (operations 176 B, requests 136 B).
    EXPECT_EQ(spare_objects(1536 * 1024, 16, 176), 8u);
    EXPECT_EQ(spare_objects(1536 * 1024, 16, 136), 11u);
    // Kept bytes stay within the share.
    for (uint32_t ranks = 1; ranks <= 16; ranks++) {
        size_t memory = 32u << 20;
        uint32_t n = spare_objects(memory, ranks, 176);
        EXPECT_LE(n * 176, memory / ranks / kSpareShare) << ranks;
        EXPECT_GT((n + 1) * 176, memory / ranks / kSpareShare) << ranks;
    }
}

TEST(MputilSpares, NeverFewerThanTheMinimum)
{
    EXPECT_EQ(spare_objects(0, 16, 176), kMinSpare);
    EXPECT_EQ(spare_objects(64 * 1024, 16, 4096), kMinSpare);
    EXPECT_EQ(spare_objects(1 << 20, 0, 176), spare_objects(1 << 20, 1, 176));  // no rank here: as one
}
