// Checks for mputil's guest tests: counters per rank (thread_local, so they also prove
// TLS), one result line per rank: "rank R: NAME: K checks, F failed".
#pragma once
#include <stdio.h>

#include <mputil/mputil.hpp>

static thread_local unsigned t_checks, t_failures;

#define MCHECK(cond)                                                                              \
    do {                                                                                          \
        t_checks++;                                                                               \
        if (!(cond)) {                                                                            \
            t_failures++;                                                                         \
            printf("FAIL rank %d %s:%d: %s\n", mputil::world_rank(), __FILE__, __LINE__, #cond);  \
        }                                                                                         \
    } while (0)

#define MCHECK_EQ(actual, expected)                                                               \
    do {                                                                                          \
        long long a_ = (long long)(actual), e_ = (long long)(expected);                           \
        t_checks++;                                                                               \
        if (a_ != e_) {                                                                           \
            t_failures++;                                                                         \
            printf("FAIL rank %d %s:%d: %s == %lld, expected %lld\n", mputil::world_rank(),       \
                   __FILE__, __LINE__, #actual, a_, e_);                                          \
        }                                                                                         \
    } while (0)

inline int mcheck_finish(const char* test)
{
    printf("rank %d: %s: %u checks, %u failed\n", mputil::world_rank(), test, t_checks, t_failures);
    return t_failures == 0 ? 0 : 1;
}
