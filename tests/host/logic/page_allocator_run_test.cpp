// PageAllocator::allocate_run (kernel/mm/page_allocator.cpp): physically contiguous runs.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "kernel/mm/page_allocator.hpp"

namespace {
using namespace nvx;
using nvx::kernel::PageAllocator;

constexpr u64 kPage = PageAllocator::kPageSize;
constexpr u64 kBase = 0x80a00000;

class PageRunTest : public ::testing::Test {
protected:
    PageAllocator& pages() { return *pages_; }
    u64 page(u64 index) const { return kBase + index * kPage; }
    // Every page of [first, first + count) is in use: none of them can be released twice.
    void expect_run_used(u64 first, u64 count) {
        for (u64 i = 0; i < count; i++) {
            EXPECT_TRUE(pages().release(first + i * kPage)) << "page " << i << " of the run was not marked used";
            EXPECT_FALSE(pages().release(first + i * kPage));
        }
    }
    std::unique_ptr<PageAllocator> pages_ = std::make_unique<PageAllocator>();
};

TEST_F(PageRunTest, ZeroPagesIsRefused) {
    pages().init(kBase, 16 * kPage);
    EXPECT_EQ(pages().allocate_run(0), 0u);
    EXPECT_EQ(pages().free_pages(), 16u);
    EXPECT_EQ(pages().allocate(), kBase);  // nothing was taken
}

TEST_F(PageRunTest, FirstRunStartsAtTheBase) {
    pages().init(kBase, 16 * kPage);
    EXPECT_EQ(pages().allocate_run(4), kBase);
    EXPECT_EQ(pages().free_pages(), 12u);
    EXPECT_EQ(pages().allocate_run(3), page(4));
    EXPECT_EQ(pages().free_pages(), 9u);
    EXPECT_EQ(pages().allocate_run(1), page(7));
    EXPECT_EQ(pages().free_pages(), 8u);
}

TEST_F(PageRunTest, RunPagesAreMarkedUsed) {
    pages().init(kBase, 8 * kPage);
    u64 run = pages().allocate_run(5);
    ASSERT_EQ(run, kBase);
    // Single-page allocations never hand out a page of the run.
    for (u64 i = 0; i < 3; i++) {
        u64 p = pages().allocate();
        ASSERT_NE(p, 0u);
        EXPECT_GE(p, run + 5 * kPage) << std::hex << p;
    }
    EXPECT_EQ(pages().allocate(), 0u);
    EXPECT_EQ(pages().free_pages(), 0u);
    expect_run_used(run, 5);
    EXPECT_EQ(pages().free_pages(), 5u);
}

TEST_F(PageRunTest, WholeRange) {
    pages().init(kBase, 32 * kPage);
    EXPECT_EQ(pages().allocate_run(32), kBase);
    EXPECT_EQ(pages().free_pages(), 0u);
    EXPECT_EQ(pages().allocate(), 0u);
    EXPECT_EQ(pages().allocate_run(1), 0u);
}

TEST_F(PageRunTest, LongerThanTheRangeIsRefused) {
    pages().init(kBase, 32 * kPage);
    EXPECT_EQ(pages().allocate_run(33), 0u);
    EXPECT_EQ(pages().allocate_run(1000), 0u);
    EXPECT_EQ(pages().free_pages(), 32u);
}

TEST_F(PageRunTest, EmptyAllocatorRefusesEverything) {
    pages().init(kBase, 0);
    EXPECT_EQ(pages().allocate_run(1), 0u);
    EXPECT_EQ(pages().allocate_run(2), 0u);
    EXPECT_EQ(pages().free_pages(), 0u);
}

TEST_F(PageRunTest, FragmentedFreePagesAreNotARun) {
    pages().init(kBase, 16 * kPage);
    std::vector<u64> all;
    for (int i = 0; i < 16; i++) all.push_back(pages().allocate());
    // Free every other page: 8 free pages, but no two adjacent.
    for (int i = 0; i < 16; i += 2) ASSERT_TRUE(pages().release(all[i]));
    ASSERT_EQ(pages().free_pages(), 8u);
    EXPECT_EQ(pages().allocate_run(2), 0u);
    EXPECT_EQ(pages().allocate_run(8), 0u);
    EXPECT_EQ(pages().free_pages(), 8u);  // a refused run takes nothing
    EXPECT_EQ(pages().allocate_run(1), page(0));
    EXPECT_EQ(pages().free_pages(), 7u);
}

TEST_F(PageRunTest, FindsTheFirstHoleThatIsLargeEnough) {
    pages().init(kBase, 32 * kPage);
    ASSERT_EQ(pages().allocate_run(32), kBase);
    // Holes: [2, 4) of 2 pages, [8, 13) of 5 pages, [20, 23) of 3 pages.
    for (u64 i : {2, 3, 8, 9, 10, 11, 12, 20, 21, 22}) ASSERT_TRUE(pages().release(page(i)));
    ASSERT_EQ(pages().free_pages(), 10u);

    EXPECT_EQ(pages().allocate_run(3), page(8));   // [2,4) is too short; first fit is [8, 11)
    EXPECT_EQ(pages().free_pages(), 7u);
    EXPECT_EQ(pages().allocate_run(3), page(20));  // what is left of [8,13) is [11, 13): too short
    EXPECT_EQ(pages().free_pages(), 4u);
    EXPECT_EQ(pages().allocate_run(2), page(2));   // first fit again from the bottom
    EXPECT_EQ(pages().allocate_run(2), page(11));
    EXPECT_EQ(pages().free_pages(), 0u);
    EXPECT_EQ(pages().allocate_run(1), 0u);
}

TEST_F(PageRunTest, RunAtTheVeryEndOfTheRange) {
    pages().init(kBase, 16 * kPage);
    for (int i = 0; i < 12; i++) ASSERT_NE(pages().allocate(), 0u);
    EXPECT_EQ(pages().allocate_run(5), 0u);  // only 4 are left
    EXPECT_EQ(pages().allocate_run(4), page(12));
    EXPECT_EQ(pages().free_pages(), 0u);
    expect_run_used(page(12), 4);
}

TEST_F(PageRunTest, RunEndingOnTheLastPageAfterAShorterHole) {
    pages().init(kBase, 16 * kPage);
    ASSERT_EQ(pages().allocate_run(16), kBase);
    ASSERT_TRUE(pages().release(page(5)));  // a one-page hole first
    for (u64 i = 13; i < 16; i++) ASSERT_TRUE(pages().release(page(i)));
    EXPECT_EQ(pages().allocate_run(3), page(13));
    EXPECT_EQ(pages().free_pages(), 1u);
}

TEST_F(PageRunTest, RunAtTheEndOfAPartialBitmapWord) {
    // 70 pages: the bitmap's second word holds only 6 valid bits.
    pages().init(kBase, 70 * kPage);
    ASSERT_EQ(pages().allocate_run(66), kBase);
    EXPECT_EQ(pages().allocate_run(5), 0u);  // only 4 left: bits past the end must not count
    EXPECT_EQ(pages().allocate_run(4), page(66));
    EXPECT_EQ(pages().free_pages(), 0u);
}

TEST_F(PageRunTest, RunCrossesABitmapWordBoundary) {
    pages().init(kBase, 128 * kPage);
    for (int i = 0; i < 60; i++) ASSERT_NE(pages().allocate(), 0u);
    EXPECT_EQ(pages().allocate_run(10), page(60));  // pages 60..69 straddle words 0 and 1
    expect_run_used(page(60), 10);
}

TEST_F(PageRunTest, WorksAfterReleasesCreateHoles) {
    pages().init(kBase, 16 * kPage);
    std::vector<u64> all;
    for (int i = 0; i < 16; i++) all.push_back(pages().allocate());
    for (int i = 4; i < 10; i++) ASSERT_TRUE(pages().release(all[i]));
    EXPECT_EQ(pages().allocate_run(6), page(4));
    EXPECT_EQ(pages().free_pages(), 0u);
    // Release the run and a neighbour: the hole grows to 7 pages.
    for (u64 i = 3; i < 10; i++) ASSERT_TRUE(pages().release(page(i)));
    EXPECT_EQ(pages().allocate_run(7), page(3));
}

TEST_F(PageRunTest, MixesWithSinglePageAllocation) {
    pages().init(kBase, 16 * kPage);
    EXPECT_EQ(pages().allocate(), page(0));
    EXPECT_EQ(pages().allocate_run(4), page(1));
    // The single-page allocator skips the run.
    EXPECT_EQ(pages().allocate(), page(5));
    ASSERT_TRUE(pages().release(page(0)));
    EXPECT_EQ(pages().allocate_run(2), page(6));  // page 0 alone is too short
    EXPECT_EQ(pages().allocate(), page(0));
    EXPECT_EQ(pages().free_pages(), 16u - 1 - 4 - 1 - 2);
}

TEST_F(PageRunTest, ReleasedRunPagesAreReusable) {
    pages().init(kBase, 8 * kPage);
    u64 run = pages().allocate_run(8);
    ASSERT_EQ(run, kBase);
    for (u64 i = 0; i < 8; i++) ASSERT_TRUE(pages().release(run + i * kPage));
    EXPECT_EQ(pages().free_pages(), 8u);
    EXPECT_EQ(pages().allocate_run(8), kBase);
}

TEST_F(PageRunTest, HugeCountsAreRefusedWithoutOverflow) {
    pages().init(kBase, 16 * kPage);
    ASSERT_EQ(pages().allocate(), page(0));  // the first free page is not at index 0
    EXPECT_EQ(pages().allocate_run(~u64{0}), 0u);
    EXPECT_EQ(pages().allocate_run(~u64{0} - 1), 0u);
    EXPECT_EQ(pages().allocate_run(u64{1} << 63), 0u);
    EXPECT_EQ(pages().free_pages(), 15u);
}

TEST_F(PageRunTest, MaximumRange) {
    pages().init(kBase, PageAllocator::kMaxPages * kPage);
    EXPECT_EQ(pages().allocate_run(PageAllocator::kMaxPages - 1), kBase);
    EXPECT_EQ(pages().allocate_run(2), 0u);
    EXPECT_EQ(pages().allocate_run(1), page(PageAllocator::kMaxPages - 1));
    EXPECT_EQ(pages().free_pages(), 0u);
}
}  // namespace
