/* newlib's system calls (newlib built with --disable-newlib-supplied-syscalls).
 * A program has the console as fds 0-2 (stdin reads as empty) and no file system:
 * every path lookup fails with ENOENT, process control other than exit with ENOSYS.
 * errno is per thread: newlib's errno macro goes through __getreent(). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

#include <nvx/clock.h>
#include <nvx/syscall.h>
#include <nvx/thread.h>

/* Kernel calls return -errno with newlib's numbers: a program compares them with errno.h's. */
_Static_assert(NVX_EPERM == EPERM && NVX_ESRCH == ESRCH && NVX_EINTR == EINTR && NVX_EBADF == EBADF &&
                   NVX_EAGAIN == EAGAIN && NVX_ENOMEM == ENOMEM && NVX_EACCES == EACCES && NVX_EFAULT == EFAULT &&
                   NVX_EBUSY == EBUSY && NVX_EINVAL == EINVAL && NVX_ENOSYS == ENOSYS && NVX_EDEADLK == EDEADLK &&
                   NVX_ENOSPC == ENOSPC && NVX_EMSGSIZE == EMSGSIZE && NVX_EADDRINUSE == EADDRINUSE && NVX_ENOENT == ENOENT &&
                   NVX_EEXIST == EEXIST && NVX_ENAMETOOLONG == ENAMETOOLONG && NVX_ECANCELED == ECANCELED,
               "the kernel's errno values (nvx_abi.h) are newlib's");

/* fds 0-2 are the console, shared by every thread's stdio streams. */
static int fd_is_console(int fd)
{
    return fd >= 0 && fd <= 2;
}

static int fail(int error)
{
    errno = error;
    return -1;
}

_READ_WRITE_RETURN_TYPE _write(int fd, const void *buf, size_t len)
{
    if (fd != 1 && fd != 2)
        return fail(EBADF);
    long written = nvx_sys_write(fd, buf, len);
    if (written < 0)
        return fail((int)-written);
    return written;
}

/* There is no console input yet: stdin is at end of file. */
_READ_WRITE_RETURN_TYPE _read(int fd, void *buf, size_t len)
{
    (void)buf;
    (void)len;
    if (fd != 0)
        return fail(EBADF);
    return 0;
}

/* The console cannot really be closed: one thread's fclose(stdout) leaves the other
 * threads' output working. */
int _close(int fd)
{
    return fd_is_console(fd) ? 0 : fail(EBADF);
}

/* A character device, so that stdio makes stdout line buffered. */
int _fstat(int fd, struct stat *st)
{
    if (!fd_is_console(fd))
        return fail(EBADF);
    memset(st, 0, sizeof(*st));
    st->st_mode = S_IFCHR | S_IRUSR | S_IWUSR;
    return 0;
}

int _isatty(int fd)
{
    if (!fd_is_console(fd)) {
        errno = EBADF;
        return 0;
    }
    return 1;
}

_off_t _lseek(int fd, _off_t offset, int whence)
{
    (void)offset;
    (void)whence;
    return fail(fd_is_console(fd) ? ESPIPE : EBADF);
}

int _fcntl(int fd, int cmd, ...)
{
    if (!fd_is_console(fd))
        return fail(EBADF);
    switch (cmd) {
    case F_GETFL:
        return fd == 0 ? O_RDONLY : O_WRONLY;
    case F_GETFD:
        return 0;
    default:
        return fail(EINVAL);
    }
}

int _open(const char *path, int flags, ...)
{
    (void)path;
    (void)flags;
    return fail(ENOENT);
}

int _stat(const char *path, struct stat *st)
{
    (void)path;
    (void)st;
    return fail(ENOENT);
}

int _link(const char *existing, const char *created)
{
    (void)existing;
    (void)created;
    return fail(ENOENT);
}

int _unlink(const char *path)
{
    (void)path;
    return fail(ENOENT);
}

int _mkdir(const char *path, mode_t mode)
{
    (void)path;
    (void)mode;
    return fail(ENOENT);
}

