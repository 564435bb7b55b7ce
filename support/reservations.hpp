// Busy intervals of one shared resource in virtual time (a NoC link, the kernel core as a
// server). A newcomer stamped t takes the first gap at or after t, so it is delayed only
// by work reserved before it in virtual time, not by whatever the host happened to present
// first: results do not depend on the host's order of arrival as long as the gaps fit.
// Bounded: when full, the earliest interval is forgotten (work stamped that far back is
// then not delayed by it; the figures can only come out early, never inflated).
// The clock's own bookkeeping (NVX_MODEL_CODE): the instruction counter charges it to no
// hart. A ring, searched in log2(N) fixed steps, so a newcomer after everything reserved
// costs the same however full the list is.
#pragma once
#include "kernel/abi/nvx_abi.h"
#include "support/types.hpp"

namespace nvx {

// The search and the merge, on a ring whose storage the sized Reservations<N> holds. Not
// a template: GCC places no template member in a named section (NVX_MODEL_CODE), and
// code outside that section would be charged to the hart as modeled work.
class ReservationRing {
public:
    struct Interval {
        u64 start, end;
    };

    // Earliest t >= from such that [t, t + length) overlaps no reservation (length 0: the
    // first instant at or after `from` that is not inside a reservation).
    // `busy` holds `capacity` intervals, a power of two.
    NVX_MODEL_CODE u64 first_fit(const Interval* busy, u32 capacity, u64 from, u64 length) const;
    // Marks [start, end) busy, merged with the intervals it overlaps or touches.
    NVX_MODEL_CODE void reserve(Interval* busy, u32 capacity, u64 start, u64 end);

    void clear() { count_ = head_ = 0; }
    u32 size() const { return count_; }

private:
    u32 index(u32 i, u32 capacity) const { return (head_ + i) & (capacity - 1); }
    // How many intervals end at or before t (or strictly before, if !inclusive): a prefix,
    // found in log2(N) + 1 steps whatever the count.
    NVX_MODEL_CODE u32 ended_by(const Interval* busy, u32 capacity, u64 t, bool inclusive) const;
    u32 head_ = 0;
    u32 count_ = 0;
};

template <u32 N>
class Reservations : public ReservationRing {
    static_assert(N >= 2 && (N & (N - 1)) == 0, "a ring of a power-of-two size");

public:
    u64 first_fit(u64 from, u64 length) const { return ReservationRing::first_fit(busy_, N, from, length); }
    void reserve(u64 start, u64 end) { ReservationRing::reserve(busy_, N, start, end); }

private:
    Interval busy_[N];
};
}  // namespace nvx
