/* POSIX calls that ordinary programs (MPI applications, benchmarks) use and newlib lacks
 * on bare metal. They behave as POSIX says: failures return -1 (or an errno number for
 * posix_memalign) and set errno. Clocks count from board start (no real-time clock). */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <nvx/clock.h>
#include <nvx/syscall.h>
#include <nvx/thread.h>

/* User pages are the kernel's Sv39 base pages. */

static int fail(int error)
{
    errno = error;
    return -1;
}

int posix_memalign(void **out, size_t alignment, size_t size)
{
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0)
        return EINVAL;
    void *p = memalign(alignment, size == 0 ? 1 : size);
    if (p == NULL)
        return ENOMEM;
    *out = p;
    return 0;
}

int getpagesize(void)
{
    return NVX_PAGE_SIZE;
}

/* Processors are the user harts of the calling thread's cluster: a program sees one
 * cluster, as a process sees one shared-memory node. */
static long user_harts(void)
{
    struct nvx_info info;
    if (nvx_sys_info(&info) < 0)
        return 1;
    return info.user_harts;
}

long sysconf(int name)
{
    switch (name) {
    case _SC_PAGESIZE:
        return NVX_PAGE_SIZE;
    case _SC_NPROCESSORS_CONF:
    case _SC_NPROCESSORS_ONLN:
        return user_harts();
    case _SC_CLK_TCK:
        return CLOCKS_PER_SEC;
    case _SC_OPEN_MAX:
        return 3; /* the console's fds 0-2; there is no file system */
    case _SC_HOST_NAME_MAX:
        return 64;
    case _SC_ARG_MAX:
        return 4096;
    default:
        return fail(EINVAL);
    }
}

static void ticks_to_timespec(uint64_t ticks, struct timespec *ts)
{
    ts->tv_sec = (time_t)(ticks / NVX_TIMER_HZ);
    ts->tv_nsec = (long)nvx_ticks_to(ticks % NVX_TIMER_HZ, 1000000000ull);
}

static int clock_known(clockid_t clock)
{
    return clock == CLOCK_REALTIME || clock == CLOCK_MONOTONIC;
}

/* Both clocks are the board clock: CLOCK_REALTIME starts at the epoch at board start. */
int clock_gettime(clockid_t clock, struct timespec *ts)
{
    if (!clock_known(clock))
        return fail(EINVAL);
    if (ts == NULL)
        return fail(EFAULT);
    ticks_to_timespec(nvx_rdtime(), ts);
    return 0;
}

int clock_getres(clockid_t clock, struct timespec *res)
{
    if (!clock_known(clock))
        return fail(EINVAL);
    if (res != NULL)
        ticks_to_timespec(1, res);
    return 0;
}

/* Sleeps block in the kernel (NVX_SYS_SLEEP_UNTIL) until a deadline on the board clock.
 * Nothing interrupts them, so they never fail with EINTR and nothing remains. */
#define NVX_LATEST_DEADLINE ((uint64_t)INT64_MAX) /* the kernel refuses later ones */

static int timespec_valid(const struct timespec *ts)
{
    return ts->tv_sec >= 0 && ts->tv_nsec >= 0 && ts->tv_nsec < 1000000000L;
}

/* Rounded up, so that a sleep never ends before the asked time; saturates at the latest
 * deadline the kernel takes (a sleep of about 29,000 years). */
static uint64_t timespec_to_ticks(const struct timespec *ts)
{
    if ((uint64_t)ts->tv_sec >= NVX_LATEST_DEADLINE / NVX_TIMER_HZ)
        return NVX_LATEST_DEADLINE;
    return (uint64_t)ts->tv_sec * NVX_TIMER_HZ +
           ((uint64_t)ts->tv_nsec * NVX_TIMER_HZ + 999999999ull) / 1000000000ull;
}

static uint64_t deadline_after(uint64_t ticks)
{
    uint64_t now = nvx_rdtime();
    return ticks >= NVX_LATEST_DEADLINE - now ? NVX_LATEST_DEADLINE : now + ticks;
}

static void sleep_ticks(uint64_t ticks)
{
    nvx_thread_sleep_until(deadline_after(ticks));
}

int nanosleep(const struct timespec *request, struct timespec *remaining)
{
    if (request == NULL)
        return fail(EFAULT);
    if (!timespec_valid(request))
        return fail(EINVAL);
    sleep_ticks(timespec_to_ticks(request));
    if (remaining != NULL)
        *remaining = (struct timespec){0, 0};
    return 0;
}

/* Returns an errno number, as POSIX asks of clock_nanosleep. Both clocks are the board
 * clock, so an absolute time is a deadline on it. */
int clock_nanosleep(clockid_t clock, int flags, const struct timespec *request,
                    struct timespec *remaining)
{
    if (!clock_known(clock))
        return EINVAL;
    if (request == NULL)
        return EFAULT;
    if (!timespec_valid(request))
        return EINVAL;
    if (flags & TIMER_ABSTIME)
        return nvx_thread_sleep_until(timespec_to_ticks(request));
    sleep_ticks(timespec_to_ticks(request));
    if (remaining != NULL)
        *remaining = (struct timespec){0, 0};
    return 0;
}

int usleep(useconds_t usec)
{
    if (usec >= 1000000)
        return fail(EINVAL);
    sleep_ticks(((uint64_t)usec * NVX_TIMER_HZ + 999999) / 1000000);
    return 0;
}

unsigned sleep(unsigned seconds)
{
    sleep_ticks((uint64_t)seconds * NVX_TIMER_HZ);
    return 0;
}

/* "nvx-cluster<C>": the name of the node (cluster) the program runs on. */
int gethostname(char *name, size_t len)
{
    struct nvx_info info;
    if (name == NULL)
        return fail(EFAULT);
    if (nvx_sys_info(&info) < 0)
        return fail(EFAULT);
    char text[32];
    snprintf(text, sizeof text, "nvx-cluster%u", (unsigned)info.cluster);
    if (strlen(text) + 1 > len)
        return fail(ENAMETOOLONG);
    memcpy(name, text, strlen(text) + 1);
    return 0;
}
