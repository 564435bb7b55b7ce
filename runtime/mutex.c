/* Futex mutex, the classic three-state algorithm (Drepper, "Futexes Are Tricky"):
 * 0 free, 1 locked, 2 locked and maybe waited for. Unlock enters the kernel only in
 * state 2. The owner field makes it error-checking. */
#include <errno.h>
#include <stddef.h>

#include <nvx/syscall.h>

#include "mutex_internal.h"

static struct nvx_thread *owner_of(nvx_mutex_t *mutex)
{
    return __atomic_load_n(&mutex->owner, __ATOMIC_RELAXED);
}

static void set_owner(nvx_mutex_t *mutex, struct nvx_thread *owner)
{
    __atomic_store_n(&mutex->owner, owner, __ATOMIC_RELAXED);
}

void __nvx_mutex_lock_contended(nvx_mutex_t *mutex)
{
    while (__atomic_exchange_n(&mutex->state, 2, __ATOMIC_ACQUIRE) != 0)
        nvx_sys_futex_wait(&mutex->state, 2);
    set_owner(mutex, nvx_thread_self());
}

int nvx_mutex_init(nvx_mutex_t *mutex)
{
    *mutex = (nvx_mutex_t)NVX_MUTEX_INITIALIZER;
    return 0;
}

int nvx_mutex_destroy(nvx_mutex_t *mutex)
{
    return __atomic_load_n(&mutex->state, __ATOMIC_RELAXED) != 0 ? EBUSY : 0;
}

int nvx_mutex_lock(nvx_mutex_t *mutex)
{
    if (owner_of(mutex) == nvx_thread_self())
        return EDEADLK;
    uint32_t free_state = 0;
    if (__atomic_compare_exchange_n(&mutex->state, &free_state, 1, 0, __ATOMIC_ACQUIRE,
                                    __ATOMIC_RELAXED)) {
        set_owner(mutex, nvx_thread_self());
        return 0;
    }
    __nvx_mutex_lock_contended(mutex);
    return 0;
}

int nvx_mutex_trylock(nvx_mutex_t *mutex)
{
    uint32_t free_state = 0;
    if (!__atomic_compare_exchange_n(&mutex->state, &free_state, 1, 0, __ATOMIC_ACQUIRE,
                                     __ATOMIC_RELAXED))
        return EBUSY;
    set_owner(mutex, nvx_thread_self());
    return 0;
}

int nvx_mutex_unlock(nvx_mutex_t *mutex)
{
    if (owner_of(mutex) != nvx_thread_self())
        return EPERM;
    set_owner(mutex, NULL);
    if (__atomic_exchange_n(&mutex->state, 0, __ATOMIC_RELEASE) == 2)
        nvx_sys_futex_wake(&mutex->state, 1);
    return 0;
}
