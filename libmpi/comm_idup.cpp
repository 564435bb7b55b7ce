// MPI_Comm_idup (MPI 3.1 section 6.4.2). The duplicate exists when the call returns, as if
// MPI_Comm_dup ran then (handle, error handler, topology, copied attributes); only its context
// id comes later, from a schedule on the parent that completes the request.
//
// A rank may have several idups in flight on one or more communicators, finishing in any
// order, so an id seen free by one agreement may be picked by another before it is taken.
// Each attempt therefore has two rounds: an allreduce (AND) of the members' free ids of the
// idup range (config.hpp), then each member claims the chosen id if it is still free here
// and the members AND their votes. A claim takes the id at once, so of two agreements
// sharing a member only one can win it; the loser gives its claim back and tries again,
// choosing by a hash of its parent and tag so that two losers do not keep choosing alike.
#include <stdint.h>

#include "api.hpp"
#include "coll.hpp"
#include "comm.hpp"
#include "config.hpp"
#include "errhandler.hpp"

using namespace lwmpi;

namespace {

constexpr int kIdupIds = kContextIds - kIdupContextFirst;

struct IdupPlan {
    Comm* dup;                    // retained until the schedule ends
    uint32_t free_ids[kIdupMaskWords];  // bit i: id kIdupContextFirst + i is free on every member
    int vote;                     // 1: every member claimed `candidate`
    int candidate;
    int attempt;
    bool claimed;                 // this rank took `candidate` in this attempt
    bool installed;               // the duplicate owns its id
    bool abandoned;               // a copy callback failed here: the id is not kept
    int offer_step;               // where an attempt starts
    uint32_t key;                 // the same on every member: parent context and tag
};

int offer(Schedule&, const void* p, int, int)
{
    context_ids_free_idup_mask(static_cast<IdupPlan*>(const_cast<void*>(p))->free_ids);
    return MPI_SUCCESS;
}

bool id_free(const IdupPlan& plan, int i) { return plan.free_ids[i / 32] & (1u << (i % 32)); }

// The first attempt takes the lowest id free on every member, retries one from a point
// that depends on the agreement. Every member computes the same.
int choose(const IdupPlan& plan, int* id)
{
    uint32_t start = 0;
    if (plan.attempt > 0) {
        uint32_t h = (plan.key + static_cast<uint32_t>(plan.attempt)) * 2654435761u;
        start = (h ^ (h >> 15)) % kIdupIds;
    }
    for (int k = 0; k < kIdupIds; k++) {
        int i = static_cast<int>((start + static_cast<uint32_t>(k)) % kIdupIds);
        if (id_free(plan, i)) {
            *id = kIdupContextFirst + i;
            return MPI_SUCCESS;
        }
    }
    return MPI_ERR_INTERN;  // every id of the range is taken: too many idup'ed communicators
}

int claim(Schedule&, const void* p, int, int)
{
    IdupPlan& plan = *static_cast<IdupPlan*>(const_cast<void*>(p));
    int err = choose(plan, &plan.candidate);
    if (err != MPI_SUCCESS)
        return err;
    plan.claimed = !context_id_used(plan.candidate);
    if (plan.claimed)
        context_id_take(plan.candidate);
    plan.vote = plan.claimed ? 1 : 0;
    return MPI_SUCCESS;
}

int settle(Schedule& s, const void* p, int, int)
{
    IdupPlan& plan = *static_cast<IdupPlan*>(const_cast<void*>(p));
    if (plan.vote == 1 && !plan.abandoned) {
        plan.dup->context_id = plan.candidate;
        plan.installed = true;
        return MPI_SUCCESS;
    }
    if (plan.vote == 1)
        return MPI_SUCCESS;  // the cleanup gives the id back
    if (plan.claimed)
        context_id_put(plan.candidate);
    plan.claimed = false;
    plan.attempt++;
    s.repeat_from(plan.offer_step);
    return MPI_SUCCESS;
}

// When the schedule ends: a duplicate that never got its id dies (an error, or abandoned).
void cleanup(void* p)
{
    IdupPlan& plan = *static_cast<IdupPlan*>(p);
    if (!plan.dup)
        return;
    if (!plan.installed) {
        if (plan.claimed)
            context_id_put(plan.candidate);
        if (plan.dup->handle != MPI_COMM_NULL)
            comm_free_handle(plan.dup);
    }
    comm_release(plan.dup);
    plan.dup = nullptr;
}

// One allreduce of `count` elements in place.
void allreduce(Schedule& s, void* acc, MPI_Datatype type, int count, MPI_Op op)
{
    ReduceShape shape;
    reduce_shape(type, count, op, &shape);
    build_allreduce(s, acc, acc, shape, op);
}

void build_agreement(Schedule& s, IdupPlan& plan)
{
    plan.offer_step = s.position();
    s.expand(offer, &plan, 0, 0, 0);
    allreduce(s, plan.free_ids, MPI_UINT32_T, kIdupMaskWords, MPI_BAND);
    s.expand(claim, &plan, 0, 0, 0);
    allreduce(s, &plan.vote, MPI_INT, 1, MPI_MIN);
    s.expand(settle, &plan, 0, 0, 0);
}

}  // namespace

int api::Comm_idup(MPI_Comm comm, MPI_Comm* newcomm, MPI_Request* request)
{
    Comm* c = comm_get(comm);
    if (!c)
        return fail(comm, MPI_ERR_COMM);
    if (!newcomm || !request)
        return fail(comm, MPI_ERR_ARG);
    *request = MPI_REQUEST_NULL;
    if (is_inter(*c))
        return fail(comm, MPI_ERR_COMM);  // no nonblocking collective on intercommunicators
    Schedule* s = Schedule::create(*c);
    IdupPlan* plan = s ? static_cast<IdupPlan*>(s->scratch(sizeof(IdupPlan))) : nullptr;
    MPI_Comm handle = MPI_COMM_NULL;
    int err = plan ? comm_derive(*c, c->world, c->size, kPendingContextId, &handle) : MPI_ERR_NO_MEM;
    if (err != MPI_SUCCESS) {
        Schedule::destroy(s);
        return fail(comm, err);
    }
    *plan = IdupPlan{};
    plan->dup = comm_get(handle);
    comm_retain(plan->dup);
    plan->key = static_cast<uint32_t>(c->context_id) * 65599u + c->coll_sequence;
    s->at_destroy(cleanup, plan);
    // A failing copy callback fails the call on this rank; the agreement still runs, since
    // the other members take part in it.
    int carried = dup_carry(*c, *plan->dup);
    if (carried != MPI_SUCCESS) {
        plan->abandoned = true;
        comm_free_handle(plan->dup);  // the plan keeps the object until the schedule ends
        handle = MPI_COMM_NULL;
    }
    build_agreement(*s, *plan);
    err = schedule_start(s, request);  // the plan may be gone from here on
    *newcomm = err == MPI_SUCCESS ? handle : MPI_COMM_NULL;
    if (err == MPI_SUCCESS && carried != MPI_SUCCESS) {
        api::Request_free(request);
        err = carried;
    }
    return fail(comm, err);
}
