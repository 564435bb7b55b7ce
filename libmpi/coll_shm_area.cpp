// The shared-memory areas of the collectives (see coll_shm.hpp): the cluster's registry,
// attaching and letting go, and the agreement that makes a communicator use them.
// LWMPI's own data is shared by the ranks of a cluster, so the registry is one list.
#include <stdlib.h>
#include <string.h>

#include <mputil/mputil.hpp>

#include "coll_shm.hpp"
#include "op.hpp"

namespace lwmpi {

namespace {

ShmArea* registry = nullptr;  // under mputil::cluster_lock

// The area of `c` on the calling rank's cluster, found or made; nullptr when out of
// memory. A communicator's ranks on one cluster all hold the same leader (its lowest rank
// there), and no two live communicators of a rank share a context id, so (context id,
// leader) names one area; a retired one belongs to a freed communicator.
ShmArea* attach(Comm& c)
{
    const ClusterLayout& l = c.layout;
    int slot = l.slot_of[c.rank];
    int members = l.start[slot + 1] - l.start[slot];
    int leader_world = c.world[l.members[l.start[slot]]];
    mputil::ClusterLockGuard hold;
    for (ShmArea* a = registry; a; a = a->next) {
        if (!a->retired && a->context_id == c.context_id && a->leader_world == leader_world) {
            a->attached++;
            return a;
        }
    }
    ShmArea* a = static_cast<ShmArea*>(calloc(1, sizeof(ShmArea)));
    char* data = static_cast<char*>(malloc(kShmSlotBytes * static_cast<size_t>(members + 1)));
    if (!a || !data) {
        free(a);
        free(data);
        return nullptr;
    }
    *a = ShmArea{c.context_id, leader_world, members, 1, false, {}, {}, MPI_SUCCESS, MPI_SUCCESS, data, nullptr, registry};
    registry = a;
    return a;
}

}  // namespace

bool shm_variant()
{
    // The unoptimized library is the baseline without shared memory: it keeps the trees.
    static const bool opt = strcmp(mputil::variant(), "opt") == 0;
    return opt;
}

int shm_ready(Comm& c, bool* use)
{
    *use = c.shm_mode > 0;
    if (c.shm_mode != 0)
        return MPI_SUCCESS;
    // Worth it when some cluster holds two ranks or more (the layout is the same everywhere).
    if (!shm_variant() || is_inter(c) || c.layout.slots >= c.size) {
        c.shm_mode = -1;
        return MPI_SUCCESS;
    }
    if (!c.shm)
        c.shm = attach(c);
    // One agreement for both: bit 0, every cluster has the area; bit 1, every leader has
    // its barrier syncs (only MPI_COMM_WORLD's leaders try).
    enum { kArea = 1, kSyncs = 2 };
    bool leader = c.layout.index_in_slot[c.rank] == 0;
    int everywhere = (c.shm ? kArea : 0) | (!leader || noc_barrier_open(c) ? kSyncs : 0);
    ReduceShape shape;
    int err = reduce_shape(MPI_INT, 1, MPI_BAND, &shape);
    if (err == MPI_SUCCESS)
        err = coll_allreduce(c, &everywhere, shape, MPI_BAND);
    // Off the world a leader's open fails, so kSyncs is clear.
    bool syncs = err == MPI_SUCCESS && (everywhere & kArea) && (everywhere & kSyncs);
    if (!syncs)
        noc_barrier_close(c);
    if (err != MPI_SUCCESS)
        return err;
    c.shm_mode = syncs ? kShmWithSyncBarrier : everywhere & kArea ? 1 : -1;
    *use = (everywhere & kArea) != 0;
    return MPI_SUCCESS;
}

void shm_detach(Comm& c)
{
    ShmArea* a = c.shm;
    if (!a)
        return;
    c.shm = nullptr;
    mputil::ClusterLockGuard hold;
    a->retired = true;
    if (--a->attached > 0)
        return;
    for (ShmArea** p = &registry; *p; p = &(*p)->next) {
        if (*p == a) {
            *p = a->next;
            break;
        }
    }
    free(a->staging);
    free(a->data);
    free(a);
}

}  // namespace lwmpi
