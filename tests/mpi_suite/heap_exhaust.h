/* Running a test program's cluster out of heap on purpose: take_all_memory() takes every
 * block malloc still gives, from 64 KiB down to the smallest (written, so the pages are
 * really the program's), and give_back() returns them. The heap is the cluster's: what one
 * rank takes, the others' next allocations miss too. */
#ifndef LWMPI_TEST_HEAP_EXHAUST_H
#define LWMPI_TEST_HEAP_EXHAUST_H
#include <stdlib.h>
#include <string.h>

struct block {
    struct block *next;
};

static inline struct block *take_all_memory(void)
{
    struct block *list = NULL;
    for (size_t size = 64 * 1024; size >= sizeof(struct block); size /= 2) {
        struct block *b;
        while ((b = malloc(size)) != NULL) {
            memset(b, 0xa5, size);
            b->next = list;
            list = b;
        }
    }
    return list;
}

static inline void give_back(struct block *list)
{
    while (list != NULL) {
        struct block *next = list->next;
        free(list);
        list = next;
    }
}
#endif
