// Which asynchronous IKC operations are under way: a fixed pool shared by the cluster's
// threads, each thread bounded too, so that one thread cannot take every slot and a full
// pool answers "try again" (-EAGAIN) instead of dropping anything. Pure bookkeeping over
// slot indices (host-tested); the kernel keeps the operations themselves.
#pragma once
#include "support/bits.hpp"
#include "support/types.hpp"

namespace nvx::ikc {
template <u32 Capacity, u32 PerOwner, u32 Owners>
class OpSlots {
    static_assert(Capacity <= 64, "the used slots are the bits of one word");
    static_assert(PerOwner >= 1 && PerOwner <= Capacity);

public:
    // A free slot for `owner`, or -1 when the pool is full or `owner` has PerOwner already.
    i32 take(u32 owner) {
        if (owner >= Owners || count_[owner] >= PerOwner) return -1;
        u64 free = ~used_ & kAll;
        if (free == 0) return -1;
        u32 slot = static_cast<u32>(lowest_set_bit(free));
        used_ |= u64{1} << slot;
        owner_of_[slot] = static_cast<u8>(owner);
        count_[owner]++;
        return static_cast<i32>(slot);
    }
    // Gives a taken slot back.
    void give_back(u32 slot) {
        if (slot >= Capacity || !used(slot)) return;
        used_ &= ~(u64{1} << slot);
        count_[owner_of_[slot]]--;
    }
    bool used(u32 slot) const { return slot < Capacity && (used_ >> slot) & 1; }
    u32 owner_of(u32 slot) const { return owner_of_[slot]; }
    u32 held_by(u32 owner) const { return owner < Owners ? count_[owner] : 0; }
    // The slots `owner` holds, as bits.
    u64 of(u32 owner) const {
        u64 mine = 0;
        for (u64 left = used_; left != 0; left &= left - 1) {
            u32 slot = static_cast<u32>(lowest_set_bit(left));
            if (owner_of_[slot] == owner) mine |= u64{1} << slot;
        }
        return mine;
    }
    void clear() { *this = OpSlots{}; }

private:
    static constexpr u64 kAll = Capacity == 64 ? ~u64{0} : (u64{1} << Capacity) - 1;
    u64 used_ = 0;
    u8 owner_of_[Capacity] = {};
    u8 count_[Owners] = {};
};
}  // namespace nvx::ikc
