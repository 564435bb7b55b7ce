/* The virtual clock (nvx/clock.h): every mode runs on every compute cluster.
 *   virtual   a loop of K instructions measures K cycles (two K), a reading costs at most its
 *             call; a workload measures the same time when it reads the clock 1,000 times
 *             or makes 1,000 clock calls (kernel calls of the clock's code)
 *             more (the clock's code is the simulator's, NVX_MODEL_CODE); the clock stays
 *             monotonic per thread while threads yield and migrate between harts; the clock
 *             pages are read-only
 *   parallel  the same loop on every user hart at once takes what it takes on one hart
 *             alone, within 2 % (mppa256: 256 harts on a 2-core host)
 *   wall      under --clock wall the calls still work: not virtual, the board clock in
 *             cycles, monotonic; the pages are still read-only */
#include <nvx/clock.h>
#include <nvx/sync.h>
#include <nvx/thread.h>
#include <stdint.h>
#include <string.h>
#include "check.h"

enum { kStorePageFault = 15 };
#define MAX_HARTS 64

/* Exactly 2 x n instructions between the two readings, plus the readings' own constant. */
static uint64_t timed_loop(uint64_t n)
{
    uint64_t start = nvx_clock_cycles();
    __asm__ volatile("1: addi %0, %0, -1\n\tbnez %0, 1b" : "+r"(n));
    return nvx_clock_cycles() - start;
}

static uint32_t user_harts(void)
{
    struct nvx_info info;
    return nvx_sys_info(&info) == 0 ? info.user_harts : 0;
}

static int spawn_on(nvx_thread_t *t, int hart, void *(*fn)(void *), void *arg)
{
    nvx_thread_attr_t attr = NVX_THREAD_ATTR_INITIALIZER;
    attr.hart = hart;
    return nvx_thread_create(t, &attr, fn, arg);
}

/* --- K instructions measure K cycles, on a hart of its own --- */
struct loop_result {
    uint64_t small, large;
};

/* The least of three: an interrupt that lands in the loop (a late IPI of an earlier
 * dispatch) is work the hart really does, but not the loop's. */
static uint64_t least_of_3(uint64_t n)
{
    uint64_t least = UINT64_MAX;
    for (int i = 0; i < 3; i++) {
        uint64_t took = timed_loop(n);
        if (took < least) least = took;
    }
    return least;
}

static void *loops(void *arg)
{
    struct loop_result *r = arg;
    r->small = least_of_3(100000);
    r->large = least_of_3(1000000);
    return 0;
}

static void check_loop_counts(void)
{
    struct loop_result r;
    nvx_thread_t t;
    CHECK_EQ(spawn_on(&t, 1, loops, &r), 0);
    CHECK_EQ(nvx_thread_join(t, 0), 0);
    int64_t overhead_small = (int64_t)r.small - 200000, overhead_large = (int64_t)r.large - 2000000;
    printf("clock: 200000 instructions took %llu cycles, 2000000 took %llu\n", (unsigned long long)r.small,
           (unsigned long long)r.large);
    CHECK(overhead_small >= 0 && overhead_small <= 4); /* the calls and a subtraction */
    CHECK(overhead_large >= 0 && overhead_large <= 4);
    CHECK_EQ(overhead_large, overhead_small); /* the readings cost the same each time */
}

/* --- reading the clock costs the modeled core nothing --- */
enum { kWorkloadRounds = 1000 };

/* The cheapest function a round could call instead of the clock: two instructions. */
__attribute__((noinline)) static uint64_t no_reading(void)
{
    return 0;
}

/* The same rounds of work, each calling `read` once; the least of three runs. */
static uint64_t workload(uint64_t (*volatile read)(void))
{
    uint64_t least = UINT64_MAX;
    for (int run = 0; run < 3; run++) {
        uint64_t start = nvx_clock_cycles(), sink = 0;
        for (int i = 0; i < kWorkloadRounds; i++) {
            uint64_t n = 100;
            __asm__ volatile("1: addi %0, %0, -1\n\tbnez %0, 1b" : "+r"(n));
            sink += read();
        }
        __asm__ volatile("" ::"r"(sink));
        uint64_t took = nvx_clock_cycles() - start;
        if (took < least) least = took;
    }
    return least;
}

