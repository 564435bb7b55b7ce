/* Costs of rank-private globals for the instruction counter (benchmarks/icount.sh private):
 * a thread's start and end, alone and with entering its own copy of this program's 16 KiB
 * private region (the difference is what a rank's start adds: the copy and its page
 * tables; its pages are copied then, so its first touches cost nothing more); and a switch
 * between two threads on one hart that yield to each other, in one copy and in two (the
 * difference is the view switch: a satp write and a TLB flush). Each row runs N and then
 * 2N times between instruction-counter marks and prints "calls_bench: ROW n OPS mark M",
 * OPS being the operations of the N window. Only the first compute cluster runs. */
#include <stdio.h>
#include <stdlib.h>

#include <nvx/icount_mark.h>
#include <nvx/private_globals.h>
#include <nvx/syscall.h>
#include <nvx/thread.h>

static char g_region[16384] = {1}; /* the private region: 4 pages of data */
static int g_hart;
static int g_rank = 1;

static void *plain(void *arg) { return arg; }

static void *entering(void *arg)
{
    if (nvx_private_globals_enter(g_rank) != 0) return (void *)1;
    return g_region[0] == 1 ? arg : (void *)1;
}

static void *yielding(void *arg)
{
    unsigned n = (unsigned)(unsigned long)arg;
    for (unsigned i = 0; i < n; i++) nvx_thread_yield();
    return NULL;
}

static void *entering_then_yielding(void *arg) { return entering(NULL) ? (void *)1 : yielding(arg); }

static int run(void *(*body)(void *), void *arg)
{
    nvx_thread_attr_t attr = {0, g_hart};
    nvx_thread_t t;
    void *result = (void *)1;
    if (nvx_thread_create(&t, &attr, body, arg) != 0 || nvx_thread_join(t, &result) != 0) return -1;
    return result == NULL ? 0 : -1;
}

/* n thread starts, each alone. */
static int starts(void *(*body)(void *), unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (run(body, NULL) != 0) return -1;
    return 0;
}

/* Two threads on one hart yield n times each: 2n switches. */
static int switches(void *(*body)(void *), unsigned n)
{
    nvx_thread_attr_t attr = {0, g_hart};
    nvx_thread_t a, b;
    void *ra = (void *)1, *rb = (void *)1;
    if (nvx_thread_create(&a, &attr, body, (void *)(unsigned long)n) != 0) return -1;
    if (nvx_thread_create(&b, &attr, body, (void *)(unsigned long)n) != 0) return -1;
    nvx_thread_join(a, &ra);
    nvx_thread_join(b, &rb);
    return ra == NULL && rb == NULL ? 0 : -1;
}

struct row {
    const char *name;
    int (*loop)(void *(*)(void *), unsigned);
    void *(*body)(void *);
    unsigned n, ops_per_n;
};

int main(void)
{
    struct nvx_info info;
    if (nvx_sys_info(&info) < 0) return 1;
    if (info.cluster != info.cluster_count - info.compute_count) return 0; /* first compute only */
    g_hart = (int)info.first_user_hart;
    /* A program has NVX_USER_PRIVATE_COPIES copies: the start rows take 4N of them. */
    const struct row rows[] = {
        {"thread_start", starts, plain, 10, 1},
        {"thread_start_private_16K", starts, entering, 10, 1},
        {"switch_same_copy", switches, yielding, 200, 2},
        {"switch_other_copy", switches, entering_then_yielding, 200, 2},
    };
    unsigned mark = 1;
    for (unsigned i = 0; i < sizeof rows / sizeof rows[0]; i++, mark += 3) {
        const struct row *r = &rows[i];
        int bad = r->loop(r->body, r->n); /* warm-up: stacks pooled, pages touched */
        nvx_icount_mark();
        bad |= r->loop(r->body, r->n);
        nvx_icount_mark();
        bad |= r->loop(r->body, 2 * r->n);
        nvx_icount_mark();
        if (bad) {
            fprintf(stderr, "private_bench: %s failed\n", r->name);
            return 1;
        }
        printf("calls_bench: %s n %u mark %u\n", r->name, r->n * r->ops_per_n, mark);
    }
    return 0;
}
