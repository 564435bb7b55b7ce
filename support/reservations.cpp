// Busy intervals in virtual time (reservations.hpp): the clock's own code.
#include "support/reservations.hpp"

namespace nvx {

u32 ReservationRing::ended_by(const Interval* busy, u32 capacity, u64 t, bool inclusive) const {
    u32 n = 0;
    for (u32 step = capacity; step > 0; step >>= 1) {
        if (n + step > count_) continue;
        const Interval& last = busy[index(n + step - 1, capacity)];
        if (inclusive ? last.end <= t : last.end < t) n += step;
    }
    return n;
}

u64 ReservationRing::first_fit(const Interval* busy, u32 capacity, u64 from, u64 length) const {
    u64 t = from;
    u64 need = length == 0 ? 1 : length;
    for (u32 i = ended_by(busy, capacity, from, true); i < count_; i++) {  // sorted by start, disjoint
        const Interval& next = busy[index(i, capacity)];
        if (next.start >= t + need) break;
        t = next.end;
    }
    return t;
}

void ReservationRing::reserve(Interval* busy, u32 capacity, u64 start, u64 end) {
    if (end <= start) return;
    u32 first = ended_by(busy, capacity, start, false);  // intervals wholly before it (not touching)
    u32 last = first;  // one past the intervals merged into the new one
    while (last < count_ && busy[index(last, capacity)].start <= end) {
        const Interval& merged = busy[index(last, capacity)];
        if (merged.start < start) start = merged.start;
        if (merged.end > end) end = merged.end;
        last++;
    }
    if (last == first) {  // a new interval at `first`
        if (count_ == capacity) {  // full: forget the earliest
            if (first == 0) return;  // the newcomer is the earliest itself
            head_ = index(1, capacity);
            count_--;
            first--;
        }
        for (u32 i = count_; i > first; i--)  // none when it goes last
            busy[index(i, capacity)] = busy[index(i - 1, capacity)];
        count_++;
    } else {  // the merged intervals become one
        u32 gone = last - first - 1;
        for (u32 i = last; i < count_; i++) busy[index(i - gone, capacity)] = busy[index(i, capacity)];
        count_ -= gone;
    }
    busy[index(first, capacity)] = {start, end};
}

}  // namespace nvx
