/* The system program: what runs on each cluster when no user program does. */
#ifndef NVX_SYSTEM_H
#define NVX_SYSTEM_H
#include <errno.h>
#include <string.h>
#include <nvx/ikc.h>
#include <nvx/services.h>

/* First I/O cluster: the Name Server (a thread) and the Spawn Server (launch arguments). */
void *name_server_main(void *unused);
/* What the Name Server refused to believe or could not deliver (the Spawn Server prints
 * them in its final report). */
struct name_server_counters {
    unsigned long forged;       /* requests whose body named another node than the stamp */
    unsigned long undelivered;  /* answers the asker's reply port did not take           */
};
extern struct name_server_counters g_name_server_counters;
int spawn_server_main(int argc, char **argv);
/* Every I/O cluster: the DDR server (nvx/ddr.h), a thread on the first, the main thread
 * elsewhere. */
void *ddr_server_main(void *unused);

/* 0 if `name` (in a request, up to NVX_NAME_MAX + 1 bytes read) is a name the servers
 * keep: -EINVAL when empty, -ENAMETOOLONG past NVX_NAME_MAX. */
static inline int system_name_ok(const char *name)
{
    size_t n = strnlen(name, NVX_NAME_MAX + 1);
    if (n == 0) return -EINVAL;
    return n > NVX_NAME_MAX ? -ENAMETOOLONG : 0;
}

/* Compute clusters: receives programs from the Spawn Server; `exited` is the status of
 * the program that just ended, or -1 at boot. Never returns. */
int spawn_client_main(int exited);

/* System calls only the system program may make. */
static inline long nvx_exec(const void *image, unsigned long size, const char *strings, unsigned long strings_size)
{
    return nvx_syscall4(NVX_SYS_EXEC, (long)image, (long)size, (long)strings, (long)strings_size);
}
static inline long nvx_poweroff(unsigned status) { return nvx_syscall1(NVX_SYS_POWEROFF, status); }
static inline long nvx_cluster_end_wait(void) { return nvx_syscall0(NVX_SYS_CLUSTER_END_WAIT); }
static inline long nvx_map_image(unsigned long size) { return nvx_syscall1(NVX_SYS_MAP_IMAGE, (long)size); }

#endif
