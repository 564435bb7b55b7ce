/* Placement: the ranks the launcher put on this cluster (rank count and policy from its
 * flags) each run as a thread on their own PE and print where they run. The runner
 * checks that every rank printed exactly once. */
#include <stdlib.h>
#include <nvx/launch.h>
#include <nvx/thread.h>
#include "check.h"

static struct nvx_launch g_launch;
static unsigned g_cluster;

static void *rank_main(void *arg)
{
    unsigned slot = (unsigned)(uintptr_t)arg;
    struct nvx_info info;
    nvx_sys_info(&info);
    printf("rank %u of %u on cluster %u pe %u (%s)\n", g_launch.rank[slot], g_launch.ranks, g_cluster,
           info.local_hart, nvx_map_policy_name(g_launch.policy));
    return 0;
}

int main(void)
{
    struct nvx_info info;
    CHECK_EQ(nvx_sys_info(&info), 0);
    g_cluster = info.cluster;
    CHECK_EQ(nvx_launch_info(&g_launch), 0);
    CHECK(g_launch.ranks_here >= 1 && g_launch.ranks_here <= info.user_harts);
    CHECK_EQ(g_launch.clusters, info.compute_count);
    CHECK_EQ(g_launch.pes, info.compute_user_harts);

    /* the placement this cluster got is the policy's */
    unsigned *cluster_of = malloc(sizeof(unsigned) * g_launch.ranks);
    CHECK(cluster_of != 0);
    CHECK(g_launch.per_cluster >= 1 && g_launch.per_cluster <= g_launch.pes);
    CHECK(g_launch.ranks_here <= g_launch.per_cluster); /* --ppc caps every cluster */
    CHECK_EQ(nvx_place_ranks(g_launch.ranks, g_launch.clusters, g_launch.pes, g_launch.per_cluster, g_launch.policy,
                             cluster_of), 0);
    unsigned here = info.cluster - (info.cluster_count - info.compute_count), expected = 0;
    for (unsigned r = 0; r < g_launch.ranks; r++) {
        if (cluster_of[r] != here) continue;
        CHECK(expected < g_launch.ranks_here && g_launch.rank[expected] == r);
        expected++;
    }
    CHECK_EQ(expected, g_launch.ranks_here);

    nvx_thread_t t[NVX_LAUNCH_MAX_HERE];
    for (unsigned i = 0; i < g_launch.ranks_here; i++) {
        nvx_thread_attr_t attr = {8192, (int)(info.first_user_hart + i)};
        CHECK_EQ(nvx_thread_create(&t[i], &attr, rank_main, (void *)(uintptr_t)i), 0);
    }
    for (unsigned i = 0; i < g_launch.ranks_here; i++) CHECK_EQ(nvx_thread_join(t[i], 0), 0);
    return check_finish("placement");
}
