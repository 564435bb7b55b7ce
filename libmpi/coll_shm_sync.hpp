// Sleeping waits of the collectives' shared-memory phase (coll_shm.hpp): a futex word the
// ranks of a cluster share, and a lock over one. The one OS-dependent piece of libmpi's
// collectives: nvx's futex on the target, Linux's in the host build of libmpi (tests/host).
#pragma once

#include <stdint.h>

namespace lwmpi {

// Sleeps in the kernel while *word == expected (returns at once if it differs; callers
// check again: a wake-up may come from an earlier change).
void futex_wait(uint32_t* word, uint32_t expected);
void futex_wake(uint32_t* word, uint32_t count);

// A lock on a futex word (0 free, 1 held, 2 held and maybe waited for); zero-initialized.
void futex_lock(uint32_t* word);
void futex_unlock(uint32_t* word);

// Holds a futex lock for a scope.
class FutexHold {
public:
    explicit FutexHold(uint32_t* word) : word_(word) { futex_lock(word_); }
    ~FutexHold() { futex_unlock(word_); }
    FutexHold(const FutexHold&) = delete;
    FutexHold& operator=(const FutexHold&) = delete;

private:
    uint32_t* word_;
};

}  // namespace lwmpi
