/* Checks for guest test programs. Every program runs on every compute cluster; each
 * failed check prints a FAIL line naming the cluster and the condition, and the program's
 * exit status (hence the board's) is non-zero if any check failed. */
#ifndef NVX_TEST_CHECK_H
#define NVX_TEST_CHECK_H
#include <stdio.h>
#include <nvx/syscall.h>

static unsigned check_failures;
static unsigned check_count;

static inline unsigned check_cluster(void)
{
    struct nvx_info info;
    return nvx_sys_info(&info) == 0 ? info.cluster : ~0u;
}

#define CHECK(cond)                                                                    \
    do {                                                                               \
        check_count++;                                                                 \
        if (!(cond)) {                                                                 \
            check_failures++;                                                          \
            printf("FAIL cluster %u %s:%d: %s\n", check_cluster(), __FILE__, __LINE__, #cond); \
        }                                                                              \
    } while (0)

#define CHECK_EQ(actual, expected)                                                     \
    do {                                                                               \
        long long a_ = (long long)(actual), e_ = (long long)(expected);                \
        check_count++;                                                                 \
        if (a_ != e_) {                                                                \
            check_failures++;                                                          \
            printf("FAIL cluster %u %s:%d: %s == %lld, expected %lld\n", check_cluster(), \
                   __FILE__, __LINE__, #actual, a_, e_);                               \
        }                                                                              \
    } while (0)

/* Prints the per-cluster summary line and returns the exit status. */
static inline int check_finish(const char *test)
{
    printf("cluster %u: %s: %u checks, %u failed\n", check_cluster(), test, check_count, check_failures);
    return check_failures == 0 ? 0 : 1;
}
#endif
