#include <nvx/placement.h>

#include <string.h>

int nvx_map_policy_parse(const char *name)
{
    if (name == 0) return -1;
    if (strcmp(name, "compact") == 0) return NVX_MAP_COMPACT;
    if (strcmp(name, "scatter") == 0) return NVX_MAP_SCATTER;
    return -1;
}

const char *nvx_map_policy_name(int policy)
{
    return policy == NVX_MAP_COMPACT ? "compact" : policy == NVX_MAP_SCATTER ? "scatter" : "unknown";
}

int nvx_place_ranks(unsigned ranks, unsigned clusters, unsigned pes, unsigned per_cluster, int policy,
                    unsigned *cluster_of)
{
    if (ranks == 0 || clusters == 0 || pes == 0 || cluster_of == 0) return -1;
    if (per_cluster == 0 || per_cluster > pes) return -1;
    if ((unsigned long long)ranks > (unsigned long long)clusters * per_cluster) return -1;
    for (unsigned r = 0; r < ranks; r++) {
        if (policy == NVX_MAP_COMPACT) cluster_of[r] = r / per_cluster;
        else if (policy == NVX_MAP_SCATTER) cluster_of[r] = r % clusters;
        else return -1;
    }
    return 0;
}
