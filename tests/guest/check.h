/* Checks for guest test programs (check_core.h). Every program runs on every compute
 * cluster; failures and the result line name the cluster, and the program's exit status
 * (hence the board's) is non-zero if any check failed. */
#ifndef NVX_TEST_CHECK_H
#define NVX_TEST_CHECK_H
#include <nvx/syscall.h>

static inline unsigned check_cluster(void)
{
    struct nvx_info info;
    return nvx_sys_info(&info) == 0 ? info.cluster : ~0u;
}

#define CHECK_WHO "cluster"
#define CHECK_ID check_cluster
#define CHECK_LOCAL
#include "check_core.h"
#endif
