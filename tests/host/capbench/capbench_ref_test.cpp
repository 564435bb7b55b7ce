// The CAP Bench host reference (benchmarks/capbench/ref) and the shared definitions it
// uses (cap_data.h), against known facts and independent brute force.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "benchmarks/capbench/cap_data.h"
#include "benchmarks/capbench/ref/capbench_ref.hpp"

namespace {

uint64_t sigma_brute(uint64_t n)
{
    uint64_t s = 0;
    for (uint64_t d = 1; d <= n; d++)
        if (n % d == 0)
            s += d;
    return s;
}

uint64_t fnv(const std::string &s) { return cap_fnv1a(CAP_FNV_BASIS, s.data(), s.size()); }

}  // namespace

TEST(CapData, Splitmix64KnownValues)
{
    EXPECT_EQ(cap_splitmix64(0), 0xe220a8397b1dcdafull);
    // Vigna's splitmix64 seeded with 1234567: its first two outputs.
    EXPECT_EQ(cap_splitmix64(1234567), 6457827717110365317ull);
    EXPECT_EQ(cap_splitmix64(1234567 + 0x9e3779b97f4a7c15ull), 3203168211198807973ull);
}

TEST(CapData, Fnv1aKnownStrings)
{
    EXPECT_EQ(fnv(""), 0xcbf29ce484222325ull);
    EXPECT_EQ(fnv("a"), 0xaf63dc4c8601ec8cull);
    EXPECT_EQ(fnv("foobar"), 0x85944171f73967e8ull);
    // Feeding in pieces is the same as feeding at once.
    EXPECT_EQ(cap_fnv1a(cap_fnv1a(CAP_FNV_BASIS, "foo", 3), "bar", 3), fnv("foobar"));
}

TEST(CapRefFn, SigmaKnownValues)
{
    EXPECT_EQ(capref::sigma(1), 1u);
    EXPECT_EQ(capref::sigma(6), 12u);    // perfect
    EXPECT_EQ(capref::sigma(28), 56u);   // perfect
    EXPECT_EQ(capref::sigma(220), 504u); // amicable with 284: both 220 + 284
    EXPECT_EQ(capref::sigma(284), 504u);
    EXPECT_EQ(capref::sigma(1000003), 1000004u);  // prime
    EXPECT_EQ(capref::sigma(1u << 20), (1u << 21) - 1);
}

TEST(CapRefFn, SigmaMatchesTrialDivision)
{
    for (uint64_t n = 1; n <= 3000; n++)
        ASSERT_EQ(capref::sigma(n), sigma_brute(n)) << n;
    for (uint64_t n = CAP_FN_FIRST; n < CAP_FN_FIRST + 64; n++)
        ASSERT_EQ(capref::sigma(n), sigma_brute(n)) << n;
}

TEST(CapRefFn, FriendlyPairsMatchBruteForce)
{
    // sigma(6)/6 = sigma(28)/28 = 2, sigma(30)/30 = sigma(140)/140 = 12/5, sigma(80)/80 =
    // sigma(200)/200 = 93/40: each such pair counts once.
    for (uint64_t first : {1ull, 6ull, 29ull}) {
        const uint64_t count = 400;
        uint64_t pairs = 0, sum = 0;
        for (uint64_t i = first; i < first + count; i++) {
            sum += sigma_brute(i);
            for (uint64_t j = i + 1; j < first + count; j++)
                pairs += sigma_brute(i) * j == sigma_brute(j) * i;
        }
        const auto r = capref::fn(first, count);
        EXPECT_EQ(r.friendly_pairs, pairs) << first;
        EXPECT_EQ(r.sigma_sum, sum) << first;
        EXPECT_GT(r.friendly_pairs, 0u);
    }
    EXPECT_EQ(capref::fn(6, 23).friendly_pairs, 1u);  // 6..28: the two perfect numbers
    EXPECT_EQ(capref::fn_line(capref::fn(6, 23)), "fn: numbers 6..28, sigma sum " +
              std::to_string(capref::fn(6, 23).sigma_sum) + ", friendly pairs 1");
}

TEST(CapRefGf, MaskIsTheTableOfTheIssue)
{
    const auto mask = capref::gf_mask();
    uint64_t sum = 0;
    for (int y = -3; y <= 3; y++)
        for (int x = -3; x <= 3; x++) {
            EXPECT_EQ(mask[y + 3][x + 3], cap_gf_weight(x, y)) << x << "," << y;
            EXPECT_EQ(mask[y + 3][x + 3], mask[x + 3][y + 3]);
            sum += mask[y + 3][x + 3];
        }
    EXPECT_EQ(mask[3][3], 16297u);
    EXPECT_EQ(mask[0][0], 0u);
    // Rounding each weight leaves the total one above 65536: a white image stays white
    // only through the min(255, ...) of the definition.
    EXPECT_EQ(sum, 65537u);
}