/* The same call of the clock's code twice over, once entering the kernel and once not
 * (nvx_clock_serve always enters it, nvx_clock_take does not for a stamp long past; neither
 * moves any time): the kernel call's trap entry, kernel side and return are the clock's. */
__attribute__((noinline)) static uint64_t clock_no_call(void)
{
    nvx_clock_take(0);
    return 0;
}

__attribute__((noinline)) static uint64_t clock_call(void)
{
    nvx_clock_serve(0);
    return 0;
}

static void *reading_rounds(void *arg)
{
    uint64_t *took = arg;
    took[0] = workload(no_reading);
    took[1] = workload(nvx_clock_cycles);
    took[2] = workload(clock_no_call);
    took[3] = workload(clock_call);
    return 0;
}

static void check_reading_is_free(void)
{
    uint64_t took[4];
    nvx_thread_t t;
    CHECK_EQ(spawn_on(&t, 1, reading_rounds, took), 0);
    CHECK_EQ(nvx_thread_join(t, 0), 0);
    printf("clock: %d rounds took %llu cycles calling an empty function, %llu reading the clock\n", kWorkloadRounds,
           (unsigned long long)took[0], (unsigned long long)took[1]);
    /* Each reading costs no more than the empty call's two instructions would. */
    CHECK(took[1] + 2 * kWorkloadRounds <= took[0]);
    printf("clock: %d rounds took %llu cycles calling the clock's code, %llu when it enters the kernel\n",
           kWorkloadRounds, (unsigned long long)took[2], (unsigned long long)took[3]);
    CHECK_EQ(took[3], took[2]);
}

/* --- monotonic per thread while threads yield and move between harts --- */
enum { kRounds = 300 };
struct walker {
    int went_back;
    unsigned moves;
};

static void *walk(void *arg)
{
    struct walker *w = arg;
    struct nvx_info info;
    uint64_t last = nvx_clock_cycles();
    uint32_t hart = nvx_sys_info(&info) == 0 ? info.local_hart : 0;
    for (int i = 0; i < kRounds; i++) {
        uint64_t n = 50 + (uint64_t)i % 7 * 300; /* uneven work, so harts drift apart */
        __asm__ volatile("1: addi %0, %0, -1\n\tbnez %0, 1b" : "+r"(n));
        if (i % 3 != 0) nvx_thread_yield();
        uint64_t now = nvx_clock_cycles();
        if (now < last) w->went_back++;
        last = now;
        if (nvx_sys_info(&info) == 0 && info.local_hart != hart) {
            w->moves++;
            hart = info.local_hart;
        }
    }
    return 0;
}

static void check_monotonic(void)
{
    enum { kWalkers = 12 };
    struct walker w[kWalkers];
    nvx_thread_t t[kWalkers];
    memset(w, 0, sizeof w);
    for (int i = 0; i < kWalkers; i++) CHECK_EQ(spawn_on(&t[i], NVX_THREAD_ANY_HART, walk, &w[i]), 0);
    unsigned moves = 0;
    for (int i = 0; i < kWalkers; i++) {
        CHECK_EQ(nvx_thread_join(t[i], 0), 0);
        CHECK_EQ(w[i].went_back, 0);
        moves += w[i].moves;
    }
    printf("clock: %d threads, %u moves between harts, monotonic\n", kWalkers, moves);
    if (user_harts() > 1) CHECK(moves > 0); /* the check above saw migrations */
}

/* --- the clock pages are read-only to user space --- */
static void *store_counters(void *a) { (void)a; *(volatile uint64_t *)NVX_USER_CLOCK_COUNTERS = 0; return 0; }
static void *store_cluster(void *a) { (void)a; *(volatile uint64_t *)NVX_USER_CLOCK_CLUSTER = 0; return 0; }
static void *store_live(void *a)
{
    (void)a;
    ((volatile struct nvx_clock_counters *)NVX_USER_CLOCK_COUNTERS)->live = 0;
    return 0;
}

