/* The one check mechanism of the guest tests (C and C++). A failed check prints
 * "FAIL <who> <id> FILE:LINE: ..."; check_finish() prints the result line
 * "<who> <id>: NAME: K checks, F failed" that scripts/run-guest-tests.sh parses and
 * returns the exit status. The includer first defines CHECK_WHO (the reporter's word:
 * "cluster", "rank"), CHECK_ID() (its number, asked only when printing) and CHECK_LOCAL
 * (the counters' storage: empty per program, thread-local per rank). */
#ifndef NVX_TEST_CHECK_CORE_H
#define NVX_TEST_CHECK_CORE_H
#include <stdio.h>

static CHECK_LOCAL unsigned check_count;
static CHECK_LOCAL unsigned check_failures;

static inline void check_that(int ok, const char *file, int line, const char *cond)
{
    check_count++;
    if (!ok) {
        check_failures++;
        printf("FAIL %s %lld %s:%d: %s\n", CHECK_WHO, (long long)CHECK_ID(), file, line, cond);
    }
}

static inline void check_equal(long long actual, long long expected, const char *file, int line,
                               const char *what)
{
    check_count++;
    if (actual != expected) {
        check_failures++;
        printf("FAIL %s %lld %s:%d: %s == %lld, expected %lld\n", CHECK_WHO, (long long)CHECK_ID(),
               file, line, what, actual, expected);
    }
}

#define CHECK(cond) check_that(!!(cond), __FILE__, __LINE__, #cond)
#define CHECK_EQ(actual, expected) \
    check_equal((long long)(actual), (long long)(expected), __FILE__, __LINE__, #actual)

static inline int check_finish(const char *test)
{
    printf("%s %lld: %s: %u checks, %u failed\n", CHECK_WHO, (long long)CHECK_ID(), test,
           check_count, check_failures);
    return check_failures == 0 ? 0 : 1;
}
#endif
