/* A faulting thread is killed with a report; the kernel, the program and its other
 * threads go on. Each fault runs in its own thread and join tells how it ended. */
#include <nvx/thread.h>
#include <errno.h>
#include <stdint.h>
#include "check.h"

/* RISC-V exception causes */
enum { kIllegal = 2, kBreakpoint = 3, kInstrPageFault = 12, kLoadPageFault = 13, kStorePageFault = 15 };

static void *load_null(void *a) { (void)a; return (void *)(long)*(volatile long *)0; }
static void *store_kernel(void *a) { (void)a; *(volatile long *)0xffffffffc0000000ull = 1; return 0; }
static void *load_kernel(void *a) { (void)a; return (void *)(long)*(volatile long *)0xffffffffc0001000ull; }
static void *store_text(void *a) { (void)a; *(volatile uint32_t *)(uintptr_t)load_null = 0; return 0; }
static void *illegal(void *a) { (void)a; __asm__ volatile(".word 0"); return 0; }
static void *privileged(void *a) { (void)a; long v; __asm__ volatile("csrr %0, sstatus" : "=r"(v)); return (void *)v; }
static void *breakpoint(void *a) { (void)a; __asm__ volatile("ebreak"); return 0; }
static void *jump_kernel(void *a) { (void)a; ((void (*)(void))0xffffffffc0000000ull)(); return 0; }
/* Another cluster's memory: user space cannot even name it (no mapping exists). */
static void *load_other_cluster(void *a) { return (void *)(long)*(volatile long *)a; }
static uint32_t g_data_code[4] = {0x00000013u, 0x00008067u}; /* nop; ret -- in a data page */
static void *execute_data(void *a) { (void)a; ((void (*)(void))(uintptr_t)g_data_code)(); return 0; }

/* runs through all the faults and must finish its work untouched */
static void *survivor(void *a)
{
    (void)a;
    double acc = 0;
    for (int i = 0; i < 1000; i++) {
        acc += 0.25;
        if (i % 100 == 0) nvx_thread_yield();
    }
    return (void *)(long)(acc == 250.0);
}

struct fault_case {
    const char *name;
    void *(*fn)(void *);
    uint64_t cause;
};

int main(void)
{
    struct nvx_info info;
    CHECK_EQ(nvx_sys_info(&info), 0);
    /* the first address of the next cluster's memory, as a physical address would be */
    void *other = (void *)(uintptr_t)(0x80800000ull + 0x400000ull * ((info.cluster + 1) % info.cluster_count));
    const struct fault_case cases[] = {
        {"load NULL", load_null, kLoadPageFault},
        {"store to kernel memory", store_kernel, kStorePageFault},
        {"load from kernel memory", load_kernel, kLoadPageFault},
        {"store to program text", store_text, kStorePageFault},
        {"illegal instruction", illegal, kIllegal},
        {"privileged CSR read", privileged, kIllegal},
        {"breakpoint", breakpoint, kBreakpoint},
        {"jump into the kernel", jump_kernel, kInstrPageFault},
        {"execute a data page", execute_data, kInstrPageFault},
        {"load from another cluster", load_other_cluster, kLoadPageFault},
    };
    enum { kCases = sizeof cases / sizeof cases[0] };

    nvx_thread_t keep;
    CHECK_EQ(nvx_thread_create(&keep, 0, survivor, 0), 0);
    for (unsigned i = 0; i < kCases; i++) {
        nvx_thread_t t;
        struct nvx_thread_status st = {99, 99};
        CHECK_EQ(nvx_thread_create(&t, 0, cases[i].fn, other), 0);
        CHECK_EQ(nvx_thread_join_status(t, &st), 0);
        CHECK_EQ(st.how, NVX_THREAD_KILLED);
        CHECK_EQ(st.value, cases[i].cause);
        if (st.how != NVX_THREAD_KILLED || st.value != cases[i].cause) printf("  case: %s\n", cases[i].name);
    }
    /* nvx_thread_join reports a killed thread as EFAULT */
    nvx_thread_t t;
    CHECK_EQ(nvx_thread_create(&t, 0, load_null, 0), 0);
    CHECK_EQ(nvx_thread_join(t, 0), EFAULT);

    void *ret = 0;
    CHECK_EQ(nvx_thread_join(keep, &ret), 0);
    CHECK_EQ((long)ret, 1);
    return check_finish("fault");
}
