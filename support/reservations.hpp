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
template <u32 N>
class Reservations {
    static_assert(N >= 2 && (N & (N - 1)) == 0, "a ring of a power-of-two size");

public:
    // Earliest t >= from such that [t, t + length) overlaps no reservation (length 0: the
    // first instant at or after `from` that is not inside a reservation).
    NVX_MODEL_CODE u64 first_fit(u64 from, u64 length) const {
        u64 t = from;
        u64 need = length == 0 ? 1 : length;
        for (u32 i = ended_by(from, true); i < count_; i++) {  // sorted by start, disjoint
            if (at(i).start >= t + need) break;
            t = at(i).end;
        }
        return t;
    }

    // Marks [start, end) busy, merged with the intervals it overlaps or touches.
    NVX_MODEL_CODE void reserve(u64 start, u64 end) {
        if (end <= start) return;
        u32 first = ended_by(start, false);  // intervals wholly before it (not touching)
        u32 last = first;                    // one past the intervals merged into the new one
        while (last < count_ && at(last).start <= end) {
            if (at(last).start < start) start = at(last).start;
            if (at(last).end > end) end = at(last).end;
            last++;
        }
        if (last == first) {  // a new interval at `first`
            if (count_ == N) {  // full: forget the earliest
                if (first == 0) return;  // the newcomer is the earliest itself
                head_ = (head_ + 1) & (N - 1);
                count_--;
                first--;
            }
            for (u32 i = count_; i > first; i--) at(i) = at(i - 1);  // none when it goes last
            count_++;
        } else {  // the merged intervals become one
            u32 gone = last - first - 1;
            for (u32 i = last; i < count_; i++) at(i - gone) = at(i);
            count_ -= gone;
        }
        at(first) = {start, end};
    }

    void clear() { count_ = head_ = 0; }
    u32 size() const { return count_; }

private:
    struct Interval {
        u64 start, end;
    };
    Interval& at(u32 i) { return busy_[(head_ + i) & (N - 1)]; }
    const Interval& at(u32 i) const { return busy_[(head_ + i) & (N - 1)]; }
    // How many intervals end at or before t (or strictly before, if !inclusive): a prefix,
    // found in log2(N) + 1 steps whatever the count.
    u32 ended_by(u64 t, bool inclusive) const {
        u32 n = 0;
        for (u32 step = N; step > 0; step >>= 1)
            if (n + step <= count_ && (inclusive ? at(n + step - 1).end <= t : at(n + step - 1).end < t)) n += step;
        return n;
    }
    Interval busy_[N];
    u32 head_ = 0;
    u32 count_ = 0;
};
}  // namespace nvx
