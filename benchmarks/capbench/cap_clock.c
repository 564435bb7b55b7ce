/* The clock of every CAP Bench build (cap_comm.h: cap_cycles, cap_seconds), in one place:
 * the board's per-hart virtual clock (nvx/clock.h: instructions retired on this hart plus
 * the offset its kernel keeps), or, under `nvx-run --clock wall`, the board clock scaled to
 * cycles of the same modeled frequency. */
#include <nvx/clock.h>

#include "cap_comm.h"

uint64_t cap_cycles(void) { return nvx_clock_cycles(); }

double cap_seconds(uint64_t cycles) { return nvx_clock_seconds(cycles); }
