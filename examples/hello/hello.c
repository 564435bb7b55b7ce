/* Hello from every user hart of the cluster: the main thread starts one thread pinned to
 * each other user hart, and every thread prints one line saying where it runs. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvx/syscall.h>
#include <nvx/thread.h>

/* stdout is line buffered and each thread has its own: one line, one write. */
static int say_hello(void)
{
    struct nvx_info info;
    long err = nvx_sys_info(&info);
    if (err < 0) {
        fprintf(stderr, "hello: info: %s\n", strerror((int)-err));
        return 1;
    }
    printf("hello from cluster %u hart %u (local %u) of board %.*s\n", info.cluster,
           info.hart, info.local_hart, (int)sizeof(info.board), info.board);
    return 0;
}

static void *hello_thread(void *unused)
{
    (void)unused;
    return (void *)(intptr_t)say_hello();
}

int main(void)
{
    struct nvx_info info;
    long err = nvx_sys_info(&info);
    if (err < 0) {
        fprintf(stderr, "hello: info: %s\n", strerror((int)-err));
        return 1;
    }

    nvx_thread_t *threads = calloc(info.user_harts, sizeof(*threads));
    if (threads == NULL && info.user_harts != 0) {
        fprintf(stderr, "hello: out of memory\n");
        return 1;
    }
    int status = 0;
    unsigned started = 0;
    for (uint32_t local = info.first_user_hart;
         local < info.first_user_hart + info.user_harts; local++) {
        if (local == info.local_hart)
            continue;
        nvx_thread_attr_t attr = NVX_THREAD_ATTR_INITIALIZER;
        attr.hart = (int)local;
        int create_err = nvx_thread_create(&threads[started], &attr, hello_thread, NULL);
        if (create_err != 0) {
            fprintf(stderr, "hello: no thread on local hart %u: %s\n", local,
                    strerror(create_err));
            status = 1;
            break;
        }
        started++;
    }

    if (say_hello() != 0)
        status = 1;

    for (unsigned i = 0; i < started; i++) {
        void *thread_status = NULL;
        int join_err = nvx_thread_join(threads[i], &thread_status);
        if (join_err != 0) {
            fprintf(stderr, "hello: join: %s\n", strerror(join_err));
            status = 1;
        } else if (thread_status != NULL) {
            status = 1;
        }
    }
    free(threads);
    return status;
}
