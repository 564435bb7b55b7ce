// Communicator calls: size, rank, compare, group, names, free, and the constructors (dup,
// split, split_type, create). Constructors are collectives over the parent: the members
// agree on a fresh context id (an allreduce of the free-id bitmasks) before use.
#include <stdlib.h>
#include <string.h>

#include <mputil/mputil.hpp>

#include "api.hpp"
#include "coll.hpp"
#include "comm.hpp"
#include "env.hpp"
#include "errhandler.hpp"
#include "group.hpp"
#include "info.hpp"
#include "intercomm.hpp"
#include "topo.hpp"

namespace lwmpi {

int context_mask_agree(Comm& c, uint32_t* mask)
{
    context_ids_free_mask(mask);
    ReduceShape shape;
    int err = reduce_shape(MPI_UINT32_T, kContextMaskWords, MPI_BAND, &shape);
    return err == MPI_SUCCESS ? coll_allreduce(c, mask, shape, MPI_BAND) : err;
}

int context_id_first(const uint32_t* mask, int* id)
{
    for (int w = 0; w < kContextMaskWords; w++)
        if (mask[w]) {
            *id = w * 32 + __builtin_ctz(mask[w]);
            return MPI_SUCCESS;
        }
    return MPI_ERR_INTERN;  // every id is taken: too many live communicators
}

int context_id_agree(Comm& parent, int* id)
{
    uint32_t mask[kContextMaskWords];
    int err = context_mask_agree(parent, mask);
    return err == MPI_SUCCESS ? context_id_first(mask, id) : err;
}

int dup_carry(Comm& from, Comm& to)
{
    int err = topo_copy(from.topo, &to.topo);
    return err == MPI_SUCCESS ? attr_copy_all(from.attrs, from.handle, to.handle, &to.attrs) : err;
}

namespace {

int by_key_then_rank(const void* a, const void* b)
{
    const ColorKey* x = static_cast<const ColorKey*>(a);
    const ColorKey* y = static_cast<const ColorKey*>(b);
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->rank - y->rank;
}

}  // namespace

int members_of_color(ColorKey* all, int n, int color, const int* world, int* members)
{
    if (color == MPI_UNDEFINED)
        return 0;
    int count = 0;
    for (int r = 0; r < n; r++)
        if (all[r].color == color)
            all[count++] = all[r];
    qsort(all, count, sizeof(ColorKey), by_key_then_rank);
    for (int i = 0; i < count; i++)
        members[i] = world[all[i].rank];
    return count;
}

int comm_derive(Comm& parent, const int* world, int n, int id, MPI_Comm* out)
{
    if (n == 0) {
        *out = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    Comm* c;
    int err = comm_make(world, n, id, MPI_COMM_NULL, &c);
    if (err != MPI_SUCCESS)
        return err;
    errhandler_retain(parent.errhandler);  // a new communicator inherits the parent's handler
    c->errhandler = parent.errhandler;
    *out = c->handle;
    return MPI_SUCCESS;
}

namespace {

// The new communicator of the members world[0..n) (n == 0: this rank is left out and gets
// MPI_COMM_NULL). Collective over `parent` because of the context id.
int construct(Comm& parent, const int* world, int n, MPI_Comm* out)
{
    int id;
    int err = context_id_agree(parent, &id);
    return err == MPI_SUCCESS ? comm_derive(parent, world, n, id, out) : err;
}

// MPI_Comm_dup and MPI_Comm_dup_with_info: the same members, and the attributes the copy
// callbacks keep. A failing callback leaves no new communicator on this rank.
int dup(Comm& c, MPI_Comm* newcomm)
{
    int err = is_inter(c) ? intercomm_dup(c, newcomm) : construct(c, c.world, c.size, newcomm);
    if (err != MPI_SUCCESS)
        return err;
    Comm* d = comm_get(*newcomm);
    err = dup_carry(c, *d);
    if (err != MPI_SUCCESS) {
        comm_free_handle(d);
        *newcomm = MPI_COMM_NULL;
    }
    return err;
}

// Comm_split and Comm_split_type: gather every (color, key), keep my color's members
// ordered by key then parent rank.
int split(Comm& parent, int color, int key, MPI_Comm* out)
{
    ColorKey mine = {color, key, parent.rank};
    ColorKey* all = static_cast<ColorKey*>(malloc(sizeof(ColorKey) * parent.size));
    int* world = static_cast<int*>(malloc(sizeof(int) * parent.size));
    if (!all || !world) {
        free(all);
        free(world);
        return MPI_ERR_NO_MEM;
    }
    int err = coll_allgather_bytes(parent, &mine, sizeof mine, all);
    if (err == MPI_SUCCESS)
        err = construct(parent, world, members_of_color(all, parent.size, color, parent.world, world), out);
    free(all);
    free(world);
    return err;
}

// The entry of a call on a communicator: communicator valid. Errors go to
// the handler.
int enter_comm(MPI_Comm comm, Comm** c)
{
    *c = comm_get(comm);
    return *c ? MPI_SUCCESS : fail(comm, MPI_ERR_COMM);
}

// The same, for a call with an output argument `out` (null: MPI_ERR_ARG).
int enter(MPI_Comm comm, const void* out, Comm** c)
{
    int err = enter_comm(comm, c);
    if (err == MPI_SUCCESS && !out)
        err = fail(comm, MPI_ERR_ARG);
    return err;
}

}  // namespace

}  // namespace lwmpi

using namespace lwmpi;

int api::Comm_size(MPI_Comm comm, int* size)
{
    Comm* c;
    int err = enter(comm, size, &c);
    if (err != MPI_SUCCESS)
        return err;
    *size = c->size;
    return MPI_SUCCESS;
}

int api::Comm_rank(MPI_Comm comm, int* rank)
{
    Comm* c;
    int err = enter(comm, rank, &c);
    if (err != MPI_SUCCESS)
        return err;
    *rank = c->rank;
    return MPI_SUCCESS;
}

int api::Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int* result)
{
    Comm *a, *b;
    int err = enter_comm(comm1, &a);
    if (err != MPI_SUCCESS)
        return err;
    if (!(b = comm_get(comm2)))
        return fail(comm2, MPI_ERR_COMM);
    if (!result)
        return fail(comm1, MPI_ERR_ARG);
    if (a == b) {
        *result = MPI_IDENT;
        return MPI_SUCCESS;
    }
    if (is_inter(*a) || is_inter(*b)) {
        *result = intercomm_compare(*a, *b);
        return MPI_SUCCESS;
    }
    int groups;
    err = api::Group_compare(a->group, b->group, &groups);
    if (err != MPI_SUCCESS)
        return err;
    // Distinct communicators: same members in the same order are congruent.
    *result = groups == MPI_IDENT ? MPI_CONGRUENT : groups;
    return MPI_SUCCESS;
}

