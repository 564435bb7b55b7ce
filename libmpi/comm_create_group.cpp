// MPI_Comm_create_group (MPI 3.1 section 6.4.2): collective over the members of `group`
// only, so the context id is agreed among them alone, by messages on the parent's
// collective context under the program's tag (config.hpp). Groups creating communicators at
// the same time from one parent do not disturb each other, nor the parent's collectives.
#include <stdlib.h>

#include <mputil/mputil.hpp>

#include "api.hpp"
#include "comm.hpp"
#include "config.hpp"
#include "errhandler.hpp"
#include "group.hpp"
#include "p2p_check.hpp"
#include "request.hpp"

using namespace lwmpi;

namespace {

// One blocking transfer of the free-id mask with a parent rank.
int transfer(Comm& parent, bool is_send, uint32_t* mask, int peer, int tag)
{
    Request r{};
    request_setup(&r, is_send, mputil::SendMode::Standard, &parent, coll_context(parent), mask,
                  kContextMaskWords, MPI_UINT32_T, peer, kCreateGroupTagBase + tag);
    int err = request_start(&r);
    if (err == MPI_SUCCESS) {
        Request* list[1] = {&r};
        request_wait(list, 1, 1);
        err = r.error;
    }
    request_teardown(&r);
    return err;
}

// The lowest context id free on every member: a binomial-tree AND of the free-id masks
// towards member 0, then the result back down the same tree. `parent_rank[i]` is member i's
// rank in the parent.
int agree_among(Comm& parent, const int* parent_rank, int n, int me, int tag, int* id)
{
    uint32_t mask[kContextMaskWords], theirs[kContextMaskWords];
    context_ids_free_mask(mask);
    int err = MPI_SUCCESS;
    int step = 1;
    for (; step < n && err == MPI_SUCCESS; step <<= 1) {
        if (me & step) {
            err = transfer(parent, true, mask, parent_rank[me - step], tag);
            break;
        }
        if (me + step < n) {
            err = transfer(parent, false, theirs, parent_rank[me + step], tag);
            for (int w = 0; w < kContextMaskWords; w++)
                mask[w] &= theirs[w];
        }
    }
    // Down: receive from the member this one sent to, then serve the subtrees below.
    if (err == MPI_SUCCESS && me != 0)
        err = transfer(parent, false, mask, parent_rank[me - step], tag);
    for (step >>= 1; step > 0 && err == MPI_SUCCESS; step >>= 1)
        if (me + step < n)
            err = transfer(parent, true, mask, parent_rank[me + step], tag);
    if (err != MPI_SUCCESS)
        return err;
    for (int w = 0; w < kContextMaskWords; w++)
        if (mask[w]) {
            *id = w * 32 + __builtin_ctz(mask[w]);
            return MPI_SUCCESS;
        }
    return MPI_ERR_INTERN;  // every id is taken: too many live communicators
}

}  // namespace

int api::Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm* newcomm)
{
    Comm* c = comm_get(comm);
    if (!c)
        return fail(comm, MPI_ERR_COMM);
    if (!newcomm)
        return fail(comm, MPI_ERR_ARG);
    if (group_check(group) != MPI_SUCCESS)
        return fail(comm, MPI_ERR_GROUP);
    if (check_send_tag(tag) != MPI_SUCCESS)
        return fail(comm, MPI_ERR_TAG);  // no wildcard
    const int n = group_size(group);
    const int me = n > 0 ? group_rank_of_world(group, mputil::world_rank()) : MPI_UNDEFINED;
    if (me == MPI_UNDEFINED) {
        *newcomm = MPI_COMM_NULL;  // MPI_GROUP_EMPTY, or a process outside the group
        return MPI_SUCCESS;
    }
    const int* world = group_world_ranks(group);
    int* parent_rank = static_cast<int*>(malloc(sizeof(int) * n));
    if (!parent_rank)
        return fail(comm, MPI_ERR_NO_MEM);
    int err = MPI_SUCCESS;
    for (int i = 0; i < n && err == MPI_SUCCESS; i++)
        if ((parent_rank[i] = comm_rank_of_world(*c, world[i])) == MPI_UNDEFINED)
            err = MPI_ERR_GROUP;  // the group must be a subset of comm's
    int id = 0;
    if (err == MPI_SUCCESS)
        err = agree_among(*c, parent_rank, n, me, tag, &id);
    free(parent_rank);
    if (err == MPI_SUCCESS)
        err = comm_derive(*c, world, n, id, newcomm);
    return fail(comm, err);
}
