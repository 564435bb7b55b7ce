/* Kernel-call stubs: `ecall` with the call number in a7 and arguments in a0..a5 (see
 * kernel/abi/nvx_abi.h). Each typed wrapper is named after its call, nvx_sys_<call> for
 * NVX_SYS_<CALL>, and returns the kernel's result: >= 0 on success, a negative errno on
 * failure. The thread library (nvx/thread.h) owns the plain nvx_thread_* names.
 */
#ifndef NVX_SYSCALL_H
#define NVX_SYSCALL_H

#include <stddef.h>
#include <stdint.h>

#include <nvx_abi.h> /* the kernel ABI, kernel/abi/ */

#ifdef __cplusplus
extern "C" {
#endif

/* The "memory" clobber: the kernel may read or write any user memory the call names. */
static inline long nvx_syscall0(long n)
{
    register long a7 __asm__("a7") = n;
    register long a0 __asm__("a0");
    __asm__ volatile("ecall" : "=r"(a0) : "r"(a7) : "memory");
    return a0;
}

static inline long nvx_syscall1(long n, long x0)
{
    register long a7 __asm__("a7") = n;
    register long a0 __asm__("a0") = x0;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a7) : "memory");
    return a0;
}

static inline long nvx_syscall2(long n, long x0, long x1)
{
    register long a7 __asm__("a7") = n;
    register long a0 __asm__("a0") = x0;
    register long a1 __asm__("a1") = x1;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a7), "r"(a1) : "memory");
    return a0;
}

static inline long nvx_syscall3(long n, long x0, long x1, long x2)
{
    register long a7 __asm__("a7") = n;
    register long a0 __asm__("a0") = x0;
    register long a1 __asm__("a1") = x1;
    register long a2 __asm__("a2") = x2;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a7), "r"(a1), "r"(a2) : "memory");
    return a0;
}

static inline long nvx_syscall4(long n, long x0, long x1, long x2, long x3)
{
    register long a7 __asm__("a7") = n;
    register long a0 __asm__("a0") = x0;
    register long a1 __asm__("a1") = x1;
    register long a2 __asm__("a2") = x2;
    register long a3 __asm__("a3") = x3;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a7), "r"(a1), "r"(a2), "r"(a3) : "memory");
    return a0;
}

static inline long nvx_syscall5(long n, long x0, long x1, long x2, long x3, long x4)
{
    register long a7 __asm__("a7") = n;
    register long a0 __asm__("a0") = x0;
    register long a1 __asm__("a1") = x1;
    register long a2 __asm__("a2") = x2;
    register long a3 __asm__("a3") = x3;
    register long a4 __asm__("a4") = x4;
    __asm__ volatile("ecall"
                     : "+r"(a0)
                     : "r"(a7), "r"(a1), "r"(a2), "r"(a3), "r"(a4)
                     : "memory");
    return a0;
}

static inline long nvx_syscall6(long n, long x0, long x1, long x2, long x3, long x4, long x5)
{
    register long a7 __asm__("a7") = n;
    register long a0 __asm__("a0") = x0;
    register long a1 __asm__("a1") = x1;
    register long a2 __asm__("a2") = x2;
    register long a3 __asm__("a3") = x3;
    register long a4 __asm__("a4") = x4;
    register long a5 __asm__("a5") = x5;
    __asm__ volatile("ecall"
                     : "+r"(a0)
                     : "r"(a7), "r"(a1), "r"(a2), "r"(a3), "r"(a4), "r"(a5)
                     : "memory");
    return a0;
}

static inline long nvx_sys_write(int fd, const void *buf, size_t len)
{
    return nvx_syscall3(NVX_SYS_WRITE, fd, (long)buf, (long)len);
}

/* Ends every thread of the program. The call does not return; should a broken kernel
 * return anyway, asking again is safer than running on. */
__attribute__((noreturn)) static inline void nvx_sys_exit(int status)
{
    for (;;)
        nvx_syscall1(NVX_SYS_EXIT, status);
}

/* Starts entry(arg) on a new thread with sp = stack_top; hart is a local hart index or
 * -1 for any. entry must never return. Returns the new thread id. */
