/* Thread control block: private to the runtime. It lies NVX_THREAD_CONTROL_SIZE bytes
 * below the running thread's `tp` (which points at its TLS block). */
#ifndef NVX_RUNTIME_TCB_H
#define NVX_RUNTIME_TCB_H

#include <reent.h>
#include <stdint.h>

#include <nvx/thread.h>

struct nvx_thread {
    struct _reent *reent;       /* __getreent() is one load from tp                   */
    long tid;                   /* kernel thread id                                   */
    void *block;                /* the allocation holding it (NULL: the main thread)  */
    void *(*start)(void *);
    void *arg;
    void *context;              /* inherited context word (nvx_thread_context)        */
    uintptr_t private_shared;   /* inherited: its private copy's shared address (0: the
                                   program's own copy, NVX_USER_PRIVATE_SHARED)       */
    void *stack;                /* lowest address of its stack (NULL: the main thread) */
    size_t stack_size;
    int killed;                 /* join saw a fault end it; end holds the cause       */
    struct nvx_thread_status end;
};

_Static_assert(sizeof(struct nvx_thread) <= NVX_THREAD_CONTROL_SIZE,
               "the control block must fit below tp");

/* newlib's small reent allocates rand()'s state at its first use and aborts when the heap
 * is exhausted then: it is had with the thread instead, where a failure is an error
 * (EAGAIN); _reclaim_reent frees it. (Formatting floating point takes heap blocks whatever
 * the reent: newlib's dtoa.) */
int __nvx_reent_rand_state_get(struct _reent *reent);

/* The main thread's block: reserved by runtime/user.ld just below its TLS block
 * (__nvx_main_tls), since it exists before malloc can run. */
extern struct nvx_thread __nvx_main_thread;
extern char __nvx_main_tls[];

#endif
