/* Thread control block: private to the runtime. `tp` points at the running thread's. */
#ifndef NVX_RUNTIME_TCB_H
#define NVX_RUNTIME_TCB_H

#include <reent.h>

#include <nvx/thread.h>

struct nvx_thread {
    struct _reent *reent;       /* first, so that __getreent() is one load from tp   */
    long tid;                   /* kernel thread id                                   */
    void *(*start)(void *);
    void *arg;
    int killed;                 /* join saw a fault end it; end holds the cause       */
    struct nvx_thread_status end;
};

/* The main thread's block: static, since it exists before malloc can run. */
extern struct nvx_thread __nvx_main_thread;

#endif
