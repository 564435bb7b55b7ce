#include <nvx/launch.h>

#include <stdlib.h>
#include <string.h>

static int read_unsigned(const char *name, unsigned *out)
{
    const char *text = getenv(name);
    char *end;
    if (text == 0 || *text == '\0') return -1;
    unsigned long v = strtoul(text, &end, 10);
    if (*end != '\0' || v > 0xffffffffu) return -1;
    *out = (unsigned)v;
    return 0;
}

int nvx_launch_info(struct nvx_launch *launch)
{
    if (launch == 0) return -1;
    memset(launch, 0, sizeof *launch);
    if (read_unsigned("NVX_RANKS", &launch->ranks) != 0 || read_unsigned("NVX_CLUSTERS", &launch->clusters) != 0 ||
        read_unsigned("NVX_PES", &launch->pes) != 0 || read_unsigned("NVX_PPC", &launch->per_cluster) != 0)
        return -1;
    if (launch->per_cluster == 0 || launch->per_cluster > launch->pes) return -1;
    launch->policy = nvx_map_policy_parse(getenv("NVX_MAP"));
    const char *list = getenv("NVX_RANK_LIST");
    if (launch->policy < 0 || list == 0) return -1;
    while (*list != '\0') {
        char *end;
        unsigned long r = strtoul(list, &end, 10);
        if (end == list || r >= launch->ranks || launch->ranks_here == NVX_LAUNCH_MAX_HERE) return -1;
        launch->rank[launch->ranks_here++] = (unsigned)r;
        list = *end == ',' ? end + 1 : end;
        if (*end != ',' && *end != '\0') return -1;
    }
    return launch->ranks_here > 0 ? 0 : -1;
}
