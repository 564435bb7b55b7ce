// Futex waits and a futex lock (see coll_shm_sync.hpp).
#include "coll_shm_sync.hpp"

#if __has_include(<nvx/syscall.h>)
#include <nvx/syscall.h>
namespace {
void os_wait(uint32_t* word, uint32_t expected) { nvx_sys_futex_wait(word, expected); }
void os_wake(uint32_t* word, uint32_t count) { nvx_sys_futex_wake(word, count); }
}  // namespace
#else  // the host build: rank threads of one Linux process
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
namespace {
void os_wait(uint32_t* word, uint32_t expected)
{
    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, nullptr, nullptr, 0);
}
void os_wake(uint32_t* word, uint32_t count)
{
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, count > 0x7fffffffu ? 0x7fffffff : count, nullptr, nullptr, 0);
}
}  // namespace
#endif

namespace lwmpi {

void futex_wait(uint32_t* word, uint32_t expected) { os_wait(word, expected); }
void futex_wake(uint32_t* word, uint32_t count) { os_wake(word, count); }

void futex_lock(uint32_t* word)
{
    uint32_t free_word = 0;
    if (__atomic_compare_exchange_n(word, &free_word, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
        return;
    while (__atomic_exchange_n(word, 2, __ATOMIC_ACQUIRE) != 0)
        os_wait(word, 2);
}

void futex_unlock(uint32_t* word)
{
    if (__atomic_exchange_n(word, 0, __ATOMIC_RELEASE) == 2)
        os_wake(word, 1);
}

}  // namespace lwmpi
