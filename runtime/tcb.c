/* Control blocks and newlib's per-thread state: __getreent() follows tp. */
#include "tcb.h"
#include "tls.h"

#include <nvx/syscall.h>

/* Called by crt0, with tp = __nvx_main_tls, before anything touches newlib. The main
 * thread uses newlib's global reent: exit() flushes only the streams of that one. */
void __nvx_main_thread_init(void)
{
    __nvx_tls_init(__nvx_main_tls);
    __nvx_main_thread.reent = _global_impure_ptr;
    __nvx_main_thread.tid = nvx_sys_thread_self();
    __nvx_main_thread.block = NULL;
}

struct _reent *__getreent(void)
{
    return nvx_thread_self()->reent;
}
