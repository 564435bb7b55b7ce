/* The main thread faults while another thread sleeps on a futex nobody will wake: the
 * crash still ends the program (128 + cause = 141), it does not hang. */
#include <stdint.h>
#include <stdio.h>
#include <nvx/syscall.h>
#include <nvx/thread.h>

static uint32_t g_word;

static void *waiter(void *arg)
{
    (void)arg;
    while (__atomic_load_n(&g_word, __ATOMIC_ACQUIRE) == 0) nvx_sys_futex_wait(&g_word, 0);
    return 0;
}

int main(void)
{
    nvx_thread_t t;
    if (nvx_thread_create(&t, 0, waiter, 0) != 0) return 1;
    printf("main_fault_blocked: faulting with a waiter asleep\n");
    fflush(stdout);
    return *(volatile int *)0;
}
