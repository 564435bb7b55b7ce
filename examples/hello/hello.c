/* The demo: every rank the launcher placed on this cluster runs as a thread on its own
 * PE and prints one line saying where it runs. With `-np all` every user hart of every
 * compute cluster says hello. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <nvx/launch.h>
#include <nvx/syscall.h>
#include <nvx/thread.h>

static struct nvx_launch g_launch;

/* stdout is line buffered and each thread has its own: one line, one write. */
static void *say_hello(void *arg)
{
    unsigned slot = (unsigned)(uintptr_t)arg;
    struct nvx_info info;
    if (nvx_sys_info(&info) != 0) return (void *)1;
    printf("hello from rank %u of %u on cluster %u hart %u (local %u) of board %.*s\n", g_launch.rank[slot],
           g_launch.ranks, info.cluster, info.hart, info.local_hart, (int)sizeof(info.board), info.board);
    return 0;
}

int main(void)
{
    struct nvx_info info;
    if (nvx_sys_info(&info) != 0 || nvx_launch_info(&g_launch) != 0) {
        fprintf(stderr, "hello: start me with scripts/nvx-run\n");
        return 1;
    }
    nvx_thread_t threads[NVX_LAUNCH_MAX_HERE];
    int status = 0;
    unsigned started = 0;
    for (; started < g_launch.ranks_here; started++) {
        nvx_thread_attr_t attr = NVX_THREAD_ATTR_INITIALIZER;
        attr.hart = (int)(info.first_user_hart + started);  /* rank i of this cluster on PE i */
        int err = nvx_thread_create(&threads[started], &attr, say_hello, (void *)(uintptr_t)started);
        if (err != 0) {
            fprintf(stderr, "hello: no thread for rank %u: %s\n", g_launch.rank[started], strerror(err));
            status = 1;
            break;
        }
    }
    for (unsigned i = 0; i < started; i++) {
        void *ret = 0;
        if (nvx_thread_join(threads[i], &ret) != 0 || ret != 0) status = 1;
    }
    return status;
}
