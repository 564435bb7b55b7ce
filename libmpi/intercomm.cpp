// Intercommunicator construction and queries (see intercomm.hpp). Every constructor is
// collective over both groups: each group agrees within itself over its local
// intracommunicator, the two leaders swap what their groups found, and each leader spreads
// the other group's answer through its own group.
#include "intercomm.hpp"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <mputil/mputil.hpp>

#include "api.hpp"
#include "call.hpp"
#include "coll.hpp"
#include "coll_check.hpp"
#include "errhandler.hpp"
#include "group.hpp"
#include "p2p_check.hpp"
#include "request.hpp"

namespace lwmpi {

namespace {

constexpr int kLeaderTag = 0;  // the leaders' swaps on the collective context run in call order

// Sends `out` to `peer` and receives `in` from it, both in flight at once (neither leader
// may send first and wait), on `context` with `tag`.
int swap(Comm& c, uint32_t context, int peer, int tag, const void* out, size_t out_bytes, void* in,
         size_t in_bytes)
{
    Request send = {}, recv = {};
    request_setup(&recv, false, mputil::SendMode::Standard, &c, context, in,
                  static_cast<int>(in_bytes), MPI_BYTE, peer, tag);
    request_setup(&send, true, mputil::SendMode::Standard, &c, context, out,
                  static_cast<int>(out_bytes), MPI_BYTE, peer, tag);
    Request* both[2] = {&recv, &send};
    int err = request_start(&recv);
    if (err == MPI_SUCCESS) {
        err = request_start(&send);
        int started = err == MPI_SUCCESS ? 2 : 1;
        request_wait(both, started, started);
        if (err == MPI_SUCCESS)
            err = recv.error != MPI_SUCCESS ? recv.error : send.error;
    }
    request_teardown(&recv);
    request_teardown(&send);
    return err;
}

// What a group's leader tells the other group: the context ids free on every member, the
// group's size and one word of the call (Intercomm_merge's `high`).
struct Offer {
    uint32_t free_ids[kContextMaskWords];
    int size;
    int info;
};

// Collective over both groups of `inter`: a context id free on every member of both, and
// the remote group's `info`.
int union_agree(Comm& inter, int info, int* id, int* remote_info)
{
    Offer mine = {}, theirs = {};
    mine.size = inter.size;
    mine.info = info;
    int err = context_mask_agree(*inter.local, mine.free_ids);
    if (err == MPI_SUCCESS)
        err = inter_swap(inter, &mine, sizeof mine, &theirs, sizeof theirs);
    if (err != MPI_SUCCESS)
        return err;
    for (int w = 0; w < kContextMaskWords; w++)
        mine.free_ids[w] &= theirs.free_ids[w];
    *remote_info = theirs.info;
    return context_id_first(mine.free_ids, id);
}

// A new intercommunicator of the `local` members (the caller among them) and the `remote`
// ones on context `id`, with the handler `errhandler`.
int make_inter(const int* local, int nlocal, const int* remote, int nremote, int id,
               MPI_Errhandler errhandler, MPI_Comm* out)
{
    Comm* hidden;
    int err = comm_make(local, nlocal, id, MPI_COMM_NULL, &hidden);
    if (err != MPI_SUCCESS)
        return err;
    // The local intracommunicator is the library's own: it keeps the object, not the handle.
    comm_retain(hidden);
    comm_free_handle(hidden);
    MPI_Group remote_group;
    err = group_make(remote, nremote, &remote_group);
    if (err != MPI_SUCCESS) {
        comm_release(hidden);
        return err;
    }
    Comm* c;
    err = comm_make(local, nlocal, id, MPI_COMM_NULL, &c);
    if (err != MPI_SUCCESS) {
        group_release(remote_group);
        comm_release(hidden);
        return err;
    }
    c->local = hidden;
    c->remote_group = remote_group;
    c->remote_world = group_world_ranks(remote_group);
    c->remote_size = nremote;
    errhandler_retain(errhandler);
    c->errhandler = errhandler;
    *out = c->handle;
    return MPI_SUCCESS;
}

// What Intercomm_create's leader spreads through its group.
struct Verdict {
    int error;
    int id;
    int remote_size;
};

// Intercomm_create at the local leader: checks the arguments only it gives, swaps offers and
// member lists with the remote leader over `peer_comm`, and picks the context id. The
// remote members are returned in a new array.
Verdict lead_create(Comm& local, Offer& mine, MPI_Comm peer_comm, int remote_leader, int tag,
                    int** remote)
{
    Verdict v = {MPI_SUCCESS, 0, 0};
    Comm* peer = comm_get(peer_comm);
    if (!peer)
        v.error = MPI_ERR_COMM;
    else if (remote_leader < 0 || remote_leader >= peer_size(*peer))
        v.error = MPI_ERR_RANK;
    else
        v.error = check_send_tag(tag);
    Offer theirs = {};
    if (v.error == MPI_SUCCESS)
        v.error = swap(*peer, p2p_context(*peer), remote_leader, tag, &mine, sizeof mine, &theirs,
                       sizeof theirs);
    if (v.error != MPI_SUCCESS)
        return v;
    v.remote_size = theirs.size;
    *remote = static_cast<int*>(malloc(sizeof(int) * (theirs.size > 0 ? theirs.size : 1)));
    int* members = *remote;
    // Both leaders swap their lists even without memory for this one, so the other goes on.
    int none = 0;
    v.error = swap(*peer, p2p_context(*peer), remote_leader, tag, local.world,
                   sizeof(int) * local.size, members ? members : &none,
                   members ? sizeof(int) * theirs.size : 0);
    if (!members)
        v.error = MPI_ERR_NO_MEM;
    if (v.error != MPI_SUCCESS)
        return v;
    // The groups must be disjoint (6.6.2); both leaders see an overlap alike.
    for (int i = 0; i < theirs.size; i++)
        if (comm_rank_of_world(local, members[i]) != MPI_UNDEFINED)
            v.error = MPI_ERR_GROUP;
    for (int w = 0; w < kContextMaskWords; w++)
        mine.free_ids[w] &= theirs.free_ids[w];
    if (v.error == MPI_SUCCESS)
        v.error = context_id_first(mine.free_ids, &v.id);
    return v;
}

// The context ids and members the two groups swap in Intercomm_create, spread through the
// local group from its leader. Returns the remote members in a new array.
int create(Comm& local, int leader, MPI_Comm peer_comm, int remote_leader, int tag,
           MPI_Comm* out)
{
    Offer mine = {};
    mine.size = local.size;
    Verdict v = {context_mask_agree(local, mine.free_ids), 0, 0};
    int* remote = nullptr;
    if (local.rank == leader && v.error == MPI_SUCCESS)
        v = lead_create(local, mine, peer_comm, remote_leader, tag, &remote);
    int err = coll_bcast_bytes(local, &v, sizeof v, leader);
    if (err == MPI_SUCCESS)
        err = v.error;
    if (err == MPI_SUCCESS && local.rank != leader) {
        remote = static_cast<int*>(malloc(sizeof(int) * (v.remote_size > 0 ? v.remote_size : 1)));
        if (!remote)
            err = MPI_ERR_NO_MEM;
    }
    // Every member takes part in the list's broadcast, even one that ran out of memory.
    int none = 0;
    if (v.error == MPI_SUCCESS) {
        int berr = coll_bcast_bytes(local, remote ? remote : &none,
                                    remote ? sizeof(int) * v.remote_size : 0, leader);
        err = err != MPI_SUCCESS ? err : berr;
    }
    if (err == MPI_SUCCESS)
        err = make_inter(local.world, local.size, remote, v.remote_size, v.id, local.errhandler, out);
    free(remote);
    return err;
}

int merge(Comm& inter, bool high, MPI_Comm* out)
{
    int id, remote_high;
    int err = union_agree(inter, high, &id, &remote_high);
    if (err != MPI_SUCCESS)
        return err;
    // The group that said low comes first; when both said the same, the one whose leader
    // has the lower world rank (both groups see it alike).
    bool local_first = high != (remote_high != 0) ? !high : inter.world[0] < inter.remote_world[0];
    int n = inter.size + inter.remote_size;
    int* members = static_cast<int*>(malloc(sizeof(int) * n));
    if (!members)
        return MPI_ERR_NO_MEM;
    int* local_at = local_first ? members : members + inter.remote_size;
    int* remote_at = local_first ? members + inter.size : members;
    memcpy(local_at, inter.world, sizeof(int) * inter.size);
    memcpy(remote_at, inter.remote_world, sizeof(int) * inter.remote_size);
    Comm* c;
    err = comm_make(members, n, id, MPI_COMM_NULL, &c);
    free(members);
    if (err != MPI_SUCCESS)
        return err;
    errhandler_retain(inter.errhandler);
    c->errhandler = inter.errhandler;
    *out = c->handle;
    return MPI_SUCCESS;
}

// The entry of a call that needs an intercommunicator and an output argument.
int enter_inter(MPI_Comm comm, const void* out, Comm** c)
{
    *c = comm_get(comm);
    if (!*c || !is_inter(**c))
        return MPI_ERR_COMM;
    return out ? MPI_SUCCESS : MPI_ERR_ARG;
}

}  // namespace

int inter_swap(Comm& inter, const void* out, size_t out_bytes, void* in, size_t in_bytes)
{
    int err = MPI_SUCCESS;
    if (inter.rank == 0)
        err = swap(inter, coll_context(inter), 0, kLeaderTag, out, out_bytes, in, in_bytes);
    err = agree_with_root(*inter.local, 0, err);
    return err == MPI_SUCCESS ? coll_bcast_bytes(*inter.local, in, in_bytes, 0) : err;
}

int intercomm_dup(Comm& c, MPI_Comm* out)
{
    int id, unused;
    int err = union_agree(c, 0, &id, &unused);
    if (err == MPI_SUCCESS)
        err = make_inter(c.world, c.size, c.remote_world, c.remote_size, id, c.errhandler, out);
    return err;
}

// MPI 3.1 section 6.4.2: the members of each color in the local group form the local group
// of the new intercommunicator, those of that color in the remote group its remote group;
// a color missing from either group gives MPI_COMM_NULL.
int intercomm_split(Comm& c, int color, int key, MPI_Comm* out)
{
    ColorKey mine = {color, key, c.rank};
    ColorKey* here = static_cast<ColorKey*>(malloc(sizeof(ColorKey) * c.size));
    ColorKey* there = static_cast<ColorKey*>(malloc(sizeof(ColorKey) * c.remote_size));
    int* local = static_cast<int*>(malloc(sizeof(int) * c.size));
    int* remote = static_cast<int*>(malloc(sizeof(int) * c.remote_size));
    int err = here && there && local && remote ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    if (err == MPI_SUCCESS)
        err = coll_allgather_bytes(*c.local, &mine, sizeof mine, here);
    if (err == MPI_SUCCESS)
        err = inter_swap(c, here, sizeof(ColorKey) * c.size, there, sizeof(ColorKey) * c.remote_size);
    int id, unused;
    if (err == MPI_SUCCESS)
        err = union_agree(c, 0, &id, &unused);
    if (err == MPI_SUCCESS) {
        int nlocal = members_of_color(here, c.size, color, c.world, local);
        int nremote = members_of_color(there, c.remote_size, color, c.remote_world, remote);
        if (nlocal == 0 || nremote == 0)
            *out = MPI_COMM_NULL;
        else
            err = make_inter(local, nlocal, remote, nremote, id, c.errhandler, out);
    }
    free(here);
    free(there);
    free(local);
    free(remote);
    return err;
}

int intercomm_compare(const Comm& a, const Comm& b)
{
    if (is_inter(a) != is_inter(b))
        return MPI_UNEQUAL;
    int local, remote;
    api::Group_compare(a.group, b.group, &local);
    api::Group_compare(a.remote_group, b.remote_group, &remote);
    if (local == MPI_IDENT && remote == MPI_IDENT)
        return MPI_CONGRUENT;
    return local != MPI_UNEQUAL && remote != MPI_UNEQUAL ? MPI_SIMILAR : MPI_UNEQUAL;
}

bool is_intercomm(MPI_Comm comm)
{
    Comm* c = comm_get(comm);
    return c && is_inter(*c);
}

int intracomm_only(MPI_Comm comm) { return fail(comm, MPI_ERR_COMM); }

}  // namespace lwmpi

