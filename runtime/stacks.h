/* Thread stacks: private to the runtime. Each comes from the kernel's thread-stack region
 * (NVX_SYS_STACK_MAP) with an unmapped guard page below it, so an overflow faults instead
 * of overwriting the heap. The kernel never unmaps them before the program ends; a
 * joined thread's stack goes back to a pool and serves a later thread that fits in it. */
#ifndef NVX_RUNTIME_STACKS_H
#define NVX_RUNTIME_STACKS_H

#include <stddef.h>

/* A stack of at least `size` bytes: its lowest address, *got its real size; NULL if the
 * kernel has no memory left (errno-style code in *err). */
void *__nvx_stack_get(size_t size, size_t *got, int *err);
/* Gives back a stack no thread runs on any more. */
void __nvx_stack_put(void *base, size_t size);

/* Bytes of stacks the kernel mapped for threads, and of those the ones in the pool. */
void __nvx_stack_totals(size_t *mapped, size_t *pooled);

#endif
