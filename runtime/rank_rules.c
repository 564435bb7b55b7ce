/* The arithmetic of rank threads (nvx/ranks.h): pure, so the host tests check it. */
#include <nvx/ranks.h>

#include <errno.h>
#include <stdlib.h>

#include <nvx/thread.h>

int nvx_rank_stack_rule(uint64_t user_memory, unsigned count, const char *setting, size_t *stack)
{
    if (setting != NULL && *setting != '\0') {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(setting, &end, 10);
        if (*setting < '0' || *setting > '9' || *end != '\0' || errno == ERANGE || v < NVX_THREAD_STACK_MIN ||
            v > SIZE_MAX)
            return -1;
        *stack = (size_t)v;
        return 0;
    }
    uint64_t share = user_memory / ((uint64_t)NVX_RANK_STACK_SHARE * (count > 0 ? count : 1));
    share &= ~(uint64_t)(NVX_PAGE_SIZE - 1);
    *stack = share < NVX_RANK_STACK_MIN   ? NVX_RANK_STACK_MIN
             : share > NVX_RANK_STACK_MAX ? NVX_RANK_STACK_MAX
                                          : (size_t)share;
    return 0;
}

uint64_t nvx_rank_private_bytes(size_t bytes)
{
    if (bytes == 0) return 0;
    uint64_t pages = ((uint64_t)bytes + NVX_PAGE_SIZE - 1) / NVX_PAGE_SIZE;
    uint64_t leaves = ((uint64_t)bytes + NVX_USER_PRIVATE_LEAF_SPAN - 1) / NVX_USER_PRIVATE_LEAF_SPAN;
    return (pages + NVX_USER_PRIVATE_COPY_TABLES + leaves) * NVX_PAGE_SIZE;
}

uint64_t nvx_ranks_memory(unsigned count, size_t stack, size_t private_globals)
{
    return (uint64_t)count * ((uint64_t)stack + nvx_rank_private_bytes(private_globals));
}
