// Where ranks are: a peer's node (its name, looked up once) and the cluster's output
// mailboxes and portals towards ranks' ports. One output of each kind per destination
// rank, shared by the ranks of this cluster and kept open; the kernel's tables are small
// (NVX_IKC_MAILBOXES and NVX_IKC_PORTALS per cluster, inputs included), so past
// config::output_mailboxes / output_portals an idle one is closed for a new one.
#include <errno.h>
#include <stdio.h>

#include <nvx/ikc.h>
#include <nvx/names.h>

#include "state.hpp"

namespace mputil {

namespace {

// entry[rank]: the opened id + 1 in the high bits, the threads using it now in the
// low ones: a writer takes it without a lock, and only an unused entry is closed.
constexpr int kUserBits = 16;
constexpr uint64_t kUsers = (1ull << kUserBits) - 1;

uint64_t id_bits(long id) { return (uint64_t)(id + 1) << kUserBits; }
long id_of(uint64_t entry) { return (long)(entry >> kUserBits) - 1; }

// Takes a use of rank's open output; false when it has none.
bool try_use(uint64_t* entry, long* id)
{
    uint64_t v = __atomic_load_n(entry, __ATOMIC_ACQUIRE);
    while (v != 0) {
        if (__atomic_compare_exchange_n(entry, &v, v + 1, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            *id = id_of(v);
            return true;
        }
    }
    return false;
}

// Closes one idle output of `t` towards another rank (table_lock held); false if none can be.
bool evict_one(OutputTable& t, int keep)
{
    for (int r = 0; r < g_cluster.world_size; r++) {
        uint64_t v = __atomic_load_n(&t.entry[r], __ATOMIC_ACQUIRE);
        if (r == keep || v == 0 || (v & kUsers) != 0) continue;
        if (!__atomic_compare_exchange_n(&t.entry[r], &v, 0, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) continue;
        if (t.close_output(id_of(v)) == 0) {
            t.open--;
            return true;
        }
        __atomic_store_n(&t.entry[r], v, __ATOMIC_RELEASE);  // a write still waits on it
    }
    return false;
}

long open_output(OutputTable& t, int world, uint32_t node)
{
    unsigned port = g_cluster.port_of[world];
    if (t.open >= t.limit && !evict_one(t, world)) transport_failure(t.what, -ENOSPC);
    long id = t.open_output(node, port);
    if (id == -ENOSPC && evict_one(t, world)) id = t.open_output(node, port);
    if (id < 0) transport_failure(t.what, id);
    t.open++;
    return id;
}

}  // namespace

Output::Output(OutputTable& table, int world, uint32_t node) : entry_(&table.entry[world])
{
    if (try_use(entry_, &id_)) return;
    MutexGuard guard(&g_cluster.table_lock);
    if (!try_use(entry_, &id_)) {
        id_ = open_output(table, world, node);
        __atomic_store_n(entry_, id_bits(id_) + 1, __ATOMIC_RELEASE);
    }
}

Output::~Output() { __atomic_sub_fetch(entry_, 1, __ATOMIC_ACQ_REL); }

// First contact with a peer: its name gives its node and port (the Name Server, then that
// node's Local Name Daemon); the answer is kept for the whole run.
uint32_t node_of_rank(int world)
{
    Cluster& c = g_cluster;
    int cached = __atomic_load_n(&c.node_of_rank[world], __ATOMIC_ACQUIRE);
    if (cached >= 0) return (uint32_t)cached;
    char name[24];
    snprintf(name, sizeof name, "mpi.%d", world);
    unsigned node = 0, port = 0;
    uint64_t start = now_ticks();
    int err = nvx_name_lookup(name, &node, &port);
    uint64_t spent = now_ticks() - start;
    if (err < 0 || port != c.port_of[world] || node >= c.node_count) transport_failure("looking up a rank's name", err);
    {
        MutexGuard guard(&c.table_lock);
        c.first_contacts++;
        c.first_contact_ticks += spent;
    }
    __atomic_store_n(&c.node_of_rank[world], (int)node, __ATOMIC_RELEASE);
    return node;
}

}  // namespace mputil
