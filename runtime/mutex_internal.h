/* Mutex operations the runtime's condition variable needs beyond the public API. */
#ifndef NVX_RUNTIME_MUTEX_INTERNAL_H
#define NVX_RUNTIME_MUTEX_INTERNAL_H

#include <nvx/thread.h>

/* Locks as a woken waiter: marks the mutex contended, since other waiters woken with it
 * (broadcast) may be asleep on it and must be woken by the next unlock. */
void __nvx_mutex_lock_contended(nvx_mutex_t *mutex);

#endif
