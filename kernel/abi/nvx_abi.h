/* Kernel-call ABI: the only contract between user space (runtime/) and the kernel.
 * C-compatible so that C programs and the C++ runtime include the same file.
 *
 * Calling convention: `ecall` from U-mode with the call number in a7 and up to six
 * arguments in a0..a5. The result comes back in a0: >= 0 on success, a negative errno
 * (NVX_E*) on failure. Every call validates its arguments; bad input never panics.
 */
#ifndef NVX_ABI_H
#define NVX_ABI_H

#include <stdint.h>

/* Kernel call numbers. Calls marked (local) run on the calling hart; the others change
 * shared kernel state and are forwarded to the cluster's kernel core. */
enum nvx_syscall {
    NVX_SYS_WRITE = 1,         /* (local) write(fd 1|2, buf, len) -> bytes written      */
    NVX_SYS_EXIT = 2,          /* exit(status): ends every thread of the program         */
    NVX_SYS_THREAD_CREATE = 3, /* (entry, arg, stack_top, hart) -> tid; hart -1 = any    */
    NVX_SYS_THREAD_EXIT = 4,   /* thread_exit(value): does not return                   */
    NVX_SYS_THREAD_JOIN = 5,   /* (tid, struct nvx_thread_status*) -> 0                  */
    NVX_SYS_THREAD_YIELD = 6,  /* yield() -> 0                                           */
    NVX_SYS_THREAD_SELF = 7,   /* (local) -> tid                                         */
    NVX_SYS_FUTEX_WAIT = 8,    /* (uint32_t* addr, expected) -> 0 | -EAGAIN              */
    NVX_SYS_FUTEX_WAKE = 9,    /* (uint32_t* addr, count) -> number of threads woken     */
    NVX_SYS_BRK = 10,          /* brk(new_end | 0) -> current break (or -ENOMEM)          */
    NVX_SYS_INFO = 11,         /* (local) info(struct nvx_info*) -> 0                    */
    NVX_SYS_COUNT
};

/* errno values, identical to newlib's <errno.h> numbers so the runtime passes them on. */
#define NVX_EPERM 1
#define NVX_ESRCH 3
#define NVX_EINTR 4
#define NVX_EBADF 9
#define NVX_EAGAIN 11
#define NVX_ENOMEM 12
#define NVX_EFAULT 14
#define NVX_EBUSY 16
#define NVX_EINVAL 22
#define NVX_ENOSYS 88
#define NVX_EDEADLK 45
#define NVX_ENOSPC 28

/* How a joined thread ended. */
enum nvx_thread_end {
    NVX_THREAD_EXITED = 0, /* value = the thread's exit value                    */
    NVX_THREAD_KILLED = 1  /* value = the RISC-V exception cause that killed it  */
};

struct nvx_thread_status {
    uint64_t how;   /* enum nvx_thread_end */
    uint64_t value;
};

/* Where the calling thread runs and what the board looks like around it. */
struct nvx_info {
    uint32_t cluster;        /* this cluster's index in the board table          */
    uint32_t cluster_count;  /* clusters on the board                             */
    uint32_t compute_count;  /* compute clusters on the board                     */
    uint32_t hart;           /* global hart id of the calling hart                */
    uint32_t local_hart;     /* index of the calling hart inside its cluster      */
    uint32_t user_harts;     /* harts of this cluster that run user threads       */
    uint32_t first_user_hart;/* local index of the first user hart                */
    uint32_t max_threads;    /* user threads this cluster's kernel can hold       */
    uint64_t user_memory;    /* bytes of cluster memory left for user space        */
    char board[16];          /* board name, NUL-terminated                         */
};

/* Initial user stack, as built by the kernel for the program's first thread:
 *   sp -> argc (uint64), argv[0..argc-1] (pointers), NULL, then the strings.
 * Threads created later start at entry(arg) with sp = stack_top; returning from entry
 * is not allowed (the runtime's trampoline calls NVX_SYS_THREAD_EXIT). A new thread gets
 * its creator's gp (program-wide); tp and every other register start at zero. */

/* User address space layout (Sv39 lower half). */
#define NVX_USER_STACK_TOP 0x80000000ull   /* main stack grows down from here      */
#define NVX_USER_STACK_SIZE (32ull * 1024)  /* main thread's stack                  */

#endif
