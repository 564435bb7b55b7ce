/* Stress: twice as many threads as user harts hammer malloc/free (heap growth on one
 * hart while others run), a shared mutex and futex-backed semaphores, with checksums. */
#include <nvx/thread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

enum { kRounds = 300, kMaxThreads = 40, kMaxBlock = 2048 };

static nvx_mutex_t g_lock = NVX_MUTEX_INITIALIZER;
static uint64_t g_total;
static nvx_sem_t g_tokens;

static uint32_t next_random(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state >> 8;
}

static void *worker(void *arg)
{
    uint32_t seed = (uint32_t)(uintptr_t)arg * 2654435761u + 1;
    uint8_t *blocks[4] = {0};
    size_t sizes[4] = {0};
    long bad = 0;
    for (int r = 0; r < kRounds; r++) {
        int slot = r % 4;
        if (blocks[slot]) {
            uint8_t expect = (uint8_t)(sizes[slot] ^ slot);
            for (size_t i = 0; i < sizes[slot]; i++) bad += blocks[slot][i] != expect;
            free(blocks[slot]);
        }
        sizes[slot] = 1 + next_random(&seed) % kMaxBlock;
        blocks[slot] = malloc(sizes[slot]);
        if (!blocks[slot]) return (void *)-1L;
        memset(blocks[slot], (uint8_t)(sizes[slot] ^ slot), sizes[slot]);

        nvx_sem_wait(&g_tokens);
        nvx_mutex_lock(&g_lock);
        g_total += (uint64_t)r;
        nvx_mutex_unlock(&g_lock);
        nvx_sem_post(&g_tokens);
        if (r % 50 == 0) nvx_thread_yield();
    }
    for (int s = 0; s < 4; s++) free(blocks[s]);
    return (void *)bad;
}

int main(void)
{
    struct nvx_info info;
    CHECK_EQ(nvx_sys_info(&info), 0);
    unsigned threads = 2 * info.user_harts;
    if (threads > kMaxThreads) threads = kMaxThreads;
    CHECK_EQ(nvx_sem_init(&g_tokens, 2), 0); /* at most two threads in the mutex section */
    nvx_thread_t t[kMaxThreads];
    nvx_thread_attr_t attr = {8192, NVX_THREAD_ANY_HART};
    for (unsigned i = 0; i < threads; i++) CHECK_EQ(nvx_thread_create(&t[i], &attr, worker, (void *)(uintptr_t)i), 0);
    for (unsigned i = 0; i < threads; i++) {
        void *ret = (void *)-2L;
        CHECK_EQ(nvx_thread_join(t[i], &ret), 0);
        CHECK_EQ((long)ret, 0);
    }
    CHECK_EQ(g_total, (uint64_t)threads * kRounds * (kRounds - 1) / 2);
    return check_finish("stress");
}
