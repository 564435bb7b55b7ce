// SBI hart masks against a cluster (hal/firmware/hart_mask.hpp), as the firmware's IPI
// call checks them: only harts of the caller's cluster may be named.
#include "hal/firmware/hart_mask.hpp"

#include <gtest/gtest.h>

#include <vector>

using nvx::u64;
using nvx::board::Cluster;
using nvx::firmware::cluster_bits;
using nvx::firmware::for_each_hart;

namespace {
Cluster cluster(nvx::u32 first, nvx::u32 harts) {
    Cluster c{};
    c.first_hart = first;
    c.harts = harts;
    return c;
}

// The same question answered one hart at a time.
u64 slow_bits(const Cluster& c, u64 base) {
    u64 bits = 0;
    for (u64 b = 0; b < 64; b++)
        if (base + b >= base && c.owns_hart(base + b)) bits |= 1ull << b;
    return bits;
}
}  // namespace

TEST(HartMask, ClusterAtTheBase) {
    EXPECT_EQ(cluster_bits(cluster(4, 5), 4), 0x1fu);
}

TEST(HartMask, ClusterAboveTheBase) {
    EXPECT_EQ(cluster_bits(cluster(4, 5), 0), 0x1f0u);
}

TEST(HartMask, BaseInsideTheCluster) {
    EXPECT_EQ(cluster_bits(cluster(4, 5), 6), 0x7u);
}

TEST(HartMask, ClusterOutOfReach) {
    EXPECT_EQ(cluster_bits(cluster(4, 5), 9), 0u);
    EXPECT_EQ(cluster_bits(cluster(100, 17), 0), 0u);
    EXPECT_EQ(cluster_bits(cluster(100, 17), ~0ull - 3), 0u);
}

TEST(HartMask, ClusterCutByTheTopOfTheMask) {
    EXPECT_EQ(cluster_bits(cluster(60, 17), 0), 0xfull << 60);
    EXPECT_EQ(cluster_bits(cluster(0, 64), 0), ~0ull);
}

TEST(HartMask, AgreesWithAHartByHartCheckOnEveryBoard) {
    for (const nvx::board::Board* b : nvx::board::kAllBoards)
        for (nvx::u32 i = 0; i < b->cluster_count; i++)
            for (u64 base = 0; base < b->hart_count + 2; base++)
                ASSERT_EQ(cluster_bits(b->cluster(i), base), slow_bits(b->cluster(i), base))
                    << b->name << " cluster " << i << " base " << base;
}

TEST(HartMask, VisitsEveryNamedHartOnce) {
    std::vector<u64> seen;
    for_each_hart(0x8000000000000015ull, 10, [&](u64 h) { seen.push_back(h); });
    EXPECT_EQ(seen, (std::vector<u64>{10, 12, 14, 73}));
    seen.clear();
    for_each_hart(0, 10, [&](u64 h) { seen.push_back(h); });
    EXPECT_TRUE(seen.empty());
}
