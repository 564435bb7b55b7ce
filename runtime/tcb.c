/* Control blocks and newlib's per-thread state: __getreent() follows tp. */
#include "tcb.h"
#include "tls.h"

#include <errno.h>
#include <stdlib.h>

#include <nvx/syscall.h>

int __nvx_reent_rand_state_get(struct _reent *reent)
{
    reent->_r48 = malloc(sizeof *reent->_r48);
    if (reent->_r48 == NULL)
        return EAGAIN;
    _REENT_INIT_RAND48(reent);
    return 0;
}

/* Called by crt0, with tp = __nvx_main_tls, before anything touches newlib. The main
 * thread uses newlib's global reent: exit() flushes only the streams of that one. */
void __nvx_main_thread_init(void)
{
    __nvx_tls_init(__nvx_main_tls);
    __nvx_main_thread.reent = _global_impure_ptr;
    __nvx_main_thread.tid = nvx_sys_thread_self();
    __nvx_main_thread.block = NULL;
    __nvx_main_thread.context = NULL; /* created threads copy it: they belong to no one */
    (void)__nvx_reent_rand_state_get(_global_impure_ptr); /* else had at first use */
}

struct _reent *__getreent(void)
{
    return nvx_thread_self()->reent;
}
