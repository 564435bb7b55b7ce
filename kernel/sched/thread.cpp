#include "kernel/sched/thread.hpp"

#include "support/format.hpp"
#include "support/mem.hpp"

namespace nvx::kernel {
void thread_name(const Thread* t, char* out, u64 size) {
    if (t->has_rank) format(out, size, "thread %lu (rank %u)", t->id, t->rank);
    else format(out, size, "thread %lu", t->id);
}

Thread* ThreadTable::allocate() {
    for (u32 i = 0; i < kMaxThreads; i++) {
        Thread* t = &threads_[i];
        if (t->state != ThreadState::Free) continue;
        memset(t, 0, sizeof *t);
        generation_[i]++;
        t->id = (u64{generation_[i]} << kThreadSlotBits) | i;
        t->affinity = -1;
        t->state = ThreadState::Ready;
        live_++;
        return t;
    }
    return nullptr;
}

void ThreadTable::release(Thread* t) {
    t->state = ThreadState::Free;
    live_--;
}

void ThreadTable::release_all() {
    for (Thread& t : threads_) t.state = ThreadState::Free;
    live_ = 0;
}

Thread* ThreadTable::find(u64 id) {
    u64 index = id & ((1u << kThreadSlotBits) - 1);
    if (index >= kMaxThreads) return nullptr;
    Thread* t = &threads_[index];
    if (t->state == ThreadState::Free || t->id != id) return nullptr;
    return t;
}
}  // namespace nvx::kernel
