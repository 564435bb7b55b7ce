/* Futex mutex, the classic three-state algorithm (Drepper, "Futexes Are Tricky"):
 * 0 free, 1 locked, 2 locked and maybe waited for. Unlock enters the kernel only in
 * state 2. The owner field makes it error-checking.
 * Virtual time: the wake-up of a waiter hands it no time, since the host may
 * run the holder far ahead of the waiter in virtual time (then the waiter did not really
 * wait). Instead each holder records its hold [held_from, held_until): a thread that asks
 * at virtual time t within the last hold takes held_until, whether or not the host made it
 * sleep; one that asks before the hold began goes on at t. */
#include <errno.h>
#include <stddef.h>

#include <nvx/clock.h>
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

/* The caller holds the lock, which it asked for at virtual time `asked`. The fields are
 * the previous holder's, ordered before this read by the lock's acquire. */
static void take_hold(nvx_mutex_t *mutex, uint64_t asked)
{
    if (mutex->held_from <= asked && asked < mutex->held_until) {
        asked = mutex->held_until;
        nvx_clock_take(asked);
    }
    mutex->held_from = asked;
    set_owner(mutex, nvx_thread_self());
}

static void lock_contended(nvx_mutex_t *mutex, uint64_t asked)
{
    while (__atomic_exchange_n(&mutex->state, 2, __ATOMIC_ACQUIRE) != 0)
        nvx_sys_futex_wait(&mutex->state, 2);
    take_hold(mutex, asked);
}

void __nvx_mutex_lock_contended(nvx_mutex_t *mutex)
{
    lock_contended(mutex, nvx_clock_cycles());
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
    uint64_t asked = nvx_clock_cycles();
    uint32_t free_state = 0;
    if (__atomic_compare_exchange_n(&mutex->state, &free_state, 1, 0, __ATOMIC_ACQUIRE,
                                    __ATOMIC_RELAXED)) {
        take_hold(mutex, asked);
        return 0;
    }
    lock_contended(mutex, asked);
    return 0;
}

int nvx_mutex_trylock(nvx_mutex_t *mutex)
{
    uint64_t asked = nvx_clock_cycles();
    uint32_t free_state = 0;
    if (!__atomic_compare_exchange_n(&mutex->state, &free_state, 1, 0, __ATOMIC_ACQUIRE,
                                     __ATOMIC_RELAXED))
        return EBUSY;
    take_hold(mutex, asked);
    return 0;
}

int nvx_mutex_unlock(nvx_mutex_t *mutex)
{
    if (owner_of(mutex) != nvx_thread_self())
        return EPERM;
    set_owner(mutex, NULL);
    mutex->held_until = nvx_clock_cycles();
    if (__atomic_exchange_n(&mutex->state, 0, __ATOMIC_RELEASE) == 2)
        nvx_sys_futex_wake_untimed(&mutex->state, 1);
    return 0;
}
