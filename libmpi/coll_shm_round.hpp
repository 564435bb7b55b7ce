// One round of a shared-memory collective (see coll_shm.hpp): members (all but the leader)
// fill their slot and count their arrival; the leader waits for every arrival of the round,
// works, and releases the round; members wait for the release and copy the result out. A
// member's next arrival follows its copy-out, so the leader writes the result of round
// n + 1 only after everyone read that of round n. Counters run over every round of the
// area (each rank counts its own rounds: all run the same collectives in the same order),
// so every round ends with a release the members wait for: a member that ran ahead would
// count its next arrival in a round a slower member has not arrived at yet.
// Waits go through the rank's own wait (request_wait_until): a rank waiting here keeps
// progressing its other operations, and whoever moves a counter rings the waiters' bells
// (the release through a tree of members, wake_children).
#pragma once

#include <stdint.h>

#include "coll_shm.hpp"
#include "request.hpp"

namespace lwmpi {

// The calling rank's place in its cluster's area for this round.
struct Round {
    const Comm* comm;
    ShmArea* area;
    int index;        // 0: the leader
    uint32_t number;  // this round, counted from 1
    char* slot() const { return area->data + kShmSlotBytes * static_cast<size_t>(index); }
    char* result() const { return area->data + kShmSlotBytes * static_cast<size_t>(area->members); }
    // The world rank of the cluster's i-th member (0: the leader).
    int member_world(int i) const
    {
        const ClusterLayout& l = comm->layout;
        return comm->world[l.members[l.start[l.slot_of[comm->rank]] + i]];
    }
};

inline Round begin(Comm& c)
{
    return Round{&c, c.shm, c.layout.index_in_slot[c.rank], ++c.shm_round};
}

// A member's arrival (after filling its slot): the last one of the round wakes the leader.
inline void arrive(const Round& r)
{
    uint32_t target = r.number * static_cast<uint32_t>(r.area->members - 1);
    if (mputil::counter_add(&r.area->arrived, 1) == target)
        mputil::wake_rank(r.member_world(0));
}

inline void wait_arrivals(const Round& r)
{
    mputil::WaitEnd end;
    end.counter = &r.area->arrived;
    end.target = r.number * static_cast<uint32_t>(r.area->members - 1);
    request_wait_until(end);
}

// Rings the members below `index` in the release's tree (members kReleaseFanout * i + 1
// and on): the leader rings a few bells and every member that saw the release a few
// more, so the last member hears of it after a few wake-ups in a row, not members - 1.
inline void wake_children(const Round& r, int index)
{
    int first = kReleaseFanout * index + 1;
    for (int child = first; child < first + kReleaseFanout && child < r.area->members; child++)
        mputil::wake_rank(r.member_world(child));
}

// Ends the round with the leader's verdict, which the members return.
inline void release(const Round& r, int error)
{
    r.area->error = error;
    mputil::counter_add(&r.area->released, 1);  // one release a round: it counts the rounds
    wake_children(r, 0);
}

// The verdict stays until every member arrived for the next round, this one included.
inline int wait_release(const Round& r)
{
    mputil::WaitEnd end;
    end.counter = &r.area->released;
    end.target = r.number;
    request_wait_until(end);
    int error = r.area->error;
    wake_children(r, r.index);
    return error;
}

}  // namespace lwmpi
