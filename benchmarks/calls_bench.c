/* Kernel-call costs for the instruction counter (benchmarks/icount.sh): a call served on
 * the calling hart (thread_self) and one posted to the kernel core (brk(0)), each run N and
 * then 2N times between instruction-counter marks (nvx/icount_mark.h).
 *
 *   calls_bench [N]        (default 1000)
 *
 * Only the first compute cluster runs the loops; it prints one line per call with the
 * number of the call's first mark: "calls_bench: CALL n N mark M". */
#include <stdio.h>
#include <stdlib.h>

#include <nvx/syscall.h>

#include <nvx/icount_mark.h>

static long call_self(void) { return nvx_sys_thread_self(); }
static long call_brk(void) { return nvx_sys_brk(0); }

static const struct {
    const char *name;
    long (*call)(void);
} calls[] = {{"local_call", call_self}, {"forwarded_call", call_brk}};

static int loop(long (*call)(void), unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (call() < 0) return -1;
    return 0;
}

int main(int argc, char **argv)
{
    struct nvx_info info;
    if (nvx_sys_info(&info) < 0) return 1;
    if (info.cluster != info.cluster_count - info.compute_count) return 0; /* first compute only */
    unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 1000;
    if (n == 0) {
        fprintf(stderr, "calls_bench: N must be a positive number\n");
        return 2;
    }
    unsigned mark = 1;
    for (unsigned i = 0; i < sizeof calls / sizeof calls[0]; i++, mark += 3) {
        int bad = loop(calls[i].call, n); /* warm-up: pages touched, the rest of the board settled */
        nvx_icount_mark();
        bad |= loop(calls[i].call, n);
        nvx_icount_mark();
        bad |= loop(calls[i].call, 2 * n);
        nvx_icount_mark();
        if (bad) {
            fprintf(stderr, "calls_bench: %s failed\n", calls[i].name);
            return 1;
        }
        printf("calls_bench: %s n %u mark %u\n", calls[i].name, n, mark);
    }
    return 0;
}
