/* Blocking primitives over futexes: mutex, condition variable, barrier, semaphore,
 * under contention from more threads than harts, plus their error paths; waits of threads
 * pinned to a hart (the kernel parks them there), alone or sharing that hart. */
#include <nvx/thread.h>
#include <errno.h>
#include <stdint.h>
#include "check.h"

enum { kThreads = 8, kIncrements = 2000, kRounds = 20, kItems = 500, kSlots = 4 };

static nvx_mutex_t g_lock = NVX_MUTEX_INITIALIZER;
static long g_counter;

static void *add_many(void *arg)
{
    (void)arg;
    for (int i = 0; i < kIncrements; i++) {
        nvx_mutex_lock(&g_lock);
        long v = g_counter;
        if (i % 64 == 0) nvx_thread_yield(); /* hold the lock across a switch */
        g_counter = v + 1;
        nvx_mutex_unlock(&g_lock);
    }
    return 0;
}

/* bounded buffer: producer and consumer meet through two condition variables */
static nvx_mutex_t g_buf_lock = NVX_MUTEX_INITIALIZER;
static nvx_cond_t g_not_empty = NVX_COND_INITIALIZER, g_not_full = NVX_COND_INITIALIZER;
static int g_buf[kSlots], g_head, g_count;

static void *producer(void *arg)
{
    (void)arg;
    for (int i = 1; i <= kItems; i++) {
        nvx_mutex_lock(&g_buf_lock);
        while (g_count == kSlots) nvx_cond_wait(&g_not_full, &g_buf_lock);
        g_buf[(g_head + g_count) % kSlots] = i;
        g_count++;
        nvx_cond_signal(&g_not_empty);
        nvx_mutex_unlock(&g_buf_lock);
    }
    return 0;
}

static void *consumer(void *arg)
{
    long sum = 0, expected_next = 1, in_order = 1;
    (void)arg;
    for (int i = 0; i < kItems; i++) {
        nvx_mutex_lock(&g_buf_lock);
        while (g_count == 0) nvx_cond_wait(&g_not_empty, &g_buf_lock);
        int v = g_buf[g_head];
        g_head = (g_head + 1) % kSlots;
        g_count--;
        nvx_cond_signal(&g_not_full);
        nvx_mutex_unlock(&g_buf_lock);
        if (v != expected_next++) in_order = 0;
        sum += v;
    }
    return (void *)(in_order ? sum : -1);
}

static nvx_barrier_t g_barrier;
static uint32_t g_phase_hits[kRounds];
static void *barrier_worker(void *arg)
{
    long serial = 0, ok = 1;
    (void)arg;
    for (int r = 0; r < kRounds; r++) {
        __atomic_fetch_add(&g_phase_hits[r], 1, __ATOMIC_SEQ_CST);
        int rc = nvx_barrier_wait(&g_barrier);
        if (rc == NVX_BARRIER_SERIAL_THREAD) serial++;
        else if (rc != 0) ok = 0;
        /* after the barrier every thread has arrived in this round */
        if (__atomic_load_n(&g_phase_hits[r], __ATOMIC_SEQ_CST) != kThreads) ok = 0;
        nvx_barrier_wait(&g_barrier);
    }
    return (void *)(ok ? serial : -1);
}

static nvx_sem_t g_sem;
static nvx_sem_t g_done;
static void *sem_worker(void *arg)
{
    (void)arg;
    nvx_sem_wait(&g_sem);
    nvx_sem_post(&g_done);
    return 0;
}

/* A ring of threads pinned to harts, each waiting for its predecessor's post: a wait
 * parks its thread on its hart, and a thread pinned to a hart whose thread is parked must
 * still run there (the parked one gives the hart up). */
enum { kRing = 4, kLaps = 200 };
static nvx_sem_t g_ring[kRing];
static long g_ring_turns[kRing];

static void *ring_member(void *arg)
{
    long i = (long)arg;
    for (int lap = 0; lap < kLaps; lap++) {
        if (nvx_sem_wait(&g_ring[i]) != 0) return (void *)-1;
        g_ring_turns[i]++;
        if (nvx_sem_post(&g_ring[(i + 1) % kRing]) != 0) return (void *)-1;
    }
    return 0;
}