/* The break as the kernel confirmed it; 0 until first asked. */
static uintptr_t heap_start, heap_end;

/* Moves the break by increment; *old_end receives the break before the move. */
static int move_break(ptrdiff_t increment, uintptr_t *old_end)
{
    if (heap_end == 0) {
        long current = nvx_sys_brk(0);
        if (current < 0)
            return ENOMEM;
        heap_start = heap_end = (uintptr_t)current;
    }
    *old_end = heap_end;
    uintptr_t new_end = heap_end + (uintptr_t)increment;
    if (increment > 0 && new_end < heap_end)
        return ENOMEM;
    if (increment < 0 && (new_end > heap_end || new_end < heap_start))
        return ENOMEM;
    if (increment != 0) {
        long granted = nvx_sys_brk(new_end);
        if (granted < 0 || (uintptr_t)granted < new_end)
            return ENOMEM;
        heap_end = new_end;
    }
    return 0;
}

/* Never hands out memory the kernel has not mapped: the break moves only as far as the
 * kernel confirms. malloc calls this under its lock; the mutex covers direct callers. */
void *_sbrk(ptrdiff_t increment)
{
    static nvx_mutex_t lock = NVX_MUTEX_INITIALIZER;
    nvx_mutex_lock(&lock);
    uintptr_t old_end = 0;
    int err = move_break(increment, &old_end);
    nvx_mutex_unlock(&lock);
    if (err != 0) {
        errno = err;
        return (void *)-1;
    }
    return (void *)old_end;
}

__attribute__((noreturn)) void _exit(int status)
{
    nvx_sys_exit(status);
}

/* A program is one process per cluster; its pid is the cluster index + 1 (never 0). */
pid_t _getpid(void)
{
    static pid_t pid;
    pid_t cached = __atomic_load_n(&pid, __ATOMIC_RELAXED);
    if (cached != 0)
        return cached;
    struct nvx_info info;
    if (nvx_sys_info(&info) < 0)
        return 1; /* getpid cannot fail; the info call only fails on a bad pointer */
    cached = (pid_t)info.cluster + 1;
    __atomic_store_n(&pid, cached, __ATOMIC_RELAXED);
    return cached;
}

/* Signals are not delivered: one sent to this program ends it with the status a shell
 * reports for a signal death (abort() ends here with 128 + SIGABRT). */
int _kill(pid_t pid, int sig)
{
    if (pid != _getpid() && pid != 0 && pid != -1)
        return fail(ESRCH);
    if (sig < 0 || sig >= NSIG)
        return fail(EINVAL);
    if (sig != 0)
        _exit(128 + sig);
    return 0;
}

pid_t _fork(void)
{
    return fail(ENOSYS);
}

int _execve(const char *path, char *const argv[], char *const envp[])
{
    (void)path;
    (void)argv;
    (void)envp;
    return fail(ENOSYS);
}

pid_t _wait(int *status)
{
    (void)status;
    return fail(ECHILD);
}

/* Time since the board started: there is no real-time clock. */
int _gettimeofday(struct timeval *tv, void *tz)
{
    uint64_t ticks = nvx_rdtime();
    if (tv != NULL) {
        tv->tv_sec = (time_t)(ticks / NVX_TIMER_HZ);
        tv->tv_usec = (suseconds_t)nvx_ticks_to(ticks % NVX_TIMER_HZ, 1000000);
    }
    if (tz != NULL)
        memset(tz, 0, sizeof(struct timezone));
    return 0;
}

/* Elapsed time stands in for user time (clock() sums the fields): the kernel keeps no
 * per-program CPU time. Units are CLOCKS_PER_SEC, newlib's CLK_TCK. */
clock_t _times(struct tms *buf)
{
    clock_t now = (clock_t)nvx_ticks_to(nvx_rdtime(), CLOCKS_PER_SEC);
    if (buf != NULL)
        *buf = (struct tms){.tms_utime = now, .tms_stime = 0, .tms_cutime = 0, .tms_cstime = 0};
    return now;
}
