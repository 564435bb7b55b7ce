/* Rank placement of the launcher's --map-by policies (as in the LWMPI thesis):
 *   compact: fill a cluster's free PEs before moving on to the next cluster;
 *   scatter: deal ranks round-robin over the clusters.
 * Pure logic, shared by the Spawn Server and the host tests. */
#ifndef NVX_SERVICES_PLACEMENT_H
#define NVX_SERVICES_PLACEMENT_H

#ifdef __cplusplus
extern "C" {
#endif

enum nvx_map_policy { NVX_MAP_COMPACT = 0, NVX_MAP_SCATTER = 1 };

/* Parses "compact" or "scatter"; -1 for anything else. */
int nvx_map_policy_parse(const char *name);
const char *nvx_map_policy_name(int policy);

/* Places `ranks` ranks on `clusters` clusters of `pes` processing elements each, at most
 * `per_cluster` (1..pes; the launcher's --ppc, like Open MPI's --npernode) on any one:
 * compact fills a cluster up to per_cluster before the next; scatter deals round-robin
 * (which never puts more than per_cluster on one once ranks <= clusters * per_cluster).
 * On success cluster_of[r] is rank r's cluster index (0-based among the compute clusters)
 * and 0 is returned; -1 if ranks is 0, exceeds clusters * per_cluster, or an argument is
 * bad. Every rank computes the same placement from the launch environment. */
int nvx_place_ranks(unsigned ranks, unsigned clusters, unsigned pes, unsigned per_cluster, int policy,
                    unsigned *cluster_of);

#ifdef __cplusplus
}
#endif
#endif
