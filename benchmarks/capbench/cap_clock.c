/* The clock of every CAP Bench build (cap_comm.h: cap_cycles, cap_seconds), in one place so
 * that a per-hart virtual clock can replace it for all of them. For now: the board clock
 * (`rdtime`, the same clock as clock_gettime(CLOCK_MONOTONIC)), counted in cycles of its
 * own frequency. */
#include <nvx/clock.h>

#include "cap_comm.h"

uint64_t cap_cycles(void) { return nvx_rdtime(); }

double cap_seconds(uint64_t cycles) { return (double)cycles / (double)NVX_TIMER_HZ; }
