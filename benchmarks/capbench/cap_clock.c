/* TEMPORARY (branch wt-ipc): the board clock for cap_comm.h, only so that the ipc build
 * links before the applications' branch lands; that branch's cap_clock.c replaces it. */
#include "cap_comm.h"

#include <nvx/clock.h>

uint64_t cap_cycles(void) { return nvx_rdtime(); }
double cap_seconds(uint64_t cycles) { return (double)cycles / (double)NVX_TIMER_HZ; }
