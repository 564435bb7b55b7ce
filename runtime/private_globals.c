/* Rank-private globals: the user side (nvx/private_globals.h). The link script
 * (runtime/globals/private/nvx_globals.ld) puts the region at NVX_USER_PRIVATE_BASE;
 * without it both bounds are 0. A thread's control block remembers where its copy is
 * shared (its creator's, or the program's own). */
#include <nvx/private_globals.h>

#include <stdint.h>

#include <nvx/syscall.h>

#include "tcb.h"

extern char __nvx_private_start[], __nvx_private_end[];

size_t nvx_private_globals_size(void) { return (size_t)(__nvx_private_end - __nvx_private_start); }

int nvx_private_globals_enter(int rank)
{
    long r = nvx_sys_private_enter(rank);
    if (r < 0)
        return (int)-r;
    if (r > 0)
        nvx_thread_self()->private_shared = (uintptr_t)r;
    return 0;
}

void *nvx_shared_address(const void *p)
{
    uintptr_t offset = (uintptr_t)p - (uintptr_t)NVX_USER_PRIVATE_BASE;
    if (offset >= nvx_private_globals_size())
        return (void *)p;
    uintptr_t shared = nvx_thread_self()->private_shared;
    return (void *)((shared != 0 ? shared : (uintptr_t)NVX_USER_PRIVATE_SHARED) + offset);
}
