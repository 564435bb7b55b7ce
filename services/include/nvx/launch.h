/* What the launcher (scripts/nvx-run) decided for this program: the rank count, the
 * mapping policy, the cap of ranks per cluster and which ranks run on this cluster. The
 * Spawn Server passes it in the environment (NVX_RANKS, NVX_MAP, NVX_PPC, NVX_RANK_LIST,
 * NVX_CLUSTERS, NVX_PES). */
#ifndef NVX_LAUNCH_H
#define NVX_LAUNCH_H
#include <nvx/placement.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NVX_LAUNCH_MAX_HERE 32

struct nvx_launch {
    unsigned ranks;       /* ranks of the whole program                          */
    int policy;           /* NVX_MAP_COMPACT or NVX_MAP_SCATTER                   */
    unsigned clusters;    /* compute clusters of the board                        */
    unsigned pes;         /* processing elements (user harts) per compute cluster */
    unsigned per_cluster; /* at most this many ranks on one cluster (--ppc, <= pes) */
    unsigned ranks_here;  /* ranks placed on this cluster                         */
    unsigned rank[NVX_LAUNCH_MAX_HERE]; /* their global numbers, ascending        */
};

/* Fills *launch from the environment; -1 if the program was not started by the launcher
 * or the variables are malformed. */
int nvx_launch_info(struct nvx_launch *launch);

#ifdef __cplusplus
}
#endif
#endif