static inline long nvx_sys_thread_create(void (*entry)(void *), void *arg, void *stack_top,
                                         int hart)
{
    return nvx_syscall4(NVX_SYS_THREAD_CREATE, (long)entry, (long)arg, (long)stack_top, hart);
}

__attribute__((noreturn)) static inline void nvx_sys_thread_exit(uint64_t value)
{
    for (;;)
        nvx_syscall1(NVX_SYS_THREAD_EXIT, (long)value);
}

/* Waits for thread tid to end and reports how in *status. */
static inline long nvx_sys_thread_join(long tid, struct nvx_thread_status *status)
{
    return nvx_syscall2(NVX_SYS_THREAD_JOIN, tid, (long)status);
}

static inline long nvx_sys_thread_yield(void)
{
    return nvx_syscall0(NVX_SYS_THREAD_YIELD);
}

static inline long nvx_sys_thread_self(void)
{
    return nvx_syscall0(NVX_SYS_THREAD_SELF);
}

/* Sleeps while *addr == expected (checked by the kernel, atomically with wake);
 * -EAGAIN when the value already differs. */
static inline long nvx_sys_futex_wait(uint32_t *addr, uint32_t expected)
{
    return nvx_syscall2(NVX_SYS_FUTEX_WAIT, (long)addr, (long)expected);
}

/* Registers the calling thread's wait note: a NUL-terminated text of at most
 * NVX_WAIT_NOTE_MAX bytes at note (or NULL for none), read by the kernel only when the
 * board is found deadlocked, which prints it beside what the thread is blocked on. The
 * thread keeps the text current (say what it waits for before it sleeps). */
static inline long nvx_sys_wait_note(const char *note)
{
    return nvx_syscall1(NVX_SYS_WAIT_NOTE, (long)note);
}

/* From now on a fault that kills the calling thread ends the whole program with status
 * NVX_EXIT_KILLED + cause, as the main thread's does (the kernel prints its report). */
static inline long nvx_sys_fault_ends_program(void)
{
    return nvx_syscall0(NVX_SYS_FAULT_ENDS_PROGRAM);
}

static inline long nvx_sys_private_enter(long rank)
{
    return nvx_syscall1(NVX_SYS_PRIVATE_ENTER, rank);
}

/* Wakes up to count threads sleeping on addr; returns how many woke. They go on from
 * the waker's virtual time if it is later than theirs (a hand-off). */
static inline long nvx_sys_futex_wake(uint32_t *addr, uint32_t count)
{
    return nvx_syscall3(NVX_SYS_FUTEX_WAKE, (long)addr, (long)count, 0);
}

/* As nvx_sys_futex_wake, but the woken threads keep their own virtual time
 * (NVX_FUTEX_UNTIMED): for a doorbell whose data carries its own stamps. */
static inline long nvx_sys_futex_wake_untimed(uint32_t *addr, uint32_t count)
{
    return nvx_syscall3(NVX_SYS_FUTEX_WAKE, (long)addr, (long)count, NVX_FUTEX_UNTIMED);
}

/* Sleeps until the board clock (nvx_rdtime(), NVX_TIMER_HZ ticks) reaches deadline; the
 * hart runs other threads or sleeps meanwhile. 0, or -EINVAL for a deadline >= 2^63. */
static inline long nvx_sys_sleep_until(uint64_t deadline)
{
    return nvx_syscall1(NVX_SYS_SLEEP_UNTIL, (long)deadline);
}

/* Moves the program break to new_end (0 only asks) and returns the break now in force. */
static inline long nvx_sys_brk(uintptr_t new_end)
{
    return nvx_syscall1(NVX_SYS_BRK, (long)new_end);
}

/* A new thread stack of size bytes (rounded up to pages) with an unmapped guard page below
 * it: its lowest address, or -EINVAL / -ENOMEM. */
static inline long nvx_sys_stack_map(size_t size)
{
    return nvx_syscall1(NVX_SYS_STACK_MAP, (long)size);
}

static inline long nvx_sys_info(struct nvx_info *info)
{
    return nvx_syscall1(NVX_SYS_INFO, (long)info);
}

#ifdef __cplusplus
}
#endif

#endif
