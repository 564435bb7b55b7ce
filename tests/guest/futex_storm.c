/* Futex wakes from both user harts of a cluster, while many threads wait on other words:
 * each wake walks the waiters under the kernel's futex lock, so the harts contend for it,
 * and the host's turns (one hart at a time under deterministic execution, some 10^8
 * instructions each) end now and then while a hart holds it. The other hart then spins
 * until the host runs the holder again, which is the host's order, not the program's: that
 * wait must cost no virtual time. Checked per batch of wakes: every waker's slowest batch
 * stays within a few times its fastest (a spin charged as work adds a whole turn to one).
 * The wakes cover about ten turns, so that some end inside the lock. */
#include <nvx/clock.h>
#include <nvx/syscall.h>
#include <nvx/thread.h>
#include <stdint.h>
#include <stdio.h>
#include "check.h"

enum { kSleepers = 40, kWakers = 2, kBatches = 2400, kWakesPerBatch = 400, kSlowestOverFastest = 4 };

static uint32_t g_sleep_words[kSleepers];
static uint32_t g_storm_word;
static uint32_t g_asleep;
static volatile uint32_t g_stop;

static void *sleeper(void *arg)
{
    uint32_t *word = arg;
    __atomic_add_fetch(&g_asleep, 1, __ATOMIC_SEQ_CST);
    nvx_sys_futex_wake(&g_asleep, 1);
    while (!g_stop) nvx_sys_futex_wait(word, 0);
    return 0;
}

struct batches {
    uint64_t fastest, slowest;
};

static void *waker(void *arg)
{
    struct batches *b = arg;
    b->fastest = UINT64_MAX;
    b->slowest = 0;
    for (int i = 0; i < kBatches; i++) {
        uint64_t start = nvx_clock_cycles();
        for (int k = 0; k < kWakesPerBatch; k++) nvx_sys_futex_wake(&g_storm_word, 1);
        uint64_t took = nvx_clock_cycles() - start;
        if (took < b->fastest) b->fastest = took;
        if (took > b->slowest) b->slowest = took;
    }
    return 0;
}

int main(void)
{
    nvx_thread_t sleepers[kSleepers], wakers[kWakers];
    struct batches batches[kWakers];
    int made = 0;
    for (int i = 0; i < kSleepers; i++) made += nvx_thread_create(&sleepers[i], 0, sleeper, &g_sleep_words[i]) == 0;
    CHECK(made == kSleepers);
    /* The sleepers go to wait before the storm: then each wake walks them all. */
    for (uint32_t n; (n = __atomic_load_n(&g_asleep, __ATOMIC_SEQ_CST)) < (uint32_t)made;)
        nvx_sys_futex_wait(&g_asleep, n);
    int started = 0;
    for (int i = 0; i < kWakers; i++) started += nvx_thread_create(&wakers[i], 0, waker, &batches[i]) == 0;
    CHECK(started == kWakers);
    for (int i = 0; i < started; i++) nvx_thread_join(wakers[i], 0);
    g_stop = 1;
    for (int i = 0; i < made; i++) {
        nvx_sys_futex_wake(&g_sleep_words[i], 1);
        nvx_thread_join(sleepers[i], 0);
    }
    if (nvx_clock_is_virtual()) {
        for (int i = 0; i < started; i++) {
            printf("futex_storm: waker %d: batches of %d wakes took %llu to %llu cycles\n", i, kWakesPerBatch,
                   (unsigned long long)batches[i].fastest, (unsigned long long)batches[i].slowest);
            CHECK(batches[i].slowest <= kSlowestOverFastest * batches[i].fastest);
        }
    }
    return check_finish("futex_storm");
}
