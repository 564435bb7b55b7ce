/* Kernel calls with bad arguments get a clear negative errno and no harm is done:
 * bad pointers (NULL, kernel, unmapped, read-only), bad ids, out-of-range values,
 * unknown call numbers, thread-table exhaustion. */
#include <nvx/thread.h>
#include <errno.h>
#include <stdint.h>
#include <unistd.h>
#include "check.h"

#define KERNEL_ADDRESS ((void *)0xffffffffc0000000ull)
#define UNMAPPED ((void *)0x40000000ull)

static uint32_t g_gate;
static void thread_entry_wait(void *arg)
{
    (void)arg;
    while (__atomic_load_n(&g_gate, __ATOMIC_ACQUIRE) == 0) nvx_sys_futex_wait(&g_gate, 0);
    nvx_sys_thread_exit(7);
}

static void never_runs(void *arg) { (void)arg; }

/* info's user_memory while another hart grows the heap: every reading must be the same
 * number (it used to be summed from two counters the kernel core updates one after the
 * other, and came out a page short in between: ranks sizing a message from it disagreed;
 * and a new program's first thread ran before exec gave back its copy of the image).
 * 64 pages keep the heap in its first 2 MiB: no new page table changes the number. */
enum { kInfoReads = 20000, kGrowPages = 64 };
static uint64_t g_memory_before;
static uint32_t g_reader_started, g_memory_changed;
static void read_memory(void *arg)
{
    (void)arg;
    __atomic_store_n(&g_reader_started, 1, __ATOMIC_RELEASE);
    nvx_sys_futex_wake(&g_reader_started, 1);
    for (int i = 0; i < kInfoReads; i++) {
        struct nvx_info now;
        if (nvx_sys_info(&now) != 0 || now.user_memory != g_memory_before) g_memory_changed++;
    }
    nvx_sys_thread_exit(0);
}

enum { kStackWords = 256, kMaxThreads = 64 };
static uint64_t g_stacks[kMaxThreads][kStackWords] __attribute__((aligned(16)));

