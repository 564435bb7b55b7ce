/* Thread-local storage through tp (initialised .tdata, zeroed .tbss, one copy per thread,
 * errno still per thread) and the POSIX calls of runtime/posix.c. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <nvx/thread.h>

#include "check.h"

static _Thread_local int tls_counter = 42;          /* .tdata */
static _Thread_local char tls_zero[100];            /* .tbss */
static _Thread_local double tls_aligned __attribute__((aligned(64))) = 1.5;

#define THREADS 3

static void *tls_worker(void *arg)
{
    intptr_t id = (intptr_t)arg;
    int ok = tls_counter == 42 && tls_aligned == 1.5 && ((uintptr_t)&tls_aligned & 63) == 0;
    for (unsigned i = 0; i < sizeof tls_zero; i++)
        ok &= tls_zero[i] == 0;
    tls_counter = (int)id * 1000;
    memset(tls_zero, (int)id, sizeof tls_zero);
    errno = (int)id + 100;
    nvx_thread_yield();
    ok &= tls_counter == (int)id * 1000 && tls_zero[99] == (char)id && errno == (int)id + 100;
    return (void *)(intptr_t)ok;
}

static void check_tls(void)
{
    CHECK_EQ(tls_counter, 42);
    CHECK_EQ(tls_zero[0], 0);
    CHECK_EQ((uintptr_t)&tls_aligned & 63, 0);
    tls_counter = 7;
    nvx_thread_t t[THREADS];
    for (intptr_t i = 0; i < THREADS; i++)
        CHECK_EQ(nvx_thread_create(&t[i], NULL, tls_worker, (void *)(i + 1)), 0);
    for (int i = 0; i < THREADS; i++) {
        void *ok = NULL;
        CHECK_EQ(nvx_thread_join(t[i], &ok), 0);
        CHECK_EQ((intptr_t)ok, 1);
    }
    CHECK_EQ(tls_counter, 7); /* the workers' writes went to their own copies */
    CHECK(&tls_counter != NULL && nvx_thread_self() != NULL);
}

static void check_memory(void)
{
    void *p = NULL;
    CHECK_EQ(posix_memalign(&p, 256, 1000), 0);
    CHECK(p != NULL && ((uintptr_t)p & 255) == 0);
    free(p);
    CHECK_EQ(posix_memalign(&p, 3, 16), EINVAL);
    CHECK_EQ(posix_memalign(&p, 4, 16), EINVAL); /* below sizeof(void *) */
    CHECK_EQ(posix_memalign(&p, 64, (size_t)1 << 40), ENOMEM);
    void *q = aligned_alloc(128, 256);
    CHECK(q != NULL && ((uintptr_t)q & 127) == 0);
    free(q);
    CHECK_EQ(getpagesize(), 4096);
    CHECK_EQ(sysconf(_SC_PAGESIZE), 4096);
    CHECK(sysconf(_SC_NPROCESSORS_ONLN) >= 1);
    errno = 0;
    CHECK_EQ(sysconf(-5), -1);
    CHECK_EQ(errno, EINVAL);
}

static void check_time(void)
{
    struct timespec a, b, res;
    CHECK_EQ(clock_gettime(CLOCK_MONOTONIC, &a), 0);
    CHECK_EQ(clock_gettime(CLOCK_REALTIME, &b), 0);
    CHECK(a.tv_nsec >= 0 && a.tv_nsec < 1000000000L);
    CHECK_EQ(clock_getres(CLOCK_MONOTONIC, &res), 0);
    CHECK(res.tv_sec == 0 && res.tv_nsec > 0);
    errno = 0;
    CHECK_EQ(clock_gettime((clockid_t)99, &a), -1);
    CHECK_EQ(errno, EINVAL);

    struct timespec nap = {0, 2000000}; /* 2 ms */
    CHECK_EQ(clock_gettime(CLOCK_MONOTONIC, &a), 0);
    CHECK_EQ(nanosleep(&nap, NULL), 0);
    CHECK_EQ(clock_gettime(CLOCK_MONOTONIC, &b), 0);
    long long elapsed = (b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec);
    CHECK(elapsed >= 2000000);
    struct timespec bad = {0, 1000000000L};
    errno = 0;
    CHECK_EQ(nanosleep(&bad, NULL), -1);
    CHECK_EQ(errno, EINVAL);
    CHECK_EQ(usleep(100), 0);
    errno = 0;
    CHECK_EQ(usleep(1000000), -1);
    CHECK_EQ(errno, EINVAL);

    struct timeval tv;
    CHECK_EQ(gettimeofday(&tv, NULL), 0);
    CHECK(tv.tv_usec >= 0 && tv.tv_usec < 1000000);
}

static void check_host(void)
{
    char name[64];
    CHECK_EQ(gethostname(name, sizeof name), 0);
    CHECK_EQ(strncmp(name, "nvx-cluster", 11), 0);
    char tiny[4];
    errno = 0;
    CHECK_EQ(gethostname(tiny, sizeof tiny), -1);
    CHECK_EQ(errno, ENAMETOOLONG);
    CHECK(getpid() > 0);
}

int main(void)
{
    check_tls();
    check_memory();
    check_time();
    check_host();
    return check_finish("tls_posix");
}
