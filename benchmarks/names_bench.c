/* Name lookup cost: cold (cache flushed: Name Server, then the owner's Local Name Daemon),
 * cold for a name of this cluster (Name Server only), and cached. The first compute
 * cluster links a name; the second measures; the others return at once. */
#include <stdio.h>
#include <nvx/clock.h>
#include <nvx/ikc.h>
#include <nvx/names.h>

enum { kRounds = 200 };

static double us_per_call(uint64_t ticks, unsigned calls)
{
    return (double)ticks * 1e6 / (double)NVX_TIMER_HZ / calls;
}

int main(void)
{
    struct nvx_info info;
    nvx_sys_info(&info);
    unsigned first = info.cluster_count - info.compute_count, rank = info.cluster - first;
    if (info.compute_count < 2 || rank > 1) return 0;
    uint32_t nodes[2] = {(uint32_t)nvx_node_of(first, 0), (uint32_t)nvx_node_of(first + 1, 0)};
    /* rank 1 waits until rank 0 linked its name (one-to-all sync), and tells it when done */
    long ready = rank == 0 ? nvx_sync_open(0, nodes, 2, NVX_SYNC_ONE_TO_ALL) : nvx_sync_create(0, nodes, 2, NVX_SYNC_ONE_TO_ALL);
    long done = rank == 0 ? nvx_sync_create(1, nodes, 2, NVX_SYNC_ALL_TO_ONE) : nvx_sync_open(1, nodes, 2, NVX_SYNC_ALL_TO_ONE);
    if (ready < 0 || done < 0) return 1;
    if (rank == 0) {
        if (nvx_name_link("bench-remote", 9) != 0) return 1;
        nvx_sync_signal(ready);
        return nvx_sync_wait(done) == 0 ? 0 : 1;
    }
    if (nvx_name_link("bench-local", 8) != 0 || nvx_sync_wait(ready) != 0) return 1;
    unsigned node, port;
    uint64_t cold = 0, local = 0, cached;
    for (int i = 0; i < kRounds; i++) {
        nvx_name_cache_flush();
        uint64_t t0 = nvx_rdtime();
        if (nvx_name_lookup("bench-remote", &node, &port) != 0) return 1;
        uint64_t t1 = nvx_rdtime();
        nvx_name_cache_flush();
        if (nvx_name_lookup("bench-local", &node, &port) != 0) return 1;
        local += nvx_rdtime() - t1;
        cold += t1 - t0;
    }
    uint64_t t0 = nvx_rdtime();
    for (int i = 0; i < kRounds; i++)
        if (nvx_name_lookup("bench-remote", &node, &port) != 0) return 1;
    cached = nvx_rdtime() - t0;
    struct nvx_name_stats s;
    nvx_name_stats(&s);
    printf("lookup                       us/lookup\n");
    printf("cold, remote name         %12.2f   (Name Server + owner's daemon)\n", us_per_call(cold, kRounds));
    printf("cold, this cluster's name %12.2f   (Name Server only)\n", us_per_call(local, kRounds));
    printf("cached                    %12.2f\n", us_per_call(cached, kRounds));
    printf("cache: %llu hits, %llu misses\n", (unsigned long long)s.hits, (unsigned long long)s.misses);
    return nvx_sync_signal(done) == 0 ? 0 : 1;
}
