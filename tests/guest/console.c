/* Console: every user hart of every cluster prints long lines at once; the runner checks
 * that each line reached the host whole (never interleaved mid-line). */
#include <string.h>
#include <nvx/thread.h>
#include "check.h"

enum { kLines = 20, kWidth = 150 };

static void *talk(void *arg)
{
    unsigned who = (unsigned)(uintptr_t)arg;
    char body[kWidth + 1];
    memset(body, 'a' + (int)(who % 26), kWidth);
    body[kWidth] = '\0';
    for (int i = 0; i < kLines; i++) printf("console %u.%u.%d [%s] end\n", check_cluster(), who, i, body);
    return 0;
}

int main(void)
{
    struct nvx_info info;
    CHECK_EQ(nvx_sys_info(&info), 0);
    nvx_thread_t t[32];
    unsigned n = info.user_harts < 32 ? info.user_harts : 32;
    for (unsigned i = 0; i < n; i++) {
        nvx_thread_attr_t attr = {8192, (int)(info.first_user_hart + i)};
        CHECK_EQ(nvx_thread_create(&t[i], &attr, talk, (void *)(uintptr_t)i), 0);
    }
    for (unsigned i = 0; i < n; i++) CHECK_EQ(nvx_thread_join(t[i], 0), 0);
    return check_finish("console");
}
