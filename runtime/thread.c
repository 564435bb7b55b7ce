/* Thread lifetime: create, exit, join, yield. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvx/syscall.h>

#include "stacks.h"
#include "tcb.h"
#include "tls.h"

/* In thread_entry.S: sets gp and tp (= a0, the TLS block), then calls __nvx_thread_run. */
void __nvx_thread_entry(void *tls);

__attribute__((noreturn)) void __nvx_thread_run(void)
{
    struct nvx_thread *self = nvx_thread_self();
    /* The creator stores the id only once its kernel call returns; the thread may already
     * run and need it (nvx_clock_cycles() finds its hart by it): both store the same value. */
    __atomic_store_n(&self->tid, nvx_sys_thread_self(), __ATOMIC_RELAXED);
    nvx_thread_exit(self->start(self->arg));
}

static size_t round_up(size_t n, size_t align)
{
    return (n + align - 1) & ~(align - 1);
}

int nvx_thread_attr_init(nvx_thread_attr_t *attr)
{
    if (attr == NULL)
        return EINVAL;
    attr->stack_size = 0;
    attr->hart = NVX_THREAD_ANY_HART;
    return 0;
}

int nvx_thread_create(nvx_thread_t *thread, const nvx_thread_attr_t *attr,
                      void *(*start)(void *), void *arg)
{
    size_t stack_size = NVX_THREAD_STACK_DEFAULT;
    int hart = NVX_THREAD_ANY_HART;
    if (attr != NULL) {
        if (attr->stack_size != 0)
            stack_size = attr->stack_size;
        hart = attr->hart;
    }
    if (thread == NULL || start == NULL || hart < NVX_THREAD_ANY_HART ||
        stack_size < NVX_THREAD_STACK_MIN)
        return EINVAL;
    /* One allocation: alignment slack, control block, TLS block (tp), newlib state. The
     * stack is apart, above a guard page (stacks.h): an overflow cannot reach them. */
    size_t align = __nvx_tls_align();
    size_t fixed = align + NVX_THREAD_CONTROL_SIZE + round_up(__nvx_tls_size(), 16) +
                   round_up(sizeof(struct _reent), 16);
    if (stack_size > NVX_USER_THREAD_STACK_MAX)
        return EAGAIN;
    char *block = malloc(fixed);
    if (block == NULL)
        return EAGAIN;
    int err = 0;
    size_t stack_got = 0;
    char *stack = __nvx_stack_get(stack_size, &stack_got, &err);
    if (stack == NULL) {
        free(block);
        return err;
    }
    char *tls = (char *)round_up((uintptr_t)block + NVX_THREAD_CONTROL_SIZE, align);
    struct nvx_thread *self = (struct nvx_thread *)(tls - NVX_THREAD_CONTROL_SIZE);
    struct _reent *reent = (struct _reent *)(tls + round_up(__nvx_tls_size(), 16));
    __nvx_tls_init(tls);
    _REENT_INIT_PTR(reent);
    err = __nvx_reent_rand_state_get(reent);
    if (err != 0) {
        __nvx_stack_put(stack, stack_got);
        free(block);
        return err;
    }
    *self = (struct nvx_thread){
        .reent = reent, .tid = -1, .block = block, .start = start, .arg = arg,
        .context = nvx_thread_self()->context, .private_shared = nvx_thread_self()->private_shared,
        .stack = stack, .stack_size = stack_got};

    uintptr_t stack_top = ((uintptr_t)stack + stack_got) & ~(uintptr_t)15;
    long tid = nvx_sys_thread_create(__nvx_thread_entry, tls, (void *)stack_top, hart);
    if (tid < 0) {
        __nvx_stack_put(stack, stack_got);
        _reclaim_reent(reent);
        free(block);
        return (int)-tid;
    }
    __atomic_store_n(&self->tid, tid, __ATOMIC_RELAXED); /* the thread stores it too */
    *thread = self;
    return 0;
}

__attribute__((noreturn)) void nvx_thread_exit(void *value)
{
    struct nvx_thread *self = nvx_thread_self();
    /* The streams are the program's (shared): the main thread leaving flushes them; a
     * created thread's own newlib allocations are released. */
    if (self == &__nvx_main_thread)
        fflush(NULL);
    else
        _reclaim_reent(self->reent);
    nvx_sys_thread_exit((uintptr_t)value);
}

size_t nvx_thread_stack_size(void)
{
    nvx_thread_t self = nvx_thread_self();
    return self->stack != NULL ? self->stack_size : NVX_USER_STACK_SIZE;
}

int nvx_thread_join_status(nvx_thread_t thread, struct nvx_thread_status *status)
{
    if (thread == NULL || status == NULL)
        return EINVAL;
    if (thread->killed) {
        *status = thread->end;
        return 0;
    }
    if (thread == nvx_thread_self())
        return EDEADLK;

    struct nvx_thread_status end;
    long err = nvx_sys_thread_join(thread->tid, &end);
    if (err < 0)
        return (int)-err;
    /* The thread is gone: its stack serves the next one (the main thread has none here). */
    if (thread->stack != NULL) {
        __nvx_stack_put(thread->stack, thread->stack_size);
        thread->stack = NULL;
    }
    if (end.how == NVX_THREAD_KILLED) {
        thread->end = end;
        thread->killed = 1;
    } else if (thread->block != NULL) {
        free(thread->block); /* the main thread's block is static */
    }
    *status = end;
    return 0;
}

int nvx_thread_join(nvx_thread_t thread, void **ret)
{
    struct nvx_thread_status end;
    int err = nvx_thread_join_status(thread, &end);
    if (err != 0)
        return err;
    if (end.how == NVX_THREAD_KILLED)
        return EFAULT;
    if (ret != NULL)
        *ret = (void *)(uintptr_t)end.value;
    return 0;
}

void nvx_thread_set_context(void *context)
{
    nvx_thread_self()->context = context;
}

void *nvx_thread_context(void)
{
    return nvx_thread_self()->context;
}

int nvx_thread_yield(void)
{
    long err = nvx_sys_thread_yield();
    return err < 0 ? (int)-err : 0;
}

int nvx_thread_sleep_until(uint64_t deadline)
{
    long err = nvx_sys_sleep_until(deadline);
    return err < 0 ? (int)-err : 0;
}
