/* Synchronisation between the threads of a program: mutex, condition variable, barrier,
 * semaphore. All sleep in the kernel (futex wait/wake) and never spin. Functions return
 * 0 or an errno number. Include nvx/thread.h rather than this file.
 */
#ifndef NVX_SYNC_H
#define NVX_SYNC_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct nvx_thread;

/* Error-checking mutex: state is the futex word (0 free, 1 locked, 2 locked and maybe
 * waited for); owner lets unlock and relock be checked. held_from and held_until are the
 * virtual times (nvx/clock.h) of the last hold: a thread that asks for the lock inside
 * that hold waits until its end, whatever order the host ran the two in. */
typedef struct {
    uint32_t state;
    struct nvx_thread *owner;
    uint64_t held_from;
    uint64_t held_until;
} nvx_mutex_t;

#define NVX_MUTEX_INITIALIZER { 0, 0, 0, 0 }

int nvx_mutex_init(nvx_mutex_t *mutex);
int nvx_mutex_destroy(nvx_mutex_t *mutex);     /* EBUSY when locked                */
int nvx_mutex_lock(nvx_mutex_t *mutex);        /* EDEADLK when already the owner   */
int nvx_mutex_trylock(nvx_mutex_t *mutex);     /* EBUSY when locked                */
int nvx_mutex_unlock(nvx_mutex_t *mutex);      /* EPERM when not the owner         */

/* Condition variable: seq changes on every signal and is the futex word. */
typedef struct {
    uint32_t seq;
    uint32_t waiters;
} nvx_cond_t;

#define NVX_COND_INITIALIZER { 0, 0 }

int nvx_cond_init(nvx_cond_t *cond);
int nvx_cond_destroy(nvx_cond_t *cond);                  /* EBUSY while waited on      */
int nvx_cond_wait(nvx_cond_t *cond, nvx_mutex_t *mutex); /* EPERM: mutex not owned    */
int nvx_cond_signal(nvx_cond_t *cond);
int nvx_cond_broadcast(nvx_cond_t *cond);

/* Barrier: generation changes when the last of count threads arrives; futex word. */
typedef struct {
    uint32_t count;
    uint32_t arrived;
    uint32_t generation;
} nvx_barrier_t;

/* Returned by nvx_barrier_wait to exactly one thread of each round. */
#define NVX_BARRIER_SERIAL_THREAD (-1)

int nvx_barrier_init(nvx_barrier_t *barrier, unsigned count); /* EINVAL when count == 0 */
int nvx_barrier_destroy(nvx_barrier_t *barrier);              /* EBUSY during a round   */
int nvx_barrier_wait(nvx_barrier_t *barrier);

/* Counting semaphore: value is the futex word. */
typedef struct {
    uint32_t value;
    uint32_t waiters;
} nvx_sem_t;

#define NVX_SEM_VALUE_MAX 0x7fffffffu

int nvx_sem_init(nvx_sem_t *sem, unsigned value);   /* EINVAL above NVX_SEM_VALUE_MAX */
int nvx_sem_destroy(nvx_sem_t *sem);                /* EBUSY while waited on          */
int nvx_sem_wait(nvx_sem_t *sem);
int nvx_sem_trywait(nvx_sem_t *sem);                /* EAGAIN when the value is 0     */
int nvx_sem_post(nvx_sem_t *sem);                   /* EOVERFLOW at NVX_SEM_VALUE_MAX */
int nvx_sem_getvalue(nvx_sem_t *sem, int *value);

#ifdef __cplusplus
}
#endif

#endif