/* kRing threads on harts chosen by `hart_of`, once around the ring kLaps times. */
static void run_ring(int (*hart_of)(int i, int user_harts, int first))
{
    struct nvx_info info;
    CHECK_EQ(nvx_sys_info(&info), 0);
    nvx_thread_t t[kRing];
    for (int i = 0; i < kRing; i++) {
        CHECK_EQ(nvx_sem_init(&g_ring[i], 0), 0);
        g_ring_turns[i] = 0;
    }
    for (int i = 0; i < kRing; i++) {
        nvx_thread_attr_t attr = NVX_THREAD_ATTR_INITIALIZER;
        attr.hart = hart_of(i, (int)info.user_harts, (int)info.first_user_hart);
        CHECK_EQ(nvx_thread_create(&t[i], &attr, ring_member, (void *)(long)i), 0);
    }
    CHECK_EQ(nvx_sem_post(&g_ring[0]), 0);
    for (int i = 0; i < kRing; i++) {
        void *ret = (void *)1;
        CHECK_EQ(nvx_thread_join(t[i], &ret), 0);
        CHECK_EQ((long)ret, 0L);
        CHECK_EQ(g_ring_turns[i], (long)kLaps);
    }
    int last = -1;
    CHECK_EQ(nvx_sem_getvalue(&g_ring[0], &last), 0);
    CHECK_EQ(last, 1); /* the last member's final post */
}

static int one_hart(int i, int user_harts, int first) { (void)i; (void)user_harts; return first; }
static int own_hart(int i, int user_harts, int first) { return first + i % user_harts; }

int main(void)
{
    nvx_thread_t t[kThreads];
    void *ret;

    run_ring(own_hart);  /* parked waits woken from other harts */
    run_ring(one_hart);  /* every member on one hart: each wait must give the hart up */

    for (int i = 0; i < kThreads; i++) CHECK_EQ(nvx_thread_create(&t[i], 0, add_many, 0), 0);
    for (int i = 0; i < kThreads; i++) CHECK_EQ(nvx_thread_join(t[i], 0), 0);
    CHECK_EQ(g_counter, (long)kThreads * kIncrements);

    CHECK_EQ(nvx_thread_create(&t[0], 0, consumer, 0), 0);
    CHECK_EQ(nvx_thread_create(&t[1], 0, producer, 0), 0);
    CHECK_EQ(nvx_thread_join(t[1], 0), 0);
    CHECK_EQ(nvx_thread_join(t[0], &ret), 0);
    CHECK_EQ((long)ret, (long)kItems * (kItems + 1) / 2);

    CHECK_EQ(nvx_barrier_init(&g_barrier, kThreads), 0);
    for (int i = 0; i < kThreads; i++) CHECK_EQ(nvx_thread_create(&t[i], 0, barrier_worker, 0), 0);
    long serials = 0;
    for (int i = 0; i < kThreads; i++) {
        CHECK_EQ(nvx_thread_join(t[i], &ret), 0);
        CHECK((long)ret >= 0);
        serials += (long)ret;
    }
    CHECK_EQ(serials, kRounds); /* exactly one serial thread per round */

    CHECK_EQ(nvx_sem_init(&g_sem, 0), 0);
    CHECK_EQ(nvx_sem_init(&g_done, 0), 0);
    for (int i = 0; i < kThreads; i++) CHECK_EQ(nvx_thread_create(&t[i], 0, sem_worker, 0), 0);
    CHECK_EQ(nvx_sem_trywait(&g_done), EAGAIN);
    for (int i = 0; i < kThreads; i++) CHECK_EQ(nvx_sem_post(&g_sem), 0);
    for (int i = 0; i < kThreads; i++) CHECK_EQ(nvx_sem_wait(&g_done), 0);
    for (int i = 0; i < kThreads; i++) CHECK_EQ(nvx_thread_join(t[i], 0), 0);
    int value = -1;
    CHECK_EQ(nvx_sem_getvalue(&g_sem, &value), 0);
    CHECK_EQ(value, 0);

    /* error paths */
    nvx_mutex_t m = NVX_MUTEX_INITIALIZER;
    CHECK_EQ(nvx_mutex_unlock(&m), EPERM);
    CHECK_EQ(nvx_mutex_lock(&m), 0);
    CHECK_EQ(nvx_mutex_lock(&m), EDEADLK);
    CHECK_EQ(nvx_mutex_trylock(&m), EBUSY);
    CHECK_EQ(nvx_mutex_destroy(&m), EBUSY);
    CHECK_EQ(nvx_mutex_unlock(&m), 0);
    CHECK_EQ(nvx_mutex_destroy(&m), 0);
    nvx_barrier_t b;
    CHECK_EQ(nvx_barrier_init(&b, 0), EINVAL);
    nvx_sem_t s;
    CHECK_EQ(nvx_sem_init(&s, NVX_SEM_VALUE_MAX + 1u), EINVAL);
    nvx_cond_t c = NVX_COND_INITIALIZER;
    CHECK_EQ(nvx_cond_wait(&c, &m), EPERM);
    return check_finish("sync");
}
