/* Barrier over a generation counter: the last thread to arrive starts a new generation
 * and wakes the others, who sleep while the generation they saw on arrival lasts. */
#include <errno.h>

#include <nvx/syscall.h>
#include <nvx/thread.h>

int nvx_barrier_init(nvx_barrier_t *barrier, unsigned count)
{
    if (count == 0)
        return EINVAL;
    *barrier = (nvx_barrier_t){.count = count, .arrived = 0, .generation = 0};
    return 0;
}

int nvx_barrier_destroy(nvx_barrier_t *barrier)
{
    return __atomic_load_n(&barrier->arrived, __ATOMIC_RELAXED) != 0 ? EBUSY : 0;
}

int nvx_barrier_wait(nvx_barrier_t *barrier)
{
    /* Read before arriving: the round cannot end until this thread has arrived. */
    uint32_t generation = __atomic_load_n(&barrier->generation, __ATOMIC_ACQUIRE);
    if (__atomic_add_fetch(&barrier->arrived, 1, __ATOMIC_ACQ_REL) == barrier->count) {
        /* Reset before the new generation is published: the released threads may
         * arrive for the next round at once. */
        __atomic_store_n(&barrier->arrived, 0, __ATOMIC_RELAXED);
        __atomic_add_fetch(&barrier->generation, 1, __ATOMIC_RELEASE);
        if (barrier->count > 1)
            nvx_sys_futex_wake(&barrier->generation, barrier->count - 1);
        return NVX_BARRIER_SERIAL_THREAD;
    }
    while (__atomic_load_n(&barrier->generation, __ATOMIC_ACQUIRE) == generation)
        nvx_sys_futex_wait(&barrier->generation, generation);
    return 0;
}
