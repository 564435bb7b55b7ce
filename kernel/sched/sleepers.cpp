#include "kernel/sched/sleepers.hpp"

#include "kernel/sched/blocking.hpp"

namespace nvx::kernel {
Thread* g_sleepers;

CallResult sleep_until(Thread* caller, u64 deadline, u64 now) {
    if (deadline > kLatestDeadline) return resume_with(-NVX_EINVAL);
    if (deadline <= now) return resume_with(0);
    caller->wake_at = deadline;
    Thread** link = &g_sleepers;
    while (*link != nullptr && (*link)->wake_at <= deadline) link = &(*link)->next;  // FIFO among equals
    caller->next = *link;
    *link = caller;
    return block(caller, BlockReason::Sleep);
}

void wake_due_sleepers(u64 now) {
    while (g_sleepers != nullptr && g_sleepers->wake_at <= now) {
        Thread* t = g_sleepers;
        g_sleepers = t->next;
        t->next = nullptr;
        wake(t, 0);
    }
}

void sleepers_reset() { g_sleepers = nullptr; }
}  // namespace nvx::kernel