TEST(CapRefGf, OutputPixelByDefinition)
{
    const auto mask = capref::gf_mask();
    const auto out = capref::gf_output(5, mask);
    for (unsigned i : {0u, 17u, 255u})
        for (unsigned j : {0u, 100u, 255u}) {
            uint64_t sum = 0;
            for (int y = -3; y <= 3; y++)
                for (int x = -3; x <= 3; x++)
                    sum += cap_gf_weight(x, y) * uint64_t{cap_gf_pixel(5, i + 3 + y, j + 3 + x)};
            EXPECT_EQ(out[i * 256 + j], std::min<uint64_t>(255, sum >> 16)) << i << "," << j;
        }
}

TEST(CapData, Fnv1aLe64FeedsLittleEndianBytes)
{
    const uint8_t bytes[] = {0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01};
    EXPECT_EQ(cap_fnv1a_le64(CAP_FNV_BASIS, 0x0102030405060708ull),
              cap_fnv1a(CAP_FNV_BASIS, bytes, sizeof bytes));
    EXPECT_EQ(cap_fnv1a_le64(fnv("a"), 0), cap_fnv1a(fnv("a"), std::string(8, '\0').data(), 8));
}

TEST(CapRefGf, ResultChainsTheImageHashes)
{
    // The result of N images is FNV-1a over their image hashes, each 8 little-endian
    // bytes; an image's hash is FNV-1a over its output bytes.
    const auto mask = capref::gf_mask();
    const auto h = capref::gf_hashes(3);
    ASSERT_EQ(h.size(), 3u);
    std::string words;
    for (uint64_t k = 0; k < 3; k++) {
        const auto out = capref::gf_output(k, mask);
        const uint64_t image = cap_fnv1a(CAP_FNV_BASIS, out.data(), out.size());
        for (int b = 0; b < 8; b++)
            words.push_back(static_cast<char>(image >> (8 * b)));
        EXPECT_EQ(h[k], fnv(words)) << k;
    }
    EXPECT_NE(h[1], h[2]);
}

TEST(CapRefKm, TinyExampleByHand)
{
    // Points (0,0) (2,0) (10,10) (12,10), centroids start at the first two points.
    // Round 1: (0,0) -> c0; the others -> c1 (d 4 < 200, 164 < 200, ...): c1 = floor of
    // (24/3, 20/3) = (8, 6). Round 2: (2,0) is now nearer c0: c0 = (1, 0), c1 = (11, 10).
    const std::vector<uint32_t> xs{0, 2, 10, 12}, ys{0, 0, 10, 10};
    EXPECT_EQ(capref::km_run(xs, ys, {0, 0, 2, 0}, 1), (std::vector<uint32_t>{0, 0, 8, 6}));
    EXPECT_EQ(capref::km_run(xs, ys, {0, 0, 2, 0}, 2), (std::vector<uint32_t>{1, 0, 11, 10}));
    EXPECT_EQ(capref::km_run(xs, ys, {0, 0, 2, 0}, 5), (std::vector<uint32_t>{1, 0, 11, 10}));
    EXPECT_EQ(capref::km_run(xs, ys, {0, 0, 2, 0}, 0), (std::vector<uint32_t>{0, 0, 2, 0}));
}

TEST(CapRefKm, TiesGoToTheLowestIndexAndEmptyCentroidsStay)
{
    // (5,0) is 5 from both (0,0) and (10,0): it goes to centroid 0. Centroid 2 equals
    // centroid 0, so it never wins a point and stays where it is.
    const std::vector<uint32_t> xs{5, 0, 10}, ys{0, 0, 0};
    EXPECT_EQ(capref::km_run(xs, ys, {0, 0, 10, 0, 0, 0}, 1), (std::vector<uint32_t>{2, 0, 10, 0, 0, 0}));
}

TEST(CapRefKm, HashIsOverLittleEndianPairs)
{
    const uint8_t bytes[] = {1, 0, 0, 0, 0x34, 0x12, 0, 0};
    EXPECT_EQ(capref::km_hash({1, 0x1234}), cap_fnv1a(CAP_FNV_BASIS, bytes, sizeof bytes));
    // The benchmark starts from points 0..k-1.
    const auto c = capref::km_centroids(200, 4, 0);
    EXPECT_EQ(c[0], cap_km_x(0));
    EXPECT_EQ(c[7], cap_km_y(3));
}
