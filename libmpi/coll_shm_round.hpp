// One round of a shared-memory collective (see coll_shm.hpp): members (all but the leader)
// fill their slot and count their arrival; the leader waits for every arrival of the round,
// works, and releases the round; members wait for the release and copy the result out. A
// member's next arrival follows its copy-out, so the leader writes the result of round
// n + 1 only after everyone read that of round n. Counters run over every round of the
// area (each rank counts its own rounds: all run the same collectives in the same order),
// so every round ends with a release the members wait for: a member that ran ahead would
// count its next arrival in a round a slower member has not arrived at yet.
#pragma once

#include <stdint.h>

#include "coll_shm.hpp"
#include "coll_shm_sync.hpp"

namespace lwmpi {

// Whether the counter `value` reached `target` (counters wrap: compared as a distance).
inline bool reached(uint32_t value, uint32_t target) { return static_cast<int32_t>(value - target) >= 0; }

// Sleeps in the kernel until *word reaches `target`.
inline void wait_for(uint32_t* word, uint32_t target)
{
    for (;;) {
        uint32_t now = __atomic_load_n(word, __ATOMIC_ACQUIRE);
        if (reached(now, target))
            return;
        futex_wait(word, now);
    }
}

// The calling rank's place in its cluster's area for this round.
struct Round {
    ShmArea* area;
    int index;        // 0: the leader
    uint32_t number;  // this round, counted from 1
    char* slot() const { return area->data + kShmSlotBytes * static_cast<size_t>(index); }
    char* result() const { return area->data + kShmSlotBytes * static_cast<size_t>(area->members); }
};

inline Round begin(Comm& c)
{
    return Round{c.shm, c.layout.index_in_slot[c.rank], ++c.shm_round};
}

// A member's arrival (after filling its slot): the last one of the round wakes the leader.
inline void arrive(const Round& r)
{
    uint32_t target = r.number * static_cast<uint32_t>(r.area->members - 1);
    uint32_t now = __atomic_add_fetch(&r.area->arrived, 1, __ATOMIC_ACQ_REL);
    if (now == target)
        futex_wake(&r.area->arrived, 1);
}

inline void wait_arrivals(const Round& r)
{
    wait_for(&r.area->arrived, r.number * static_cast<uint32_t>(r.area->members - 1));
}

// Ends the round with the leader's verdict, which the members return.
inline void release(const Round& r, int error)
{
    r.area->error = error;
    __atomic_store_n(&r.area->released, r.number, __ATOMIC_RELEASE);
    if (r.area->members > 1)
        futex_wake(&r.area->released, static_cast<uint32_t>(r.area->members - 1));
}

inline int wait_release(const Round& r)
{
    wait_for(&r.area->released, r.number);
    return r.area->error;
}


}  // namespace lwmpi
