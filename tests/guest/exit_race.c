/* exit() while more threads than harts keep yielding and touching fresh pages: every
 * thread must be gone before the program's memory is handed to the next program (a
 * straggler would fault in, or write into, the next program's pages). Runner: the run
 * succeeds and no "killed" report appears. */
#include <stdlib.h>
#include <nvx/syscall.h>
#include <nvx/thread.h>

enum { kPages = 300, kThreads = 12 };
static char g_pages[kPages][4096];
static unsigned g_next_page, g_rounds;

static void *player(void *arg)
{
    (void)arg;
    for (;;) {
        nvx_thread_yield();
        for (int k = 0; k < 40; k++) {
            unsigned p = __atomic_fetch_add(&g_next_page, 1, __ATOMIC_RELAXED);
            g_pages[p % kPages][p % 4000] = 1;
        }
        __atomic_fetch_add(&g_rounds, 1, __ATOMIC_RELAXED);
    }
    return 0;
}

int main(void)
{
    nvx_thread_t t[kThreads];
    for (int i = 0; i < kThreads; i++)
        if (nvx_thread_create(&t[i], 0, player, 0) != 0) return 1;
    while (__atomic_load_n(&g_rounds, __ATOMIC_RELAXED) < 100) nvx_thread_yield();
    exit(0);
}
