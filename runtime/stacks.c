/* The pool of thread stacks (stacks.h). */
#include <errno.h>
#include <stdint.h>
#include <unistd.h>

#include <nvx/sync.h>
#include <nvx/syscall.h>

#include "stacks.h"

/* A free stack keeps its pool link at its own lowest address: no other memory needed. */
struct free_stack {
    struct free_stack *next;
    size_t size;
};

static struct free_stack *g_free;
static nvx_mutex_t g_lock = NVX_MUTEX_INITIALIZER;
static size_t g_mapped, g_pooled;  /* bytes, under g_lock */

void *__nvx_stack_get(size_t size, size_t *got, int *err)
{
    nvx_mutex_lock(&g_lock);
    /* The smallest free stack that fits, so large ones stay for large requests. */
    struct free_stack **best = 0;
    for (struct free_stack **link = &g_free; *link != 0; link = &(*link)->next)
        if ((*link)->size >= size && (best == 0 || (*link)->size < (*best)->size)) best = link;
    if (best != 0) {
        struct free_stack *s = *best;
        *best = s->next;
        g_pooled -= s->size;
        nvx_mutex_unlock(&g_lock);
        *got = s->size;
        return s;
    }
    nvx_mutex_unlock(&g_lock);
    size_t page = (size_t)getpagesize();
    size_t rounded = (size + page - 1) & ~(page - 1);
    long base = nvx_sys_stack_map(rounded);
    if (base < 0) {
        *err = base == -NVX_EINVAL ? EINVAL : EAGAIN;
        return 0;
    }
    nvx_mutex_lock(&g_lock);
    g_mapped += rounded;
    nvx_mutex_unlock(&g_lock);
    *got = rounded;
    return (void *)(uintptr_t)base;
}

void __nvx_stack_put(void *base, size_t size)
{
    struct free_stack *s = base;
    s->size = size;
    nvx_mutex_lock(&g_lock);
    s->next = g_free;
    g_free = s;
    g_pooled += size;
    nvx_mutex_unlock(&g_lock);
}

void __nvx_stack_totals(size_t *mapped, size_t *pooled)
{
    nvx_mutex_lock(&g_lock);
    *mapped = g_mapped;
    *pooled = g_pooled;
    nvx_mutex_unlock(&g_lock);
}
