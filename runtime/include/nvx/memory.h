/* Where a cluster's memory goes, as the program and the kernel account for it: the
 * program image, the heap (what the break took and what malloc hands out), the thread
 * stacks, and the pages nobody holds yet. Benchmarks and tests read it to measure a
 * library's footprint; nvx_memory_at_start() is the same picture taken just before
 * nvx_program_main ran (before a library such as LWMPI started anything). */
#ifndef NVX_MEMORY_H
#define NVX_MEMORY_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct nvx_memory {
    uint64_t cluster;       /* the cluster's memory for user space (image, heap, stacks, free) */
    uint64_t free;          /* pages no one holds yet: what the heap or a new stack can take   */
    uint64_t image;         /* program text, data and bss (pages)                               */
    uint64_t heap_top;      /* what malloc took with sbrk (mallinfo arena): the heap's size       */
    uint64_t heap_in_use;   /* bytes in allocated malloc chunks (newlib's mallinfo uordblks)     */
    uint64_t heap_free;     /* bytes below the break that malloc holds free (fordblks)          */
    uint64_t heap_peak;     /* the highest heap_top since the start or nvx_memory_reset_peak()  */
    uint64_t stacks;        /* thread stacks mapped, main stack included                        */
    uint64_t stacks_pooled; /* of those, stacks of ended threads kept for later threads         */
};

/* Fills *out with the cluster's memory now; 0, or a negative errno. */
int nvx_memory_get(struct nvx_memory *out);
/* Starts a new heap_peak from the heap's present top. */
void nvx_memory_reset_peak(void);
/* The picture taken once just before nvx_program_main (zeros if none was taken). */
void nvx_memory_at_start(struct nvx_memory *out);

#ifdef __cplusplus
}
#endif

#endif