int api::Comm_group(MPI_Comm comm, MPI_Group* group)
{
    Comm* c;
    int err = enter(comm, group, &c);
    if (err != MPI_SUCCESS)
        return err;
    group_retain(c->group);  // the program frees it with MPI_Group_free
    *group = c->group;
    return MPI_SUCCESS;
}

int api::Comm_set_name(MPI_Comm comm, const char* name)
{
    Comm* c;
    int err = enter(comm, name, &c);
    if (err != MPI_SUCCESS)
        return err;
    strncpy(c->name, name, MPI_MAX_OBJECT_NAME - 1);  // longer names are truncated (6.8)
    c->name[MPI_MAX_OBJECT_NAME - 1] = '\0';
    return MPI_SUCCESS;
}

int api::Comm_get_name(MPI_Comm comm, char* name, int* resultlen)
{
    Comm* c;
    int err = enter(comm, name && resultlen ? name : nullptr, &c);
    if (err != MPI_SUCCESS)
        return err;
    strcpy(name, c->name);
    *resultlen = static_cast<int>(strlen(name));
    return MPI_SUCCESS;
}

int api::Comm_free(MPI_Comm* comm)
{
    if (!comm)
        return fail(MPI_COMM_WORLD, MPI_ERR_ARG);
    Comm* c = comm_get(*comm);
    if (!c || *comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
        return fail(*comm, MPI_ERR_COMM);
    int err = attr_delete_all(c->attrs, *comm);  // a failing callback keeps the communicator
    if (err != MPI_SUCCESS)
        return fail(*comm, err);
    comm_free_handle(c);  // pending operations keep the object until they complete
    *comm = MPI_COMM_NULL;
    return MPI_SUCCESS;
}

int api::Comm_dup(MPI_Comm comm, MPI_Comm* newcomm)
{
    Comm* c;
    int err = enter(comm, newcomm, &c);
    if (err != MPI_SUCCESS)
        return err;
    return fail(comm, dup(*c, newcomm));
}

int api::Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm)
{
    Comm* c;
    int err = enter(comm, newcomm, &c);
    if (err != MPI_SUCCESS)
        return err;
    if (info_check(info, true) != MPI_SUCCESS)
        return fail(comm, MPI_ERR_INFO);
    return fail(comm, dup(*c, newcomm));  // LWMPI uses no communicator hints
}

int api::Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm)
{
    Comm* c;
    int err = enter(comm, newcomm, &c);
    if (err != MPI_SUCCESS)
        return err;
    if (color < 0 && color != MPI_UNDEFINED)
        return fail(comm, MPI_ERR_ARG);
    return fail(comm, is_inter(*c) ? intercomm_split(*c, color, key, newcomm) : split(*c, color, key, newcomm));
}

int api::Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info,
                                   MPI_Comm* newcomm)
{
    Comm* c;
    int err = enter(comm, newcomm, &c);
    if (err != MPI_SUCCESS)
        return err;
    if (is_inter(*c))
        return fail(comm, MPI_ERR_COMM);
    if (info_check(info, true) != MPI_SUCCESS)
        return fail(comm, MPI_ERR_INFO);
    if (split_type != MPI_COMM_TYPE_SHARED && split_type != MPI_UNDEFINED)
        return fail(comm, MPI_ERR_ARG);
    // The ranks of one cluster share its memory.
    int color = split_type == MPI_UNDEFINED ? MPI_UNDEFINED : mputil::cluster_of(mputil::world_rank());
    return fail(comm, split(*c, color, key, newcomm));
}

int api::Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm)
{
    Comm* c;
    int err = enter(comm, newcomm, &c);
    if (err != MPI_SUCCESS)
        return err;
    if (group_check(group) != MPI_SUCCESS)
        return fail(comm, MPI_ERR_GROUP);
    int n = group_size(group);
    const int* world = n > 0 ? group_world_ranks(group) : nullptr;
    for (int i = 0; i < n; i++)
        if (comm_rank_of_world(*c, world[i]) == MPI_UNDEFINED)
            return fail(comm, MPI_ERR_GROUP);  // the group must be a subset of comm's
    int me = group_rank_of_world(group, mputil::world_rank());
    bool member = n > 0 && me != MPI_UNDEFINED;
    // On an intercommunicator each group names its part (6.4.2): a split by membership.
    if (is_inter(*c))
        return fail(comm, intercomm_split(*c, member ? 0 : MPI_UNDEFINED, me, newcomm));
    return fail(comm, construct(*c, world, member ? n : 0, newcomm));
}
