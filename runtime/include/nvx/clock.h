/* The board clock as user space sees it: the `time` CSR (a copy of the CLINT's mtime). */
#ifndef NVX_CLOCK_H
#define NVX_CLOCK_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* mtime frequency of the emulated board; moves to the board table once user space can
 * read it from there. */
#define NVX_TIMER_HZ 10000000ull

/* Ticks since the board started. Needs counteren.TM set by firmware and kernel. */
static inline uint64_t nvx_rdtime(void)
{
    uint64_t ticks;
    __asm__ volatile("rdtime %0" : "=r"(ticks));
    return ticks;
}

/* Converts timer ticks to units of 1/units_per_second without overflowing the product. */
static inline uint64_t nvx_ticks_to(uint64_t ticks, uint64_t units_per_second)
{
    return ticks / NVX_TIMER_HZ * units_per_second +
           ticks % NVX_TIMER_HZ * units_per_second / NVX_TIMER_HZ;
}

#ifdef __cplusplus
}
#endif

#endif
