// Busy intervals of one shared resource in virtual time (a NoC link, the kernel core as a
// server). A newcomer stamped t takes the first gap at or after t, so it is delayed only
// by work reserved before it in virtual time, not by whatever the host happened to present
// first: results do not depend on the host's order of arrival as long as the gaps fit.
// Bounded: when full, the earliest interval is forgotten (work stamped that far back is
// then not delayed by it; the figures can only come out early, never inflated).
#pragma once
#include "support/types.hpp"

namespace nvx {
template <u32 N>
class Reservations {
public:
    // Earliest t >= from such that [t, t + length) overlaps no reservation (length 0: the
    // first instant at or after `from` that is not inside a reservation).
    u64 first_fit(u64 from, u64 length) const {
        u64 t = from;
        u64 need = length == 0 ? 1 : length;
        for (u32 i = 0; i < count_; i++) {  // sorted by start, disjoint
            if (busy_[i].end <= t) continue;
            if (busy_[i].start >= t + need) break;
            t = busy_[i].end;
        }
        return t;
    }

    // Marks [start, end) busy, merged with the intervals it overlaps or touches.
    void reserve(u64 start, u64 end) {
        if (end <= start) return;
        u32 first = 0;
        while (first < count_ && busy_[first].end < start) first++;
        u32 last = first;  // one past the intervals merged into the new one
        while (last < count_ && busy_[last].start <= end) {
            if (busy_[last].start < start) start = busy_[last].start;
            if (busy_[last].end > end) end = busy_[last].end;
            last++;
        }
        if (last == first && count_ == N) {  // no merge and no room: forget the earliest
            if (first == 0) return;          // the newcomer is the earliest itself
            shift_left(1, count_);
            count_--;
            first--;
            last--;
        }
        // Replace busy_[first, last) by the one merged interval.
        if (last == first) {
            shift_right(first);
        } else if (last > first + 1) {
            shift_left(last, count_, last - first - 1);
            count_ -= last - first - 1;
        }
        busy_[first] = {start, end};
    }

    void clear() { count_ = 0; }
    u32 size() const { return count_; }

private:
    struct Interval {
        u64 start, end;
    };
    // Moves busy_[from, to) down by `by` places.
    void shift_left(u32 from, u32 to, u32 by = 1) {
        for (u32 i = from; i < to; i++) busy_[i - by] = busy_[i];
    }
    // Opens a hole at `at` (the caller made room).
    void shift_right(u32 at) {
        for (u32 i = count_; i > at; i--) busy_[i] = busy_[i - 1];
        count_++;
    }
    Interval busy_[N];
    u32 count_ = 0;
};
}  // namespace nvx
