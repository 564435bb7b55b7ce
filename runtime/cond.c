/* Condition variable over a sequence counter: a waiter sleeps until seq moves past the
 * value it read while still holding the mutex, so a signal sent after it released the
 * mutex cannot be lost. waiters spares signal a kernel call when nobody waits. */
#include <errno.h>
#include <limits.h>

#include <nvx/syscall.h>

#include "mutex_internal.h"

int nvx_cond_init(nvx_cond_t *cond)
{
    *cond = (nvx_cond_t)NVX_COND_INITIALIZER;
    return 0;
}

int nvx_cond_destroy(nvx_cond_t *cond)
{
    return __atomic_load_n(&cond->waiters, __ATOMIC_RELAXED) != 0 ? EBUSY : 0;
}

int nvx_cond_wait(nvx_cond_t *cond, nvx_mutex_t *mutex)
{
    if (__atomic_load_n(&mutex->owner, __ATOMIC_RELAXED) != nvx_thread_self())
        return EPERM;
    /* Registering before reading seq pairs with signal's bump-then-read (a Dekker
     * handshake): either the signaller sees this waiter or this waiter sees the bump. */
    __atomic_fetch_add(&cond->waiters, 1, __ATOMIC_SEQ_CST);
    uint32_t seq = __atomic_load_n(&cond->seq, __ATOMIC_SEQ_CST);
    nvx_mutex_unlock(mutex);
    nvx_sys_futex_wait(&cond->seq, seq);
    __atomic_fetch_sub(&cond->waiters, 1, __ATOMIC_RELAXED);
    __nvx_mutex_lock_contended(mutex);
    return 0;
}

static int wake(nvx_cond_t *cond, uint32_t count)
{
    __atomic_fetch_add(&cond->seq, 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&cond->waiters, __ATOMIC_SEQ_CST) != 0)
        nvx_sys_futex_wake(&cond->seq, count);
    return 0;
}

int nvx_cond_signal(nvx_cond_t *cond)
{
    return wake(cond, 1);
}

int nvx_cond_broadcast(nvx_cond_t *cond)
{
    return wake(cond, INT_MAX);
}
