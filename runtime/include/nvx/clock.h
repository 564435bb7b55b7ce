/* Clocks of the board, as user space reads them (no kernel call).
 *
 * The virtual clock (nvx_clock_*): this hart's time in cycles of the modeled core (the
 * board table's frequency, nvx_clock_hz()), one instruction retired = one cycle, plus the
 * offset its kernel keeps (nvx_abi.h: the counter and clock pages). It advances with the
 * work the hart does, not with the host: a hart sleeping in wfi does not advance. Under
 * `nvx-run --clock wall` (no instruction counter) the same calls read the board clock
 * scaled to cycles of the same frequency, and nvx_clock_is_virtual() is 0.
 *
 * The board clock (nvx_rdtime): the `time` CSR, a copy of the CLINT's mtime; it follows the
 * host's wall time. Kernel timeouts, sleeps and clock_gettime() use it. */
#ifndef NVX_CLOCK_H
#define NVX_CLOCK_H

#include <stdint.h>

#include <nvx_abi.h> /* NVX_TIMER_HZ */

#ifdef __cplusplus
extern "C" {
#endif

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

/* The calling thread's hart's virtual time, in cycles (correct if the thread moves to
 * another hart meanwhile: it is then that hart's time). */
uint64_t nvx_clock_cycles(void);
/* Cycles per second of the modeled core. */
uint64_t nvx_clock_hz(void);
/* cycles in seconds of the modeled core. */
double nvx_clock_seconds(uint64_t cycles);
/* 1 when the clock counts instructions (the default), 0 under --clock wall. */
int nvx_clock_is_virtual(void);
/* A hand-off through shared memory (a queue cell, an envelope) carried `stamp`, the
 * sender's nvx_clock_cycles() when it wrote: the calling hart's time becomes at least that
 * (Lamport). Costs a kernel call (on this hart) only when the stamp is ahead. */
void nvx_clock_take(uint64_t stamp);
/* The calling thread serves the requests of others (an agent, a name server): each
 * hand-off to it then sets its time to the hand-off's instead of the maximum, so that a
 * request it takes late in host order is served at its own time, not after the later ones
 * it served first. Its time may go back between requests: do not measure with it. */
void nvx_clock_server(void);
/* A server thread (nvx_clock_server) begins a request another thread queued for it with
 * `stamp` (a job, a work item): its time becomes the stamp, earlier or later than its own,
 * as every hand-off to a server sets it. Other threads: as nvx_clock_take. */
void nvx_clock_serve(uint64_t stamp);

#ifdef __cplusplus
}
#endif

#endif
