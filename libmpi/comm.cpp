// Communicator objects, their handles and context ids (see comm.hpp).
#include "comm.hpp"

#include <stdlib.h>
#include <string.h>

#include <mputil/mputil.hpp>

#include "coll_shm.hpp"
#include "config.hpp"
#include "errhandler.hpp"
#include "group.hpp"
#include "handles.hpp"
#include "rank_context.hpp"
#include "topo.hpp"

namespace lwmpi {

namespace {

constexpr int kWorldIndex = LWMPI_HANDLE_INDEX(MPI_COMM_WORLD);
constexpr int kSelfIndex = LWMPI_HANDLE_INDEX(MPI_COMM_SELF);

bool build_layout(const int* world, int n, ClusterLayout* out)
{
    int* cluster = static_cast<int*>(malloc(sizeof(int) * (n + 1)));
    if (!cluster)
        return false;
    for (int i = 0; i < n; i++)
        cluster[i] = mputil::cluster_of(world[i]);
    bool laid_out = layout_build(cluster, n, out);
    free(cluster);
    return laid_out;
}

// The layout of all world ranks in order (MPI_COMM_WORLD's, its duplicates'), the same on
// every rank of the cluster: one copy serves them all (a few KiB per rank at 192 ranks
// otherwise), made by the first communicator that needs it and freed with the last.
struct WorldLayout {
    ClusterLayout layout;
    int users;
};
WorldLayout* g_world_layout;  // under mputil::cluster_lock

bool world_layout_take(ClusterLayout* out)
{
    mputil::ClusterLockGuard hold;
    if (!g_world_layout) {
        WorldLayout* made = static_cast<WorldLayout*>(malloc(sizeof(WorldLayout)));
        if (!made || !build_layout(mputil::world_in_order(), mputil::world_size(), &made->layout)) {
            free(made);
            return false;
        }
        made->layout.shared = true;
        made->users = 0;
        g_world_layout = made;
    }
    g_world_layout->users++;
    *out = g_world_layout->layout;
    return true;
}

void layout_release(ClusterLayout* layout)
{
    if (!layout->shared) {
        layout_free(layout);
        return;
    }
    mputil::ClusterLockGuard hold;
    if (--g_world_layout->users == 0) {
        layout_free(&g_world_layout->layout);
        free(g_world_layout);
        g_world_layout = nullptr;
    }
    memset(layout, 0, sizeof *layout);
}

bool is_whole_world(const int* world, int n) { return n == mputil::world_size() && in_world_order(world, n); }

void destroy(Comm* c)
{
    attr_clear(c->attrs);  // delete callbacks ran at MPI_Comm_free (SELF: MPI_Finalize)
    shm_detach(*c);
    noc_barrier_close(*c);
    layout_release(&c->layout);
    if (is_inter(*c)) {
        comm_release(c->local);
        group_release(c->remote_group);
    }
    topo_free(c->topo);
    group_release(c->group);
    errhandler_release(c->errhandler);
    if (c->context_id != kPendingContextId)
        context_id_put(c->context_id);
    free(c);
}

}  // namespace

Comm* comm_get(MPI_Comm handle)
{
    if (is_predefined(handle, LWMPI_KIND_COMM)) {
        int index = handle_index(handle);
        return index == kWorldIndex ? rank_context().world : index == kSelfIndex ? rank_context().self : nullptr;
    }
    if (is_user(handle, LWMPI_KIND_COMM))
        return rank_context().comms.get(handle_index(handle));
    return nullptr;
}

int comm_make(const int* world, int n, int context_id, MPI_Comm predefined, Comm** out)
{
    Comm* c = static_cast<Comm*>(calloc(1, sizeof(Comm)));
    if (!c)
        return MPI_ERR_NO_MEM;
    bool laid_out = is_whole_world(world, n) ? world_layout_take(&c->layout) : build_layout(world, n, &c->layout);
    if (!laid_out) {
        free(c);
        return MPI_ERR_NO_MEM;
    }
    int err = group_make(world, n, &c->group);
    if (err != MPI_SUCCESS) {
        layout_release(&c->layout);
        free(c);
        return err;
    }
    c->world = group_world_ranks(c->group);
    c->size = n;
    c->rank = group_rank_of_world(c->group, mputil::world_rank());
    c->context_id = context_id;
    c->errhandler = MPI_ERRORS_ARE_FATAL;
    c->refs = 1;
    if (context_id != kPendingContextId)
        context_id_take(context_id);
    if (predefined != MPI_COMM_NULL) {
        c->handle = predefined;
    } else {
        int index = rank_context().comms.add(c);
        if (index < 0) {
            destroy(c);
            return MPI_ERR_NO_MEM;
        }
        c->handle = user_handle(LWMPI_KIND_COMM, index);
    }
    *out = c;
    return MPI_SUCCESS;
}

void comm_retain(Comm* c) { c->refs++; }

void comm_release(Comm* c)
{
    if (--c->refs == 0)
        destroy(c);
}

void comm_free_handle(Comm* c)
{
    if (is_user(c->handle, LWMPI_KIND_COMM))
        rank_context().comms.remove(handle_index(c->handle));
    c->handle = MPI_COMM_NULL;
    comm_release(c);
}

int comm_rank_of_world(const Comm& c, int world_rank)
{
    return group_rank_of_world(c.group, world_rank);
}

int comm_peer_of_world(const Comm& c, int world_rank)
{
    return group_rank_of_world(is_inter(c) ? c.remote_group : c.group, world_rank);
}

int comm_init_predefined()
{
    memset(rank_context().used_ids, 0, sizeof rank_context().used_ids);
    int n = mputil::world_size();
    int* all = static_cast<int*>(malloc(sizeof(int) * n));
    if (!all)
        return MPI_ERR_NO_MEM;
    for (int r = 0; r < n; r++)
        all[r] = r;
    int me = mputil::world_rank();
    int err = comm_make(all, n, kWorldContextId, MPI_COMM_WORLD, &rank_context().world);
    free(all);
    if (err == MPI_SUCCESS)
        err = comm_make(&me, 1, kSelfContextId, MPI_COMM_SELF, &rank_context().self);
    if (err != MPI_SUCCESS)
        return err;
    strcpy(rank_context().world->name, "MPI_COMM_WORLD");
    strcpy(rank_context().self->name, "MPI_COMM_SELF");
    return MPI_SUCCESS;
}

void comm_finalize_predefined()
{
    if (rank_context().self)
        comm_release(rank_context().self);
    if (rank_context().world)
        comm_release(rank_context().world);
    rank_context().self = rank_context().world = nullptr;
    rank_context().comms.clear();  // communicators the program did not free die with MPI_Finalize
}

void context_ids_free_mask(uint32_t* mask)
{
    for (int w = 0; w < kContextMaskWords; w++)
        mask[w] = w < kIdupContextFirst / 32 ? ~rank_context().used_ids[w] : 0;
}

void context_ids_free_idup_mask(uint32_t* mask)
{
    for (int w = 0; w < kIdupMaskWords; w++)
        mask[w] = ~rank_context().used_ids[kIdupContextFirst / 32 + w];
}

bool context_id_used(int id) { return rank_context().used_ids[id / 32] & (1u << (id % 32)); }

void context_id_take(int id) { rank_context().used_ids[id / 32] |= 1u << (id % 32); }
void context_id_put(int id) { rank_context().used_ids[id / 32] &= ~(1u << (id % 32)); }

}  // namespace lwmpi
