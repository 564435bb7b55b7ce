/* Counting semaphore: value is the futex word, waiters spares post a kernel call when
 * nobody sleeps. */
#include <errno.h>

#include <nvx/syscall.h>
#include <nvx/thread.h>

int nvx_sem_init(nvx_sem_t *sem, unsigned value)
{
    if (value > NVX_SEM_VALUE_MAX)
        return EINVAL;
    *sem = (nvx_sem_t){.value = value, .waiters = 0};
    return 0;
}

int nvx_sem_destroy(nvx_sem_t *sem)
{
    return __atomic_load_n(&sem->waiters, __ATOMIC_RELAXED) != 0 ? EBUSY : 0;
}

int nvx_sem_trywait(nvx_sem_t *sem)
{
    uint32_t value = __atomic_load_n(&sem->value, __ATOMIC_RELAXED);
    while (value > 0) {
        if (__atomic_compare_exchange_n(&sem->value, &value, value - 1, 1, __ATOMIC_ACQUIRE,
                                        __ATOMIC_RELAXED))
            return 0;
    }
    return EAGAIN;
}

int nvx_sem_wait(nvx_sem_t *sem)
{
    while (nvx_sem_trywait(sem) != 0) {
        /* Registered before the kernel re-checks value == 0 (pairs with post's
         * bump-then-read, so one of the two sees the other); the fence orders the
         * registration before the kernel's read, which is no C atomic. */
        __atomic_fetch_add(&sem->waiters, 1, __ATOMIC_SEQ_CST);
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        nvx_sys_futex_wait(&sem->value, 0);
        __atomic_fetch_sub(&sem->waiters, 1, __ATOMIC_RELAXED);
    }
    return 0;
}

int nvx_sem_post(nvx_sem_t *sem)
{
    uint32_t value = __atomic_load_n(&sem->value, __ATOMIC_RELAXED);
    do {
        if (value >= NVX_SEM_VALUE_MAX)
            return EOVERFLOW;
    } while (!__atomic_compare_exchange_n(&sem->value, &value, value + 1, 1,
                                          __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
    if (__atomic_load_n(&sem->waiters, __ATOMIC_SEQ_CST) != 0)
        nvx_sys_futex_wake(&sem->value, 1);
    return 0;
}

int nvx_sem_getvalue(nvx_sem_t *sem, int *value)
{
    *value = (int)__atomic_load_n(&sem->value, __ATOMIC_RELAXED);
    return 0;
}
