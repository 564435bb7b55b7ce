/* exit() from a secondary thread ends the whole program, even while the main thread is
 * blocked in join, and the status reaches the host. */
#include <nvx/thread.h>
#include <stdlib.h>
#include <stdio.h>

static void *quit(void *arg)
{
    (void)arg;
    printf("exit_code: calling exit(7) from a secondary thread\n");
    exit(7);
}

int main(void)
{
    nvx_thread_t t;
    if (nvx_thread_create(&t, 0, quit, 0) != 0) return 1;
    nvx_thread_join(t, 0);
    printf("FAIL exit_code: join returned after exit()\n");
    return 2;
}
