/* Guard pages for thread stacks: a thread that overflows its stack is
 * killed by a store page fault on the unmapped page below it, and nothing else is touched:
 * a heap block allocated just before the thread (where a stack carved from the heap would
 * overflow into) keeps its pattern, a thread running meanwhile finishes, and later threads
 * (reusing the dead thread's stack) run normally. */
#include <nvx/thread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

enum { kStorePageFault = 15, kPatternBytes = 32 * 1024, kFrame = 512 };
static const unsigned char kPattern = 0xa5;

/* Recurses with a frame it writes, `depth` levels: far below a 16 KiB stack. */
static long deep(int depth)
{
    volatile char frame[kFrame];
    memset((char *)frame, depth, sizeof frame);
    if (depth == 0) return frame[0];
    return deep(depth - 1) + frame[1]; /* not a tail call: every frame stays */
}

static void *overflow(void *arg)
{
    return (void *)deep((int)(long)arg);
}

static void *survivor(void *arg)
{
    (void)arg;
    long sum = 0;
    for (int i = 0; i < 1000; i++) {
        sum += i;
        if (i % 100 == 0) nvx_thread_yield();
    }
    return (void *)(long)(sum == 499500);
}

static void *shallow(void *arg)
{
    return (void *)(long)(deep((int)(long)arg) >= 0);
}

static int pattern_intact(const unsigned char *p)
{
    for (int i = 0; i < kPatternBytes; i++)
        if (p[i] != kPattern) return 0;
    return 1;
}

int main(void)
{
    /* the kernel call's own checks */
    CHECK_EQ(nvx_sys_stack_map(0), -NVX_EINVAL);
    CHECK_EQ(nvx_sys_stack_map(NVX_USER_THREAD_STACK_MAX + 1), -NVX_EINVAL);
    long base = nvx_sys_stack_map(4096);
    CHECK(base >= (long)NVX_USER_THREAD_STACKS_BASE && base < (long)NVX_USER_STACK_TOP);
    long next = nvx_sys_stack_map(4096);
    CHECK_EQ(next, base - 2 * 4096); /* one unmapped guard page between the two */

    nvx_thread_t keep;
    CHECK_EQ(nvx_thread_create(&keep, 0, survivor, 0), 0);
    for (int round = 0; round < 2; round++) {
        unsigned char *below = malloc(kPatternBytes);
        CHECK(below != 0);
        if (below == 0) break;
        memset(below, kPattern, kPatternBytes);
        nvx_thread_t t;
        nvx_thread_attr_t attr = NVX_THREAD_ATTR_INITIALIZER; /* the default 16 KiB stack */
        CHECK_EQ(nvx_thread_create(&t, &attr, overflow, (void *)64L), 0); /* 64 x 512 B: 32 KiB */
        struct nvx_thread_status end;
        CHECK_EQ(nvx_thread_join_status(t, &end), 0);
        CHECK_EQ(end.how, NVX_THREAD_KILLED);
        CHECK_EQ(end.value, kStorePageFault);
        CHECK(pattern_intact(below));
        free(below);
    }
    void *ret = 0;
    CHECK_EQ(nvx_thread_join(keep, &ret), 0);
    CHECK_EQ((long)ret, 1);

    /* later threads get working stacks, the dead threads' ones among them */
    nvx_thread_t after[4];
    for (int i = 0; i < 4; i++) CHECK_EQ(nvx_thread_create(&after[i], 0, shallow, (void *)16L), 0); /* 8 KiB deep */
    for (int i = 0; i < 4; i++) {
        CHECK_EQ(nvx_thread_join(after[i], &ret), 0);
        CHECK_EQ((long)ret, 1);
    }
    /* a thread with a large stack can use all of it */
    nvx_thread_attr_t big = {64 * 1024, NVX_THREAD_ANY_HART};
    nvx_thread_t t;
    CHECK_EQ(nvx_thread_create(&t, &big, shallow, (void *)100L), 0); /* 50 KiB deep */
    CHECK_EQ(nvx_thread_join(t, &ret), 0);
    CHECK_EQ((long)ret, 1);
    return check_finish("stack_guard");
}
