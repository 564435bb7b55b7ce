/* Threads: create/join/exit/yield/self, the inherited context word, pinning to every user hart, more threads than
 * harts (yield and preemption), FP state kept per thread across switches. */
#include <nvx/thread.h>
#include <errno.h>
#include <stdint.h>
#include "check.h"

static struct nvx_info g_info;

static void *where_am_i(void *arg)
{
    struct nvx_info info;
    if (nvx_sys_info(&info) != 0) return (void *)-1L;
    return (void *)(long)(info.local_hart == (uint32_t)(long)arg ? 1 : 0);
}

/* FP state must survive yields and migrations: each thread keeps a private sum in
 * registers across many switches and checks it against integer arithmetic. */
static void *fp_worker(void *arg)
{
    long id = (long)arg;
    double x = (double)id + 0.5, sum = 0.0;
    for (int i = 0; i < 200; i++) {
        sum += x;
        if (i % 10 == 0) nvx_thread_yield();
    }
    return (void *)(long)(sum == 200.0 * ((double)id + 0.5) ? 1 : 0);
}

/* The context word: a new thread starts with its creator's; changing it changes only the
 * caller's, and the threads the caller starts afterwards. Returns 1 when all held. */
static int g_context_a, g_context_b;
static void *context_grandchild(void *arg)
{
    (void)arg;
    return (void *)(long)(nvx_thread_context() == &g_context_b);
}

static void *context_child(void *arg)
{
    (void)arg;
    int ok = nvx_thread_context() == &g_context_a;
    nvx_thread_set_context(&g_context_b);
    nvx_thread_t t;
    void *ret = 0;
    ok &= nvx_thread_create(&t, 0, context_grandchild, 0) == 0 && nvx_thread_join(t, &ret) == 0;
    return (void *)(long)(ok && (long)ret == 1 && nvx_thread_context() == &g_context_b);
}

static void *exit_early(void *arg)
{
    nvx_thread_exit((void *)((long)arg * 3));
}

/* Preemption: one more busy thread than harts. Each waits, without yielding, until all
 * have started; only a preempting kernel lets the last one in. */
static volatile uint32_t g_started;
static uint32_t g_busy_threads;
static void *busy(void *arg)
{
    (void)arg;
    __atomic_fetch_add(&g_started, 1, __ATOMIC_SEQ_CST);
    while (__atomic_load_n(&g_started, __ATOMIC_SEQ_CST) < g_busy_threads) {
    }
    return (void *)1L;
}

/* Kernel calls do not renew the quantum: as many threads as user harts call the kernel in
 * a loop; main, queued behind them, must still get a hart to tell them to stop. */
static volatile uint32_t g_callers_started, g_callers_stop;
static void *kernel_caller(void *arg)
{
    (void)arg;
    __atomic_fetch_add(&g_callers_started, 1, __ATOMIC_SEQ_CST);
    long calls = 0;
    while (!__atomic_load_n(&g_callers_stop, __ATOMIC_SEQ_CST)) {
        if (nvx_sys_brk(0) <= 0) return (void *)0L;
        calls++;
    }
    return (void *)(long)(calls > 0);
}

int main(void)
{
    CHECK_EQ(nvx_sys_info(&g_info), 0);
    CHECK(g_info.user_harts >= 1);

    /* one pinned thread per user hart reports the hart it runs on */
    for (uint32_t h = g_info.first_user_hart; h < g_info.first_user_hart + g_info.user_harts; h++) {
        nvx_thread_t t;
        nvx_thread_attr_t attr = {0, (int)h};
        void *ret = 0;
        CHECK_EQ(nvx_thread_create(&t, &attr, where_am_i, (void *)(long)h), 0);
        CHECK_EQ(nvx_thread_join(t, &ret), 0);
        CHECK_EQ((long)ret, 1);
    }

    /* three threads per hart doing FP work with yields */
    enum { kMaxWorkers = 48 };
    uint32_t workers = 3 * g_info.user_harts;
    if (workers > kMaxWorkers) workers = kMaxWorkers;
    nvx_thread_t pool[kMaxWorkers];
    for (uint32_t i = 0; i < workers; i++) CHECK_EQ(nvx_thread_create(&pool[i], 0, fp_worker, (void *)(long)i), 0);
    for (uint32_t i = 0; i < workers; i++) {
        void *ret = 0;
        CHECK_EQ(nvx_thread_join(pool[i], &ret), 0);
        CHECK_EQ((long)ret, 1);
    }

    /* nvx_thread_exit passes its value to join */
    nvx_thread_t t;
    void *ret = 0;
    CHECK_EQ(nvx_thread_create(&t, 0, exit_early, (void *)14L), 0);
    CHECK_EQ(nvx_thread_join(t, &ret), 0);
    CHECK_EQ((long)ret, 42);

    /* the inherited context word */
    CHECK(nvx_thread_context() == 0);
    nvx_thread_set_context(&g_context_a);
    CHECK_EQ(nvx_thread_create(&t, 0, context_child, 0), 0);
    CHECK_EQ(nvx_thread_join(t, &ret), 0);
    CHECK_EQ((long)ret, 1);
    CHECK(nvx_thread_context() == &g_context_a);
    nvx_thread_set_context(0);

    /* self and yield */
    CHECK(nvx_thread_self() != 0);
    CHECK_EQ(nvx_thread_yield(), 0);
    CHECK(nvx_sys_thread_self() >= 0);

    /* preemption: user_harts + 1 busy threads (main blocks in join meanwhile) */
    g_busy_threads = g_info.user_harts + 1;
    if (g_busy_threads > kMaxWorkers) g_busy_threads = kMaxWorkers;
    for (uint32_t i = 0; i < g_busy_threads; i++) CHECK_EQ(nvx_thread_create(&pool[i], 0, busy, 0), 0);
    for (uint32_t i = 0; i < g_busy_threads; i++) {
        CHECK_EQ(nvx_thread_join(pool[i], &ret), 0);
        CHECK_EQ((long)ret, 1);
    }

    /* preemption of threads that call the kernel all the time */
    uint32_t callers = g_info.user_harts;
    if (callers > kMaxWorkers) callers = kMaxWorkers;
    for (uint32_t i = 0; i < callers; i++) CHECK_EQ(nvx_thread_create(&pool[i], 0, kernel_caller, 0), 0);
    while (__atomic_load_n(&g_callers_started, __ATOMIC_SEQ_CST) < callers) nvx_thread_yield();
    __atomic_store_n(&g_callers_stop, 1, __ATOMIC_SEQ_CST);  /* main ran again: it was not starved */
    for (uint32_t i = 0; i < callers; i++) {
        CHECK_EQ(nvx_thread_join(pool[i], &ret), 0);
        CHECK_EQ((long)ret, 1);
    }
    return check_finish("threads");
}
