// Environment services of the contract: clocks, processor names, memory, abort, variant.
#include <stdio.h>
#include <stdlib.h>

#include <nvx/clock.h>
#include <nvx/syscall.h>

#include "state.hpp"

namespace mputil {

// The calling rank's hart's virtual time (nvx/clock.h; the board clock under --clock wall).
double wtime() { return nvx_clock_seconds(nvx_clock_cycles()); }
double wtick() { return nvx_clock_is_virtual() ? 1.0 / (double)nvx_clock_hz() : 1.0 / (double)NVX_TIMER_HZ; }

int processor_name(char* out, int max)
{
    if (out == nullptr || max <= 0) return 0;
    RankState* me = self_state();
    int n = snprintf(out, (size_t)max, "nvx-cluster%u-pe%d", g_cluster.first_compute + g_cluster.my_cluster,
                     me != nullptr ? me->pe : -1);
    return n < max ? n : max - 1;
}

// The cluster exits with the status; the Spawn Server ends the whole run on the first
// non-zero one. A zero status would look like success and leave the others waiting, so
// it becomes 1; statuses are one byte, as in a shell.
[[noreturn]] void abort_run(int status)
{
    int code = status & 0xff;
    if (code == 0) code = 1;
    fflush(stdout);
    fflush(stderr);
    nvx_sys_exit(code);
}

void* alloc_mem(size_t bytes) { return malloc(bytes == 0 ? 1 : bytes); }
void free_mem(void* p) { free(p); }
size_t memory_bytes() { return g_cluster.user_memory; }
uint32_t spare_objects(size_t object_bytes)
{
    return config::spare_objects(g_cluster.user_memory, (uint32_t)g_cluster.here, object_bytes);
}

const char* variant() { return variant_name(); }

void* xmalloc(size_t bytes)
{
    void* p = malloc(bytes == 0 ? 1 : bytes);
    if (p == nullptr) {
        printf("[lwmpi] rank %d: out of memory (%lu bytes): ending the run\n", world_rank(), (unsigned long)bytes);
        abort_run(1);
    }
    return p;
}

}  // namespace mputil
