/* Idle harts stay asleep. First more threads than user harts compute in rounds, so that the
 * preemption tick runs, fires while threads wait and stops when they are done (the path of
 * a tick that fired while a thread waited). Then the main thread computes alone over WINDOWS windows marked
 * on the instruction counter (nvx/icount_mark.h); the test runner's `quiet` check reads the
 * counter: the board goes quiet and stays quiet: from some window on, no other hart (user
 * harts, kernel cores, other clusters) executes an instruction and this hart runs user code
 * only; before it, a hart may only finish what was sent to it before the windows (a pass of
 * the kernel core's loop, an IPI a descheduled vCPU takes late), a bounded tail. A hart that
 * keeps waking (a tick left running) shows in every window. Run with -np 1. */
#include <stdint.h>

#include <nvx/thread.h>

#include <nvx/icount_mark.h>
#include "check.h"

enum { ROUNDS = 4, THREADS_PER_HART = 2, WINDOWS = 4, WINDOW_STEPS = 4000000 };

/* Pure user work whose result the caller checks, so the compiler keeps it. */
static uint64_t work(uint64_t steps, uint64_t seed)
{
    uint64_t x = seed;
    for (uint64_t i = 0; i < steps; i++) x = x * 6364136223846793005ull + 1442695040888963407ull;
    return x;
}

static uint64_t reference(uint64_t steps, uint64_t seed)
{
    /* The same recurrence, folded: x_n = a^n x_0 + c (a^n - 1) / (a - 1), by squaring. */
    uint64_t a = 6364136223846793005ull, c = 1442695040888963407ull;
    uint64_t mul = 1, add = 0;  /* the map x -> mul x + add applied so far */
    uint64_t pa = a, pc = c;    /* the map applied 2^k times */
    for (uint64_t n = steps; n != 0; n >>= 1) {
        if (n & 1) {
            mul = mul * pa;
            add = add * pa + pc;
        }
        pc = pc * pa + pc;
        pa = pa * pa;
    }
    return mul * seed + add;
}

static void *busy(void *arg)
{
    uint64_t steps = (uintptr_t)arg;
    return (void *)(uintptr_t)(work(steps, steps) == reference(steps, steps));
}

int main(void)
{
    struct nvx_info info;
    CHECK_EQ(nvx_sys_info(&info), 0);
    unsigned threads = info.user_harts * THREADS_PER_HART;
    nvx_thread_t pool[64];
    if (threads > sizeof pool / sizeof pool[0]) threads = sizeof pool / sizeof pool[0];
    for (unsigned round = 0; round < ROUNDS; round++) {
        for (unsigned i = 0; i < threads; i++) {
            uintptr_t steps = 200000 + 150000 * ((i * 7 + round * 3) % 11);  /* uneven ends */
            CHECK_EQ(nvx_thread_create(&pool[i], 0, busy, (void *)steps), 0);
        }
        for (unsigned i = 0; i < threads; i++) {
            void *ok = 0;
            CHECK_EQ(nvx_thread_join(pool[i], &ok), 0);
            CHECK(ok == (void *)1);
        }
    }

    /* The windows start at once: how long the host takes to run the kernel core's last pass
     * (its vCPU may be descheduled) is wall time, which the check does not guess at. */
    nvx_icount_mark();
    for (uint64_t w = 0; w < WINDOWS; w++) {
        uint64_t x = work(WINDOW_STEPS, 42 + w);
        nvx_icount_mark();
        CHECK(x == reference(WINDOW_STEPS, 42 + w));
    }
    return check_finish("idle");
}
