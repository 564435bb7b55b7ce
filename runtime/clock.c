/* The virtual clock's reading (nvx/clock.h): two loads from the board's counter page and
 * the kernel's clock page (nvx_abi.h), at fixed addresses mapped read-only. All of it is
 * the clock's own code (NVX_MODEL_CODE): reading the clock costs the modeled core nothing. */
#include <nvx/clock.h>
#include <nvx/syscall.h>
#include <nvx/thread.h>
#include <nvx_abi.h>

#include "tcb.h"

#define COUNTERS ((const volatile struct nvx_clock_counters *)NVX_USER_CLOCK_COUNTERS)
#define CLUSTER ((const volatile struct nvx_clock_cluster *)NVX_USER_CLOCK_CLUSTER)

NVX_MODEL_CODE int nvx_clock_is_virtual(void)
{
    return COUNTERS->live == NVX_CLOCK_LIVE;
}

NVX_MODEL_CODE uint64_t nvx_clock_hz(void)
{
    return CLUSTER->core_hz;
}

NVX_MODEL_CODE double nvx_clock_seconds(uint64_t cycles)
{
    return (double)cycles / (double)CLUSTER->core_hz;
}

NVX_MODEL_CODE uint64_t nvx_clock_cycles(void)
{
    if (COUNTERS->live != NVX_CLOCK_LIVE) return nvx_ticks_to(nvx_rdtime(), CLUSTER->core_hz);
    /* The kernel notes in the clock page which hart runs each thread slot before the thread
     * runs there; if the thread moved while reading, read again on its new hart. */
    unsigned slot = (unsigned long)__atomic_load_n(&nvx_thread_self()->tid, __ATOMIC_RELAXED) % NVX_THREAD_SLOTS;
    uint32_t first = CLUSTER->first_hart;
    for (;;) {
        uint32_t local = CLUSTER->thread_hart[slot];
        uint64_t cycles = COUNTERS->cycles[first + local] + CLUSTER->offset[local];
        if (CLUSTER->thread_hart[slot] == local) return cycles;
    }
}

NVX_MODEL_CODE void nvx_clock_take(uint64_t stamp)
{
    if (COUNTERS->live != NVX_CLOCK_LIVE || stamp <= nvx_clock_cycles()) return;
    nvx_syscall1(NVX_SYS_CLOCK_TAKE, (long)stamp);
}

NVX_MODEL_CODE void nvx_clock_serve(uint64_t stamp)
{
    if (COUNTERS->live == NVX_CLOCK_LIVE) nvx_syscall1(NVX_SYS_CLOCK_TAKE, (long)stamp);
}

NVX_MODEL_CODE void nvx_clock_server(void)
{
    nvx_syscall0(NVX_SYS_CLOCK_SERVER);
}
