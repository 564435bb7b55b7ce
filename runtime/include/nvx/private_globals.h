/* Rank-private globals. A program linked with them (mpicc's default) keeps its own
 * writable data (.data, .bss, .sdata, .sbss of its objects, and getopt's state) in the
 * private region, one Sv39 top-level slot. A thread that enters its own copy sees, at the
 * same addresses, a copy of the region as it was when it entered; the threads it starts
 * share that copy. Everything else (code, heap, stacks, the libraries' data) stays shared
 * by the cluster. Each copy is also mapped, for every thread, at a shared address of its
 * own, so that another thread of the cluster can reach a buffer in it. */
#ifndef NVX_PRIVATE_GLOBALS_H
#define NVX_PRIVATE_GLOBALS_H

#include <stddef.h>

#include <nvx_abi.h> /* the layout: NVX_USER_PRIVATE_BASE, NVX_USER_PRIVATE_SHARED */

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of the program's private region as linked (0: the program has none, its globals
 * are shared by every thread). */
size_t nvx_private_globals_size(void);

/* Gives the calling thread its own copy of the private region, initialized from the
 * program's copy as it is now; the kernel's reports name the thread and those it starts
 * "rank <rank>". 0, EBUSY if it already has its own copy, ENOMEM (no memory, or every
 * copy taken: NVX_USER_PRIVATE_COPIES per program), EINVAL for rank < 0. A program
 * without a private region gets 0 and nothing changes. */
int nvx_private_globals_enter(int rank);

/* The address at which every thread of the cluster reaches the byte the calling thread
 * sees at p: p itself, unless p lies in the private region. */
void *nvx_shared_address(const void *p);

#ifdef __cplusplus
}
#endif

#endif