using namespace lwmpi;

int api::Comm_test_inter(MPI_Comm comm, int* flag)
{
    Comm* c = comm_get(comm);
    int err = !c ? MPI_ERR_COMM : !flag ? MPI_ERR_ARG : MPI_SUCCESS;
    if (err == MPI_SUCCESS)
        *flag = is_inter(*c);
    return fail(comm, err);
}

int api::Comm_remote_size(MPI_Comm comm, int* size)
{
    Comm* c;
    int err = enter_inter(comm, size, &c);
    if (err == MPI_SUCCESS)
        *size = c->remote_size;
    return fail(comm, err);
}

int api::Comm_remote_group(MPI_Comm comm, MPI_Group* group)
{
    Comm* c;
    int err = enter_inter(comm, group, &c);
    if (err == MPI_SUCCESS) {
        group_retain(c->remote_group);  // the program frees it with MPI_Group_free
        *group = c->remote_group;
    }
    return fail(comm, err);
}

int api::Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                          int remote_leader, int tag, MPI_Comm* newintercomm)
{
    Comm* local = comm_get(local_comm);
    int err = !local || is_inter(*local) ? MPI_ERR_COMM
              : !newintercomm            ? MPI_ERR_ARG
              : local_leader < 0 || local_leader >= local->size ? MPI_ERR_RANK
                                                                 : MPI_SUCCESS;
    if (err == MPI_SUCCESS)
        err = create(*local, local_leader, peer_comm, remote_leader, tag, newintercomm);
    return fail(local_comm, err);
}

int api::Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm* newintracomm)
{
    Comm* c;
    int err = enter_inter(intercomm, newintracomm, &c);
    if (err == MPI_SUCCESS)
        err = merge(*c, high != 0, newintracomm);
    return fail(intercomm, err);
}
