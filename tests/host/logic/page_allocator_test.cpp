// Physical page allocator (kernel/mm/page_allocator.cpp).
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <vector>

#include "kernel/mm/page_allocator.hpp"

namespace {
using namespace nvx;
using nvx::kernel::PageAllocator;

constexpr u64 kPage = PageAllocator::kPageSize;
constexpr u64 kBase = 0x80a00000;

// The allocator embeds a 1 KiB bitmap: keep it on the heap, fresh for every test.
class PageAllocatorTest : public ::testing::Test {
protected:
    PageAllocator& pages() { return *pages_; }
    std::unique_ptr<PageAllocator> pages_ = std::make_unique<PageAllocator>();
};

TEST_F(PageAllocatorTest, InitWithAlignedRange) {
    pages().init(kBase, 16 * kPage);
    EXPECT_EQ(pages().base(), kBase);
    EXPECT_EQ(pages().total_pages(), 16u);
    EXPECT_EQ(pages().free_pages(), 16u);
}

TEST_F(PageAllocatorTest, InitRoundsInwards) {
    // [kBase + 1, kBase + 1 + 5 pages) holds pages 1..4 completely.
    pages().init(kBase + 1, 5 * kPage);
    EXPECT_EQ(pages().base(), kBase + kPage);
    EXPECT_EQ(pages().total_pages(), 4u);

    pages().init(kBase + kPage - 1, 2 * kPage + 2);  // ends at kBase + 3 pages + 1
    EXPECT_EQ(pages().base(), kBase + kPage);
    EXPECT_EQ(pages().total_pages(), 2u);

    pages().init(kBase, 3 * kPage - 1);  // a partial last page is dropped
    EXPECT_EQ(pages().base(), kBase);
    EXPECT_EQ(pages().total_pages(), 2u);
}

TEST_F(PageAllocatorTest, InitWithLessThanAPage) {
    pages().init(kBase + 0x800, kPage);  // straddles a boundary: no whole page
    EXPECT_EQ(pages().total_pages(), 0u);
    EXPECT_EQ(pages().free_pages(), 0u);
    EXPECT_EQ(pages().allocate(), 0u);

    pages().init(kBase, 0);
    EXPECT_EQ(pages().total_pages(), 0u);
    EXPECT_EQ(pages().allocate(), 0u);
    EXPECT_FALSE(pages().release(kBase));
}

TEST_F(PageAllocatorTest, InitClampsToMaxPages) {
    pages().init(kBase, 64 * MiB);
    EXPECT_EQ(pages().total_pages(), PageAllocator::kMaxPages);
    EXPECT_EQ(pages().free_pages(), PageAllocator::kMaxPages);
}

TEST_F(PageAllocatorTest, AllocatesEveryPageOnceThenReturnsZero) {
    const u64 n = 100;
    pages().init(kBase, n * kPage);
    std::set<u64> seen;
    for (u64 i = 0; i < n; i++) {
        u64 p = pages().allocate();
        ASSERT_NE(p, 0u) << i;
        EXPECT_EQ(p % kPage, 0u);
        EXPECT_GE(p, kBase);
        EXPECT_LT(p, kBase + n * kPage);
        EXPECT_TRUE(seen.insert(p).second) << "page handed out twice: " << std::hex << p;
        EXPECT_EQ(pages().free_pages(), n - i - 1);
    }
    EXPECT_EQ(pages().allocate(), 0u);
    EXPECT_EQ(pages().allocate(), 0u);
    EXPECT_EQ(pages().free_pages(), 0u);
}

TEST_F(PageAllocatorTest, FirstAllocationIsTheBase) {
    pages().init(kBase, 8 * kPage);
    EXPECT_EQ(pages().allocate(), kBase);
    EXPECT_EQ(pages().allocate(), kBase + kPage);
}

TEST_F(PageAllocatorTest, AllocatesTheWholeMaximumRange) {
    pages().init(kBase, PageAllocator::kMaxPages * kPage);
    std::vector<bool> seen(PageAllocator::kMaxPages, false);
    for (u64 i = 0; i < PageAllocator::kMaxPages; i++) {
        u64 p = pages().allocate();
        ASSERT_NE(p, 0u) << i;
        u64 index = (p - kBase) / kPage;
        ASSERT_LT(index, PageAllocator::kMaxPages);
        ASSERT_FALSE(seen[index]) << index;
        seen[index] = true;
    }
    EXPECT_EQ(pages().allocate(), 0u);
}

TEST_F(PageAllocatorTest, ReleaseMakesThePageReusable) {
    pages().init(kBase, 4 * kPage);
    u64 a = pages().allocate(), b = pages().allocate(), c = pages().allocate(), d = pages().allocate();
    ASSERT_EQ(pages().allocate(), 0u);
    EXPECT_TRUE(pages().release(b));
    EXPECT_EQ(pages().free_pages(), 1u);
    EXPECT_EQ(pages().allocate(), b);
    EXPECT_EQ(pages().free_pages(), 0u);
    EXPECT_EQ(pages().allocate(), 0u);
    for (u64 p : {a, b, c, d}) EXPECT_TRUE(pages().release(p));
    EXPECT_EQ(pages().free_pages(), 4u);
}

TEST_F(PageAllocatorTest, LowestReleasedPageIsReusedFirst) {
    pages().init(kBase, 16 * kPage);
    std::vector<u64> got;
    for (int i = 0; i < 8; i++) got.push_back(pages().allocate());
    EXPECT_TRUE(pages().release(got[5]));
    EXPECT_TRUE(pages().release(got[2]));
    EXPECT_EQ(pages().allocate(), got[2]);
    EXPECT_EQ(pages().allocate(), got[5]);
    EXPECT_EQ(pages().allocate(), kBase + 8 * kPage);  // then fresh pages again
}

TEST_F(PageAllocatorTest, WrapsAroundToFreedPagesBelowTheHint) {
    pages().init(kBase, 4 * kPage);
    u64 first = pages().allocate();
    for (int i = 0; i < 3; i++) ASSERT_NE(pages().allocate(), 0u);
    ASSERT_TRUE(pages().release(first));
    ASSERT_NE(pages().allocate(), 0u);  // takes `first` back
    ASSERT_TRUE(pages().release(kBase + 3 * kPage));
    EXPECT_EQ(pages().allocate(), kBase + 3 * kPage);
    EXPECT_EQ(pages().allocate(), 0u);
}

TEST_F(PageAllocatorTest, ReleaseRejectsForeignAddresses) {
    pages().init(kBase, 4 * kPage);
    for (int i = 0; i < 4; i++) ASSERT_NE(pages().allocate(), 0u);
    EXPECT_FALSE(pages().release(0));
    EXPECT_FALSE(pages().release(kBase - kPage));
    EXPECT_FALSE(pages().release(kBase - 1));
    EXPECT_FALSE(pages().release(kBase + 4 * kPage));  // one past the end
    EXPECT_FALSE(pages().release(kBase + 100 * kPage));
    EXPECT_FALSE(pages().release(~u64{0} & ~(kPage - 1)));
    EXPECT_EQ(pages().free_pages(), 0u);
}

TEST_F(PageAllocatorTest, ReleaseRejectsUnalignedAddresses) {
    pages().init(kBase, 4 * kPage);
    u64 p = pages().allocate();
    EXPECT_FALSE(pages().release(p + 1));
    EXPECT_FALSE(pages().release(p + 8));
    EXPECT_FALSE(pages().release(p + kPage / 2));
    EXPECT_FALSE(pages().release(p + kPage - 1));
    EXPECT_EQ(pages().free_pages(), 3u);
    EXPECT_TRUE(pages().release(p));  // still allocated, so the real address works
}

TEST_F(PageAllocatorTest, ReleaseRejectsDoubleFreeAndNeverAllocated) {
    pages().init(kBase, 4 * kPage);
    u64 p = pages().allocate();
    EXPECT_FALSE(pages().release(kBase + 2 * kPage));  // inside the range, never handed out
    EXPECT_TRUE(pages().release(p));
    EXPECT_EQ(pages().free_pages(), 4u);
    EXPECT_FALSE(pages().release(p));
    EXPECT_EQ(pages().free_pages(), 4u);  // accounting not corrupted
    EXPECT_EQ(pages().total_pages(), 4u);
}

TEST_F(PageAllocatorTest, PagesBeyondTheClampAreForeign) {
    pages().init(kBase, 2 * PageAllocator::kMaxPages * kPage);
    EXPECT_FALSE(pages().release(kBase + PageAllocator::kMaxPages * kPage));
}

TEST_F(PageAllocatorTest, ReinitForgetsEverything) {
    pages().init(kBase, 4 * kPage);
    for (int i = 0; i < 4; i++) ASSERT_NE(pages().allocate(), 0u);
    pages().init(kBase + 16 * kPage, 2 * kPage);
    EXPECT_EQ(pages().free_pages(), 2u);
    EXPECT_FALSE(pages().release(kBase));  // from the old range
    EXPECT_EQ(pages().allocate(), kBase + 16 * kPage);
    EXPECT_EQ(pages().allocate(), kBase + 17 * kPage);
    EXPECT_EQ(pages().allocate(), 0u);
}

TEST_F(PageAllocatorTest, FreePagesTracksMixedTraffic) {
    const u64 n = 200;
    pages().init(kBase, n * kPage);
    std::vector<u64> held;
    for (u64 i = 0; i < 150; i++) held.push_back(pages().allocate());
    for (u64 i = 0; i < held.size(); i += 3) ASSERT_TRUE(pages().release(held[i]));
    EXPECT_EQ(pages().free_pages(), n - 150 + 50);
    std::set<u64> live;
    for (u64 i = 0; i < held.size(); i++)
        if (i % 3 != 0) live.insert(held[i]);
    while (u64 p = pages().allocate()) EXPECT_TRUE(live.insert(p).second) << std::hex << p;
    EXPECT_EQ(live.size(), n);
    EXPECT_EQ(pages().free_pages(), 0u);
}
}  // namespace
