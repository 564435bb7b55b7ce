// MPI_COMM_WORLD's leaders' barrier on the NoC's sync registers (see coll_shm.hpp), through
// mputil's leader syncs on register kBarrierSyncPort. Only the world's leaders use them, one
// per cluster, so the calling leader's syncs are this file's (no heap: a communicator's
// memory stays what it was).
#include <mputil/mputil.hpp>

#include "coll_shm.hpp"
#include "config.hpp"
#include "request.hpp"

namespace lwmpi {

namespace {
mputil::LeaderSync g_world_sync;

bool world_leader(const Comm& c)
{
    return c.handle == MPI_COMM_WORLD && c.layout.index_in_slot[c.rank] == 0;
}
}  // namespace

bool noc_barrier_open(Comm& c)
{
    const ClusterLayout& l = c.layout;
    if (!world_leader(c) || l.slots < 2 || l.slots > mputil::kLeaderSyncMax)
        return false;
    int clusters[mputil::kLeaderSyncMax];
    for (int s = 0; s < l.slots; s++)
        clusters[s] = mputil::cluster_of(c.world[l.members[l.start[s]]]);
    return mputil::leader_sync_open(clusters, l.slots, l.slot_of[c.rank] == 0, kBarrierSyncPort, &g_world_sync);
}

int noc_barrier_run(Comm&)
{
    long err = mputil::leader_sync_enter(&g_world_sync);
    if (err == 0) {
        mputil::WaitEnd end;
        end.sync = &g_world_sync;
        request_wait_until(end);
        err = mputil::leader_sync_leave(&g_world_sync);
    }
    return err == 0 ? MPI_SUCCESS : MPI_ERR_INTERN;
}

void noc_barrier_close(Comm& c)
{
    if (world_leader(c) && g_world_sync.waiting != nullptr)
        mputil::leader_sync_close(&g_world_sync);
}

}  // namespace lwmpi
