/* The cluster's memory as the program and the kernel account for it (nvx/memory.h). */
#include <errno.h>
#include <reent.h>
#include <stdint.h>
#include <unistd.h>

#include <nvx/memory.h>
#include <nvx/syscall.h>

#include "stacks.h"

extern char _start[];  /* the image's first byte: crt0 opens the text (runtime/user.ld) */
extern char _end[];    /* the end of bss; the heap starts at the next page */

static struct nvx_memory g_at_start;

/* newlib's mallinfo fills its own struct, of ints (mallocr.c); the one <malloc.h>
 * declares has size_t fields and would read past it on rv64. */
struct newlib_mallinfo {
    int arena, ordblks, smblks, hblks, hblkhd, usmblks, fsmblks, uordblks, fordblks, keepcost;
};
extern struct newlib_mallinfo mallinfo(void);
extern void __malloc_lock(struct _reent *);
extern void __malloc_unlock(struct _reent *);

/* newlib's malloc keeps the high-water mark of what it took with sbrk here (mallocr.c;
 * mallinfo() does not report it). */
extern size_t __malloc_max_total_mem;
extern size_t __malloc_max_sbrked_mem;

static uint64_t page_up(uint64_t v)
{
    uint64_t page = (uint64_t)getpagesize();
    return (v + page - 1) & ~(page - 1);
}

int nvx_memory_get(struct nvx_memory *out)
{
    struct nvx_info info;
    long err = nvx_sys_info(&info);
    if (err < 0) return (int)err;
    __malloc_lock(_REENT);
    struct newlib_mallinfo m = mallinfo();
    size_t peak = __malloc_max_total_mem;
    __malloc_unlock(_REENT);
    if (m.arena == 0) m.uordblks = m.fordblks = 0; /* no malloc yet: its top is a dummy */
    uint64_t heap_start = page_up((uint64_t)(uintptr_t)_end);
    size_t mapped = 0, pooled = 0;
    __nvx_stack_totals(&mapped, &pooled);
    *out = (struct nvx_memory){
        .cluster = info.user_memory,
        .free = info.free_memory,
        .image = heap_start - (uint64_t)(uintptr_t)_start,
        .heap_top = (uint32_t)m.arena,
        .heap_in_use = (uint32_t)m.uordblks,
        .heap_free = (uint32_t)m.fordblks,
        .heap_peak = peak > (uint32_t)m.arena ? peak : (uint32_t)m.arena,
        .stacks = (uint64_t)mapped + NVX_USER_STACK_SIZE,
        .stacks_pooled = (uint64_t)pooled,
    };
    return 0;
}

void nvx_memory_reset_peak(void)
{
    __malloc_lock(_REENT);
    struct newlib_mallinfo m = mallinfo();
    __malloc_max_total_mem = __malloc_max_sbrked_mem = (uint32_t)m.arena;
    __malloc_unlock(_REENT);
}

void nvx_memory_at_start(struct nvx_memory *out) { *out = g_at_start; }

/* crt0, just before nvx_program_main. */
void __nvx_memory_mark_start(void) { nvx_memory_get(&g_at_start); }
