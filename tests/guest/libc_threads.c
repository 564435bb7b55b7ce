/* The C library in threads: a thread whose first printf or rand() comes while the heap is
 * exhausted still works (the streams are the program's, rand()'s state was had with the
 * thread), and threads that print and exit leave no memory behind. */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvx/sync.h>
#include <nvx/thread.h>

#include "../mpi_suite/heap_exhaust.h"
#include "check.h"

static nvx_mutex_t g_gate;

/* Waits at the gate (held by main while it takes the heap), then uses the C library for
 * the first time in this thread. */
static void *first_use_without_memory(void *arg)
{
    (void)arg;
    nvx_mutex_lock(&g_gate);
    nvx_mutex_unlock(&g_gate);
    char text[64];
    int ok = snprintf(text, sizeof text, "%d %s %lx", -42, "x", 255ul) > 0 && strcmp(text, "-42 x ff") == 0;
    srand(7);
    int r = rand();
    ok &= r >= 0 && r <= RAND_MAX;
    ok &= printf("libc_threads: a thread's first printf with the heap exhausted\n") > 0;
    ok &= fflush(stdout) == 0;
    return (void *)(long)ok;
}

static void *print_and_exit(void *arg)
{
    printf("libc_threads: thread %ld prints %.1f\n", (long)arg, (double)(long)arg / 2);
    return (void *)(long)(rand() >= 0);
}

int main(void)
{
    CHECK_EQ(nvx_mutex_init(&g_gate), 0);
    CHECK_EQ(nvx_mutex_lock(&g_gate), 0);
    nvx_thread_t t;
    CHECK_EQ(nvx_thread_create(&t, 0, first_use_without_memory, 0), 0);
    struct block *hoard = take_all_memory();
    CHECK(hoard != NULL);
    CHECK_EQ(nvx_mutex_unlock(&g_gate), 0);
    void *ret = 0;
    CHECK_EQ(nvx_thread_join(t, &ret), 0);
    CHECK_EQ((long)ret, 1);
    give_back(hoard);

    /* Thread churn: after a first round (the heap's own bookkeeping settles), the heap in
     * use is the same whatever the number of threads that came and went. */
    size_t in_use[3];
    for (int round = 0; round < 3; round++) {
        for (long i = 0; i < 16; i++) {
            CHECK_EQ(nvx_thread_create(&t, 0, print_and_exit, (void *)i), 0);
            CHECK_EQ(nvx_thread_join(t, &ret), 0);
            CHECK_EQ((long)ret, 1);
        }
        in_use[round] = mallinfo().uordblks;
    }
    CHECK_EQ(in_use[2], in_use[1]);
    return check_finish("libc_threads");
}
