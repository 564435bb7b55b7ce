/* A 1.8 MiB image: a 2 MiB compute cluster cannot hold it while receiving it. The spawn
 * client refuses before any byte is sent and the run fails with status 122 (NVX_EXIT_NO_ROOM:
 * the launcher names mppa256-xl), no hang. */
#include <stdio.h>

#define SIZE (1850 * 1024)
__attribute__((used)) char g_data[SIZE] = {1, 2, 3};

int main(void)
{
    volatile char *d = g_data;
    printf("spawn_refused ran (%d): the cluster was expected to refuse it\n", d[0]);
    return 0;
}
