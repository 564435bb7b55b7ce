// Eager flow control between clusters, pure logic (host-tested). A sender may have at
// most `initial` eager messages unconsumed at one receiver; the receiver counts what it
// consumed per source and returns credits in batches. Atomics: the threads of a rank take
// turns (MPI_THREAD_SERIALIZED) on different harts.
#pragma once

#include <stdint.h>

namespace mputil {

// Sender side: credits left towards each destination rank, and when the latest came back
// (virtual time): a send that uses one goes no earlier, whichever message carried it.
class CreditLedger {
public:
    // `slots` and `stamps` must hold `ranks` entries; each destination starts with `initial`.
    void init(uint32_t* slots, uint64_t* stamps, int ranks, uint32_t initial)
    {
        slots_ = slots;
        stamps_ = stamps;
        for (int r = 0; r < ranks; r++) {
            slots_[r] = initial;
            stamps_[r] = 0;
        }
    }
    // Takes one credit towards dest; false (nothing taken) when none is left.
    bool take(int dest)
    {
        uint32_t have = __atomic_load_n(&slots_[dest], __ATOMIC_ACQUIRE);
        while (have > 0) {
            if (__atomic_compare_exchange_n(&slots_[dest], &have, have - 1, false, __ATOMIC_ACQ_REL,
                                            __ATOMIC_ACQUIRE))
                return true;
        }
        return false;
    }
    // `n` credits towards dest came back at virtual time `stamp`.
    void give(int dest, uint32_t n, uint64_t stamp)
    {
        uint64_t latest = __atomic_load_n(&stamps_[dest], __ATOMIC_ACQUIRE);
        while (latest < stamp &&
               !__atomic_compare_exchange_n(&stamps_[dest], &latest, stamp, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        }
        __atomic_add_fetch(&slots_[dest], n, __ATOMIC_ACQ_REL);
    }
    uint32_t available(int dest) const { return __atomic_load_n(&slots_[dest], __ATOMIC_ACQUIRE); }
    // When the latest credits towards dest came back (0: none yet).
    uint64_t returned_at(int dest) const { return __atomic_load_n(&stamps_[dest], __ATOMIC_ACQUIRE); }

private:
    uint32_t* slots_ = nullptr;
    uint64_t* stamps_ = nullptr;
};

// Receiver side: credits owed to each source, returned in batches of `batch`.
class CreditDebts {
public:
    void init(uint32_t* slots, int ranks, uint32_t batch)
    {
        slots_ = slots;
        batch_ = batch;
        for (int r = 0; r < ranks; r++) slots_[r] = 0;
    }
    // One eager message of `source` was consumed; true when a batch is now due.
    bool consumed(int source) { return __atomic_add_fetch(&slots_[source], 1, __ATOMIC_ACQ_REL) == batch_; }
    // Takes what is owed to source if at least `minimum` (batch: due ones; 1: everything).
    uint32_t collect(int source, uint32_t minimum)
    {
        uint32_t owed = __atomic_load_n(&slots_[source], __ATOMIC_ACQUIRE);
        while (owed >= minimum && owed > 0) {
            if (__atomic_compare_exchange_n(&slots_[source], &owed, 0, false, __ATOMIC_ACQ_REL,
                                            __ATOMIC_ACQUIRE))
                return owed;
        }
        return 0;
    }
    // Credits collected but not sent after all: owed again.
    void give_back(int source, uint32_t n) { __atomic_add_fetch(&slots_[source], n, __ATOMIC_ACQ_REL); }
    uint32_t batch() const { return batch_; }

private:
    uint32_t* slots_ = nullptr;
    uint32_t batch_ = 1;
};

}  // namespace mputil