static void check_read_only(void)
{
    void *(*writers[])(void *) = {store_counters, store_cluster, store_live};
    for (unsigned i = 0; i < sizeof writers / sizeof writers[0]; i++) {
        nvx_thread_t t;
        struct nvx_thread_status st = {99, 99};
        CHECK_EQ(nvx_thread_create(&t, 0, writers[i], 0), 0);
        CHECK_EQ(nvx_thread_join_status(t, &st), 0);
        CHECK_EQ(st.how, NVX_THREAD_KILLED);
        CHECK_EQ(st.value, kStorePageFault);
    }
}

/* --- every user hart at once --- */
struct parallel {
    nvx_barrier_t start;
    uint64_t took[MAX_HARTS];
};

static struct parallel g_par;

static void *parallel_loop(void *arg)
{
    uintptr_t hart = (uintptr_t)arg;
    nvx_barrier_wait(&g_par.start);
    g_par.took[hart] = timed_loop(1000000);
    return 0;
}

static void check_parallel(void)
{
    uint32_t harts = user_harts();
    CHECK(harts >= 1 && harts < MAX_HARTS);
    if (harts < 1 || harts >= MAX_HARTS) return;
    struct loop_result alone;
    nvx_thread_t t[MAX_HARTS];
    CHECK_EQ(spawn_on(&t[0], 1, loops, &alone), 0);
    CHECK_EQ(nvx_thread_join(t[0], 0), 0);
    CHECK_EQ(nvx_barrier_init(&g_par.start, harts), 0);
    for (uint32_t h = 1; h <= harts; h++) CHECK_EQ(spawn_on(&t[h - 1], (int)h, parallel_loop, (void *)(uintptr_t)h), 0);
    uint64_t low = UINT64_MAX, high = 0;
    for (uint32_t h = 1; h <= harts; h++) {
        CHECK_EQ(nvx_thread_join(t[h - 1], 0), 0);
        uint64_t d = g_par.took[h];
        uint64_t diff = d > alone.large ? d - alone.large : alone.large - d;
        CHECK(diff * 50 <= alone.large); /* within 2 % */
        if (d < low) low = d;
        if (d > high) high = d;
    }
    printf("clock: alone %llu cycles; %u harts at once: %llu .. %llu cycles\n", (unsigned long long)alone.large, harts,
           (unsigned long long)low, (unsigned long long)high);
}

/* --- the calls under the wall clock --- */
static void check_wall(void)
{
    CHECK_EQ(nvx_clock_is_virtual(), 0);
    uint64_t hz = nvx_clock_hz();
    CHECK(hz >= NVX_TIMER_HZ && nvx_clock_seconds(hz) == 1.0);
    uint64_t before = nvx_clock_cycles();
    /* a 10 ms sleep: the board clock moves at least that far (a lower bound only) */
    CHECK_EQ(nvx_thread_sleep_until(nvx_rdtime() + NVX_TIMER_HZ / 100), 0);
    uint64_t after = nvx_clock_cycles();
    CHECK(after >= before + hz / 100);
    double seconds = nvx_clock_seconds(after) - nvx_clock_seconds(before);
    CHECK(seconds >= 0.01);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "virtual";
    if (strcmp(mode, "virtual") == 0) {
        CHECK_EQ(nvx_clock_is_virtual(), 1);
        CHECK(nvx_clock_hz() >= NVX_TIMER_HZ && nvx_clock_seconds(nvx_clock_hz()) == 1.0);
        check_loop_counts();
        check_reading_is_free();
        check_monotonic();
        check_read_only();
    } else if (strcmp(mode, "parallel") == 0) {
        CHECK_EQ(nvx_clock_is_virtual(), 1);
        check_parallel();
    } else if (strcmp(mode, "wall") == 0) {
        check_wall();
        check_monotonic();
        check_read_only();
    } else {
        CHECK(!"unknown mode (virtual, parallel or wall)");
    }
    return check_finish("clock");
}
