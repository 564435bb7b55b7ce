/* Threads of a user program, pthread-like. Functions return 0 or an errno number (they
 * do not set errno). The synchronisation objects come with this header (nvx/sync.h).
 *
 * `tp` follows the RISC-V TLS ABI (variant I): it points at the thread's TLS block, a
 * copy of the program's .tdata/.tbss, so `_Thread_local` / `__thread` / `thread_local`
 * variables are per thread. The thread's control block (newlib state: errno, stdio
 * streams) sits just below, NVX_THREAD_CONTROL_SIZE bytes under `tp`; block, TLS and
 * stack of a created thread are one allocation.
 */
#ifndef NVX_THREAD_H
#define NVX_THREAD_H

#include <stddef.h>
#include <stdint.h>

#include <nvx_abi.h> /* the kernel ABI, kernel/abi/ */
#include <nvx/sync.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nvx_thread *nvx_thread_t;

#define NVX_THREAD_STACK_DEFAULT (16u * 1024)
#define NVX_THREAD_STACK_MIN (4u * 1024)
#define NVX_THREAD_ANY_HART (-1)
/* Bytes reserved below tp for the control block; runtime/user.ld uses the same number. */
#define NVX_THREAD_CONTROL_SIZE 128

typedef struct {
    size_t stack_size; /* bytes; 0 = NVX_THREAD_STACK_DEFAULT                      */
    int hart;          /* local hart index to pin the thread to, or NVX_THREAD_ANY_HART */
} nvx_thread_attr_t;

#define NVX_THREAD_ATTR_INITIALIZER { 0, NVX_THREAD_ANY_HART }

int nvx_thread_attr_init(nvx_thread_attr_t *attr);

/* Starts start(arg) on a new thread. attr may be NULL (default stack, any hart). The
 * stack has an unmapped guard page below it: overflowing it kills the thread with a store
 * page fault (join tells), never touching other memory. EINVAL: bad argument or stack smaller than NVX_THREAD_STACK_MIN; EAGAIN: no memory or
 * no kernel thread left; other kernel errors are passed on. */
int nvx_thread_create(nvx_thread_t *thread, const nvx_thread_attr_t *attr,
                      void *(*start)(void *), void *arg);

/* Waits for the thread to end and frees its memory. *ret (if ret is not NULL) receives
 * the value it returned or passed to nvx_thread_exit. EFAULT: the thread was killed by a
 * fault; nvx_thread_join_status then still tells the exception cause. */
int nvx_thread_join(nvx_thread_t thread, void **ret);

/* Like nvx_thread_join, but reports how the thread ended (exit value or exception cause)
 * and returns 0 in both cases. A killed thread's memory is never freed: it may still own
 * locks, and a new thread at the same address would appear to own them too. */
int nvx_thread_join_status(nvx_thread_t thread, struct nvx_thread_status *status);

/* Flushes the calling thread's stdio and ends it with value. */
__attribute__((noreturn)) void nvx_thread_exit(void *value);

int nvx_thread_yield(void);

/* The inherited context word: one pointer per thread that the runtime never reads. A new
 * thread starts with its creator's word (the program's main thread with NULL), so a
 * library can tell which of its clients a thread works for (LWMPI: the rank a helper
 * thread belongs to) without a table of threads. */
void nvx_thread_set_context(void *context);
void *nvx_thread_context(void);

/* Blocks the calling thread until the board clock (nvx_rdtime()) reaches deadline; returns
 * at once if it already has. EINVAL: deadline >= 2^63. */
int nvx_thread_sleep_until(uint64_t deadline);

/* Bytes of the calling thread's stack (the main thread's: NVX_USER_STACK_SIZE). */
size_t nvx_thread_stack_size(void);

/* The calling thread: its control block, just below the TLS block `tp` points at. */
static inline nvx_thread_t nvx_thread_self(void)
{
    char *tp;
    __asm__("mv %0, tp" : "=r"(tp));
    return (nvx_thread_t)(tp - NVX_THREAD_CONTROL_SIZE);
}

#ifdef __cplusplus
}
#endif

#endif
