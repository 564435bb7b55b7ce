/* A program too large for its cluster: exec fails after the system program is gone; the
 * kernel names the sizes and restarts the system program, which reports status 122
 * (NVX_EXIT_NO_ROOM), and the run fails. */
#include <stdio.h>

static char g_big[8 << 20];

int main(void)
{
    g_big[0] = 1;
    printf("FAIL exec_fail: an 8 MiB program ran on a cluster that cannot hold it\n");
    return g_big[0];
}
