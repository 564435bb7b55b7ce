/* newlib's retargetable locks (sys/lock.h, --enable-newlib-retargetable-locking) over
 * the nvx mutex. Recursive locks count nested acquisitions by their owner. */
#include <stdlib.h>
#include <sys/lock.h>

#include <nvx/thread.h>

struct __lock {
    nvx_mutex_t mutex;
    uint32_t depth; /* acquisitions by mutex.owner; touched only by the owner */
};

/* The locks newlib 3.3.0 names statically (misc/lock.c); zero is unlocked. */
struct __lock __lock___sinit_recursive_mutex;
struct __lock __lock___sfp_recursive_mutex;
struct __lock __lock___atexit_recursive_mutex;
struct __lock __lock___at_quick_exit_mutex;
struct __lock __lock___malloc_recursive_mutex;
struct __lock __lock___env_recursive_mutex;
struct __lock __lock___tz_mutex;
struct __lock __lock___dd_hash_mutex;
struct __lock __lock___arc4random_mutex;

/* Stands in when malloc cannot provide a lock: newlib has no way to report the failure,
 * and sharing one recursive lock stays correct, only coarser. */
static struct __lock shared_fallback_lock;

void __retarget_lock_init_recursive(_LOCK_T *lock)
{
    struct __lock *fresh = calloc(1, sizeof(*fresh));
    *lock = fresh != NULL ? fresh : &shared_fallback_lock;
}

void __retarget_lock_init(_LOCK_T *lock)
{
    __retarget_lock_init_recursive(lock);
}

void __retarget_lock_close_recursive(_LOCK_T lock)
{
    if (lock != &shared_fallback_lock)
        free(lock);
}

void __retarget_lock_close(_LOCK_T lock)
{
    __retarget_lock_close_recursive(lock);
}

static int owned_by_caller(_LOCK_T lock)
{
    return __atomic_load_n(&lock->mutex.owner, __ATOMIC_RELAXED) == nvx_thread_self();
}

void __retarget_lock_acquire_recursive(_LOCK_T lock)
{
    if (!owned_by_caller(lock))
        nvx_mutex_lock(&lock->mutex);
    lock->depth++;
}

/* 0 on success like pthread_mutex_trylock: ftrylockfile returns this value as is. */
int __retarget_lock_try_acquire_recursive(_LOCK_T lock)
{
    if (!owned_by_caller(lock)) {
        int err = nvx_mutex_trylock(&lock->mutex);
        if (err != 0)
            return err;
    }
    lock->depth++;
    return 0;
}

void __retarget_lock_release_recursive(_LOCK_T lock)
{
    if (!owned_by_caller(lock))
        return;
    if (--lock->depth == 0)
        nvx_mutex_unlock(&lock->mutex);
}

/* Plain locks share the recursive path: newlib never nests them, and the fallback lock
 * above may stand for a plain and a recursive lock at once. */
void __retarget_lock_acquire(_LOCK_T lock)
{
    __retarget_lock_acquire_recursive(lock);
}

int __retarget_lock_try_acquire(_LOCK_T lock)
{
    return __retarget_lock_try_acquire_recursive(lock);
}

void __retarget_lock_release(_LOCK_T lock)
{
    __retarget_lock_release_recursive(lock);
}
