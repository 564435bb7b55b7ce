// MPI_COMM_WORLD's leaders' barrier on the NoC's sync registers (see coll_shm.hpp), through
// mputil's leader syncs on register kBarrierSyncPort.
#include <stdlib.h>

#include <mputil/mputil.hpp>

#include "coll_shm.hpp"
#include "config.hpp"
#include "request.hpp"

namespace lwmpi {

bool noc_barrier_open(Comm& c)
{
    const ClusterLayout& l = c.layout;
    if (c.handle != MPI_COMM_WORLD || l.slots < 2 || l.slots > mputil::kLeaderSyncMax)
        return false;
    int clusters[mputil::kLeaderSyncMax];
    for (int s = 0; s < l.slots; s++)
        clusters[s] = mputil::cluster_of(c.world[l.members[l.start[s]]]);
    c.barrier_sync = static_cast<mputil::LeaderSync*>(malloc(sizeof(mputil::LeaderSync)));
    if (c.barrier_sync &&
        mputil::leader_sync_open(clusters, l.slots, l.slot_of[c.rank] == 0, kBarrierSyncPort, c.barrier_sync))
        return true;
    free(c.barrier_sync);
    c.barrier_sync = nullptr;
    return false;
}

int noc_barrier_run(Comm& c)
{
    long err = mputil::leader_sync_enter(c.barrier_sync);
    if (err == 0) {
        mputil::WaitEnd end;
        end.sync = c.barrier_sync;
        request_wait_until(end);
        err = mputil::leader_sync_leave(c.barrier_sync);
    }
    return err == 0 ? MPI_SUCCESS : MPI_ERR_INTERN;
}

void noc_barrier_close(Comm& c)
{
    c.noc_barrier = false;
    if (!c.barrier_sync)
        return;
    mputil::leader_sync_close(c.barrier_sync);
    free(c.barrier_sync);
    c.barrier_sync = nullptr;
}

}  // namespace lwmpi
