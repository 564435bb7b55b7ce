/* Timed sleep (NVX_SYS_SLEEP_UNTIL and the POSIX calls over it): bad times are refused,
 * every sleep lasts at least the asked time (lower bounds only), sleepers with different
 * deadlines on every hart all wake, and finally one sleep between two marks of the
 * instruction counter: the runner's `quiet_sleep` check reads that during it only this
 * hart and its kernel core ran, and only a few instructions (the call and the wake-up),
 * where a sleep that spins or polls would run millions. That window is meant for -np 1. */
#include <errno.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include <nvx/clock.h>
#include <nvx/syscall.h>
#include <nvx/thread.h>

#include <nvx/icount_mark.h>
#include "check.h"

#define MS 1000000L /* nanoseconds */

static int64_t elapsed_ns(const struct timespec *a, const struct timespec *b)
{
    return (int64_t)(b->tv_sec - a->tv_sec) * 1000000000 + (b->tv_nsec - a->tv_nsec);
}

static void bad_times(void)
{
    CHECK_EQ(nvx_sys_sleep_until(1ull << 63), -NVX_EINVAL);
    CHECK_EQ(nvx_sys_sleep_until(~0ull), -NVX_EINVAL);
    CHECK_EQ(nvx_thread_sleep_until(1ull << 63), EINVAL);
    struct timespec bad[] = {{0, -1}, {0, 1000000000L}, {-1, 0}};
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        errno = 0;
        CHECK_EQ(nanosleep(&bad[i], NULL), -1);
        CHECK_EQ(errno, EINVAL);
        CHECK_EQ(clock_nanosleep(CLOCK_MONOTONIC, 0, &bad[i], NULL), EINVAL);
        CHECK_EQ(clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &bad[i], NULL), EINVAL);
    }
    struct timespec fine = {0, MS};
    CHECK_EQ(clock_nanosleep((clockid_t)99, 0, &fine, NULL), EINVAL);
    errno = 0;
    CHECK_EQ(nanosleep(NULL, NULL), -1);
    CHECK_EQ(errno, EFAULT);
    errno = 0;
    CHECK_EQ(usleep(1000000), -1);
    CHECK_EQ(errno, EINVAL);
}

static void past_deadlines_return_at_once(void)
{
    CHECK_EQ(nvx_sys_sleep_until(0), 0);
    CHECK_EQ(nvx_sys_sleep_until(nvx_rdtime()), 0);
    struct timespec past = {0, 0};
    CHECK_EQ(clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &past, NULL), 0);
    struct timespec zero = {0, 0};
    CHECK_EQ(nanosleep(&zero, NULL), 0);
}

static void sleeps_last_long_enough(void)
{
    struct timespec before, after;
    struct timespec nap = {0, 30 * MS}, left = {5, 5};
    clock_gettime(CLOCK_MONOTONIC, &before);
    CHECK_EQ(nanosleep(&nap, &left), 0);
    clock_gettime(CLOCK_MONOTONIC, &after);
    CHECK(elapsed_ns(&before, &after) >= 30 * MS);
    CHECK(left.tv_sec == 0 && left.tv_nsec == 0);

    clock_gettime(CLOCK_MONOTONIC, &before);
    CHECK_EQ(usleep(20000), 0);
    clock_gettime(CLOCK_MONOTONIC, &after);
    CHECK(elapsed_ns(&before, &after) >= 20 * MS);

    clock_gettime(CLOCK_MONOTONIC, &before);
    CHECK_EQ(sleep(1), 0);
    clock_gettime(CLOCK_MONOTONIC, &after);
    CHECK(elapsed_ns(&before, &after) >= 1000 * MS);

    struct timespec relative = {0, 10 * MS};
    clock_gettime(CLOCK_REALTIME, &before);
    CHECK_EQ(clock_nanosleep(CLOCK_REALTIME, 0, &relative, NULL), 0);
    clock_gettime(CLOCK_REALTIME, &after);
    CHECK(elapsed_ns(&before, &after) >= 10 * MS);

    struct timespec target;
    clock_gettime(CLOCK_MONOTONIC, &target);
    target.tv_nsec += 25 * MS;
    if (target.tv_nsec >= 1000000000L) {
        target.tv_sec++;
        target.tv_nsec -= 1000000000L;
    }
    CHECK_EQ(clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, NULL), 0);
    clock_gettime(CLOCK_MONOTONIC, &after);
    CHECK(elapsed_ns(&target, &after) >= 0);
}

/* Sleepers created latest-deadline first, more than there are harts: each checks it woke
 * no earlier than its own deadline. */
enum { SLEEPERS_PER_HART = 3, STEP_TICKS = NVX_TIMER_HZ / 200 /* 5 ms */ };

static void *sleeper(void *arg)
{
    uint64_t deadline = (uintptr_t)arg;
    if (nvx_thread_sleep_until(deadline) != 0) return (void *)0;
    return (void *)(uintptr_t)(nvx_rdtime() >= deadline);
}

static void many_sleepers(void)
{
    struct nvx_info info;
    CHECK_EQ(nvx_sys_info(&info), 0);
    unsigned count = info.user_harts * SLEEPERS_PER_HART;
    nvx_thread_t pool[32];
    if (count > sizeof pool / sizeof pool[0]) count = sizeof pool / sizeof pool[0];
    uint64_t start = nvx_rdtime();
    for (unsigned i = 0; i < count; i++) {
        uint64_t deadline = start + (uint64_t)(count - i) * STEP_TICKS;
        CHECK_EQ(nvx_thread_create(&pool[i], NULL, sleeper, (void *)(uintptr_t)deadline), 0);
    }
    for (unsigned i = 0; i < count; i++) {
        void *woke_in_time = 0;
        CHECK_EQ(nvx_thread_join(pool[i], &woke_in_time), 0);
        CHECK(woke_in_time == (void *)1);
    }
}

/* Runs pinned to one hart, so that the sleep starts and ends there. */
static void *quiet_sleeper(void *arg)
{
    (void)arg;
    struct timespec settle = {0, 20 * MS}, nap = {0, 200 * MS};
    if (nanosleep(&settle, NULL) != 0) return (void *)0;  /* the kernel core finishes the creation's work */
    nvx_icount_mark();
    int r = nanosleep(&nap, NULL);
    nvx_icount_mark();
    return (void *)(uintptr_t)(r == 0);
}

static void quiet_sleep(void)
{
    struct nvx_info info;
    CHECK_EQ(nvx_sys_info(&info), 0);
    printf("sleep: cluster %u kernel core hart %u\n", info.cluster, info.hart - info.local_hart);
    nvx_thread_attr_t attr = NVX_THREAD_ATTR_INITIALIZER;
    attr.hart = (int)info.first_user_hart;
    nvx_thread_t t;
    CHECK_EQ(nvx_thread_create(&t, &attr, quiet_sleeper, NULL), 0);
    void *ok = 0;
    CHECK_EQ(nvx_thread_join(t, &ok), 0);
    CHECK(ok == (void *)1);
}

int main(void)
{
    bad_times();
    past_deadlines_return_at_once();
    sleeps_last_long_enough();
    many_sleepers();
    quiet_sleep();
    return check_finish("sleep");
}
