/* Control blocks and newlib's per-thread state: __getreent() follows tp. */
#include "tcb.h"

#include <nvx/syscall.h>

/* crt0 points tp here before any C code runs. */
struct nvx_thread __nvx_main_thread;

/* Called by crt0 before anything touches newlib. The main thread uses newlib's global
 * reent: exit() flushes only the streams of that one. */
void __nvx_main_thread_init(void)
{
    __nvx_main_thread.reent = _global_impure_ptr;
    __nvx_main_thread.tid = nvx_sys_thread_self();
}

struct _reent *__getreent(void)
{
    return nvx_thread_self()->reent;
}
