/* The numbers of rank threads (nvx/ranks.h), read by the runtime and by every layer that
 * runs ranks (LWMPI's mputil, CAP Bench's raw-IKC layer). Hardware numbers come from the
 * kernel ABI and the board (nvx_info); change these here only. */
#ifndef NVX_RANK_CONFIG_H
#define NVX_RANK_CONFIG_H

#include <nvx_abi.h>      /* NVX_IKC_PORTS */
#include <nvx/services.h> /* NVX_FIRST_USER_PORT */

/* Ranks on one cluster: each is pinned to a PE of its own (the cluster's user harts) and
 * owns one user port of its node (its portal; in the raw-IKC layer its mailbox too). */
#define NVX_RANKS_PER_CLUSTER_MAX (NVX_IKC_PORTS - NVX_FIRST_USER_PORT)

/* A rank's default stack: 1/NVX_RANK_STACK_SHARE of the cluster's user memory per rank
 * placed there, rounded down to NVX_PAGE_SIZE and kept within [NVX_RANK_STACK_MIN,
 * NVX_RANK_STACK_MAX]. NVX_RANK_STACK in the environment (nvx-run --rank-stack) sets it in
 * bytes instead, at least NVX_THREAD_STACK_MIN (the launcher's 4K). */
#define NVX_RANK_STACK_SHARE 8u
#define NVX_RANK_STACK_MIN (16u * 1024)
#define NVX_RANK_STACK_MAX (64u * 1024)

#endif