int main(void)
{
    static const char text[] = "read-only";
    struct nvx_info info;
    CHECK_EQ(nvx_sys_info(&info), 0);

    /* write */
    CHECK_EQ(nvx_sys_write(5, "x", 1), -EBADF);
    CHECK_EQ(nvx_sys_write(-1, "x", 1), -EBADF);
    CHECK_EQ(nvx_sys_write(1, 0, 4), -EFAULT);
    CHECK_EQ(nvx_sys_write(1, KERNEL_ADDRESS, 4), -EFAULT);
    CHECK_EQ(nvx_sys_write(1, UNMAPPED, 4), -EFAULT);
    CHECK_EQ(nvx_sys_write(1, text, (size_t)1 << 40), -EFAULT);
    CHECK_EQ(nvx_sys_write(1, text, 0), 0);

    /* unknown calls */
    CHECK_EQ(nvx_syscall0(0), -ENOSYS);
    CHECK_EQ(nvx_syscall0(999), -ENOSYS);
    CHECK_EQ(nvx_syscall0(-1), -ENOSYS);

    /* the control cluster's services only: a user program may neither power the board off
     * nor wait for ended clusters */
    CHECK_EQ(nvx_syscall1(NVX_SYS_POWEROFF, 0), -EPERM);
    CHECK_EQ(nvx_syscall0(NVX_SYS_CLUSTER_END_WAIT), -EPERM);

    /* info: destination must be writable user memory */
    CHECK_EQ(nvx_sys_info(0), -EFAULT);
    CHECK_EQ(nvx_sys_info(KERNEL_ADDRESS), -EFAULT);
    CHECK_EQ(nvx_sys_info((struct nvx_info *)(uintptr_t)main), -EFAULT);

    /* thread create: entry, stack and hart are all checked */
    void *stack = &g_stacks[0][kStackWords];
    CHECK_EQ(nvx_sys_thread_create(0, 0, stack, -1), -EFAULT);
    CHECK_EQ(nvx_sys_thread_create((void (*)(void *))KERNEL_ADDRESS, 0, stack, -1), -EFAULT);
    CHECK_EQ(nvx_sys_thread_create((void (*)(void *))(uintptr_t)g_stacks, 0, stack, -1), -EFAULT); /* not executable */
    CHECK_EQ(nvx_sys_thread_create(never_runs, 0, (char *)stack - 8, -1), -EFAULT);  /* misaligned */
    CHECK_EQ(nvx_sys_thread_create(never_runs, 0, UNMAPPED, -1), -EFAULT);
    CHECK_EQ(nvx_sys_thread_create(never_runs, 0, KERNEL_ADDRESS, -1), -EFAULT);
    CHECK_EQ(nvx_sys_thread_create(never_runs, 0, stack, 0), -EINVAL);               /* kernel core */
    CHECK_EQ(nvx_sys_thread_create(never_runs, 0, stack, 999), -EINVAL);
    CHECK_EQ(nvx_sys_thread_create(never_runs, 0, stack, -2), -EINVAL);

    /* join: ids and status pointer */
    struct nvx_thread_status st;
    CHECK_EQ(nvx_sys_thread_join(12345, &st), -ESRCH);
    CHECK_EQ(nvx_sys_thread_join(-1, &st), -ESRCH);
    CHECK_EQ(nvx_sys_thread_join(nvx_sys_thread_self(), &st), -EDEADLK);

    /* futex */
    uint32_t word = 5;
    CHECK_EQ(nvx_sys_futex_wait(&word, 4), -EAGAIN);
    CHECK_EQ(nvx_sys_futex_wait((uint32_t *)((char *)&word + 1), 5), -EINVAL);
    CHECK_EQ(nvx_sys_futex_wait(0, 0), -EFAULT);
    CHECK_EQ(nvx_sys_futex_wait((uint32_t *)KERNEL_ADDRESS, 0), -EFAULT);
    CHECK_EQ(nvx_sys_futex_wake(0, 1), -EFAULT);
    CHECK_EQ(nvx_sys_futex_wake(&word, 10), 0);

    /* brk: cannot shrink below the heap start or grow past user memory */
    long brk = nvx_sys_brk(0);
    CHECK(brk > 0);
    CHECK_EQ(nvx_sys_brk(0x1000), -ENOMEM);
    CHECK_EQ(nvx_sys_brk((uintptr_t)1 << 37), -ENOMEM);
    CHECK_EQ(nvx_sys_brk(0), brk);

    /* user_memory: one number for every caller while the heap grows */
    g_memory_before = info.user_memory;
    long reader = nvx_sys_thread_create(read_memory, 0, &g_stacks[0][kStackWords], -1);
    CHECK(reader > 0);
    while (reader > 0 && __atomic_load_n(&g_reader_started, __ATOMIC_ACQUIRE) == 0)
        nvx_sys_futex_wait(&g_reader_started, 0);
    for (int i = 0; i < kGrowPages; i++) CHECK(sbrk(4096) != (void *)-1);
    if (reader > 0) CHECK_EQ(nvx_sys_thread_join(reader, &st), 0);
    CHECK_EQ(g_memory_changed, 0);
    CHECK_EQ(nvx_sys_info(&info), 0);
    CHECK_EQ(info.user_memory, g_memory_before);

    /* thread-table exhaustion: create until EAGAIN, then everything still works */
    long tids[kMaxThreads];
    int created = 0;
    long rc = 0;
    while (created < kMaxThreads) {
        rc = nvx_sys_thread_create(thread_entry_wait, 0, &g_stacks[created][kStackWords], -1);
        if (rc < 0) break;
        tids[created++] = rc;
    }
    CHECK_EQ(rc, -EAGAIN);
    CHECK(created + 1 == (int)info.max_threads); /* every slot but main's */
    __atomic_store_n(&g_gate, 1, __ATOMIC_RELEASE);
    nvx_sys_futex_wake(&g_gate, UINT32_MAX);
    for (int i = 0; i < created; i++) {
        CHECK_EQ(nvx_sys_thread_join(tids[i], &st), 0);
        CHECK_EQ(st.how, NVX_THREAD_EXITED);
        CHECK_EQ(st.value, 7);
    }
    CHECK_EQ(nvx_sys_thread_join(tids[0], &st), -ESRCH); /* already joined: stale id */
    return check_finish("syscalls");
}
