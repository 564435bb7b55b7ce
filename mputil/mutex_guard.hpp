// An nvx mutex held for a scope: the lock and its unlock in one object.
#pragma once

#include <nvx/sync.h>

namespace mputil {

class MutexGuard {
public:
    explicit MutexGuard(nvx_mutex_t* mutex) : mutex_(mutex) { nvx_mutex_lock(mutex_); }
    ~MutexGuard() { nvx_mutex_unlock(mutex_); }
    MutexGuard(const MutexGuard&) = delete;
    MutexGuard& operator=(const MutexGuard&) = delete;

private:
    nvx_mutex_t* mutex_;
};

}  // namespace mputil
