// A barrier among one rank per cluster on the NoC's sync registers (mputil.hpp): the
// others signal the root's all-to-one, the root then signals the others' one-to-all. A
// register holds one level per node, so a rank never signals twice before it was
// consumed: it signals the next barrier only once this one released it. The waits are
// asynchronous (nvx_sync_await) and ring the rank's doorbell, so the rank sleeps in
// wait_some, progressing its other operations meanwhile.
#include <nvx/ikc.h>

#include <mputil/mputil.hpp>

#include "state.hpp"

namespace mputil {

struct SyncWait {
    nvx_ikc_op op;
};

namespace {
// The cluster's one wait record (no heap: the program's memory stays what it was).
SyncWait g_wait;
uint32_t g_wait_taken;

long start_wait(LeaderSync* s, long id)
{
    s->waiting->op = nvx_ikc_op{};
    s->waiting->op.notify = &self_state()->bell.seq;
    s->waiting->op.flags = NVX_IKC_NOTIFY_UNTIMED;  // the bell's waiters keep their own time
    return nvx_sync_await(id, &s->waiting->op);
}
}  // namespace

bool leader_sync_open(const int* clusters, int n, bool root, unsigned port, LeaderSync* out)
{
    *out = LeaderSync{};
    if (n < 2 || n > kLeaderSyncMax)
        return false;
    uint32_t nodes[kLeaderSyncMax];
    for (int i = 0; i < n; i++) {
        long node = nvx_node_of(g_cluster.first_compute + (unsigned)clusters[i], 0);
        if (node < 0)
            return false;
        nodes[i] = (uint32_t)node;
    }
    if (__atomic_exchange_n(&g_wait_taken, 1u, __ATOMIC_ACQ_REL))
        return false;
    out->root = root;
    out->waiting = &g_wait;
    // The side that waits creates a sync, the side that signals opens it.
    out->arrive = root ? nvx_sync_create(port, nodes, (unsigned)n, NVX_SYNC_ALL_TO_ONE)
                           : nvx_sync_open(port, nodes, (unsigned)n, NVX_SYNC_ALL_TO_ONE);
    if (out->arrive >= 0)
        out->release = root ? nvx_sync_open(port, nodes, (unsigned)n, NVX_SYNC_ONE_TO_ALL)
                            : nvx_sync_create(port, nodes, (unsigned)n, NVX_SYNC_ONE_TO_ALL);
    if (out->release >= 0)
        return true;
    leader_sync_close(out);
    return false;
}

long leader_sync_enter(LeaderSync* s)
{
    if (s->root)
        return start_wait(s, s->arrive);
    long err = nvx_sync_signal(s->arrive);
    return err == 0 ? start_wait(s, s->release) : err;
}

bool leader_sync_is_fired(const LeaderSync* s)
{
    return __atomic_load_n(&s->waiting->op.done, __ATOMIC_ACQUIRE) != 0;
}

bool leader_sync_fired(const LeaderSync* s) { return nvx_ikc_test(&s->waiting->op) != 0; }

long leader_sync_leave(LeaderSync* s)
{
    long err = s->waiting->op.result;
    if (err == 0 && s->root)
        err = nvx_sync_signal(s->release);
    return err;
}

void leader_sync_close(LeaderSync* s)
{
    if (s->arrive >= 0)
        s->root ? nvx_sync_unlink(s->arrive) : nvx_sync_close(s->arrive);
    if (s->release >= 0)
        s->root ? nvx_sync_close(s->release) : nvx_sync_unlink(s->release);
    if (s->waiting != nullptr)
        __atomic_store_n(&g_wait_taken, 0u, __ATOMIC_RELEASE);
    *s = LeaderSync{};
}

}  // namespace mputil
