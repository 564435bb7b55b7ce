// The world as launched and the rank threads. crt0 calls nvx_program_main; this one (it
// replaces the runtime's weak default) sets up each rank's MPI endpoints and runs the
// ranks placed here through the runtime (nvx/ranks.h: threads pinned to their PEs, stacks,
// faults, the first failure), each running the program's main.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvx/clock.h>
#include <nvx/ikc.h>
#include <nvx/launch.h>
#include <nvx/names.h>
#include <nvx/placement.h>
#include <nvx/ranks.h>
#include <nvx/syscall.h>
#include <nvx/thread.h>

#include "state.hpp"
#include "wait_note.hpp"
#include "wire.hpp"

extern "C" int main(int argc, char** argv, char** envp);
extern "C" char** environ;
extern "C" int on_exit(void (*handler)(int status, void* arg), void* arg);  // newlib's; strict C++20 hides it

namespace mputil {

Cluster g_cluster;

// The rank a thread belongs to is its inherited context word (nvx_thread_context): set by
// the rank's own thread, copied into every thread it starts. Only the rank's own thread
// has this flag (MPI_Is_thread_main).
thread_local bool t_rank_main;

namespace {

void** g_rank_contexts;          // libmpi's context of each local rank (rank_context())
unsigned g_root_cluster;         // the cluster of rank 0 gathers the barrier
uint32_t g_barrier_expected;     // Barrier messages this cluster's leader has waited for

[[noreturn]] void launch_failure(const char* what, long err)
{
    printf("[lwmpi] cluster start failed: %s (%ld)\n", what, err);
    nvx_sys_exit(2);
}

uint32_t node_of_cluster(unsigned compute_index)
{
    long node = nvx_node_of(g_cluster.first_compute + compute_index, 0);
    if (node < 0) launch_failure("no node for a compute cluster", node);
    return (uint32_t)node;
}

// The leader of a cluster: its first rank, at the first rank port of its node.
int leader_of(unsigned cluster)
{
    for (int r = 0; r < g_cluster.world_size; r++)
        if (g_cluster.cluster_of[r] == cluster) return r;
    return -1;
}

// Sends a Barrier message to the leader of a cluster, addressed by cluster (names may not
// exist yet), as soon as a write slot is free.
void barrier_message(RankState* me, unsigned cluster)
{
    WireHeader h = header(WireKind::Barrier, me->world_rank, leader_of(cluster));
    uint32_t node = node_of_cluster(cluster);
    for (;;) {
        uint32_t seen = me->bell.snapshot();
        progress(me);
        if (try_wire(me, &h, node)) return;
        me->bell.sleep(seen);
    }
}

// Sleeps (making progress: the Barrier messages come to this rank's mailbox) until the
// leader has consumed `count` of them in all.
void await_barrier_messages(RankState* me, uint32_t count)
{
    for (;;) {
        uint32_t seen = me->bell.snapshot();
        progress(me);
        if (__atomic_load_n(&g_cluster.barrier_messages, __ATOMIC_ACQUIRE) >= count) return;
        me->bell.sleep(seen);
    }
}

// A rank that ends between MPI_Init and MPI_Finalize leaves every rank that waits for it
// waiting forever: like mpirun, end the whole run at once and say which rank it was.
[[noreturn]] void ended_without_finalize(const RankState* r, const char* how, int status)
{
    printf("[lwmpi] rank %d (cluster %u, PE %d) %s (status %d) without calling MPI_Finalize: ending the run\n",
           r->world_rank, g_cluster.first_compute + g_cluster.my_cluster, r->pe, how, status);
    abort_run(status != 0 ? status : config::kExitWithoutFinalize);
}

// exit() from any thread of a rank: its status stands, unless it is 0 (success would hide
// the ranks it abandoned). The normal end (the main thread's exit) passes through here too.
void on_program_exit(int status, void*)
{
    RankState* self = self_state();
    if (self != nullptr && self->phase == MpiPhase::Initialized) ended_without_finalize(self, "called exit", status);
}

// First in a rank's thread (nvx/ranks.h): the thread, and every thread it starts, is the rank's.
void rank_setup(unsigned index, void*)
{
    RankState* self = &g_cluster.ranks[index];
    nvx_thread_set_context(self);
    t_rank_main = true;
    nvx_sys_wait_note(self->wait_note);
}

int rank_main(unsigned index, int argc, char** argv, void*)
{
    RankState* self = &g_cluster.ranks[index];
    int status = main(argc, argv, environ);
    if (self->phase == MpiPhase::Initialized) ended_without_finalize(self, "returned from main", status);
    drop_spare_ops(self);
    free(g_rank_contexts[index]);  // helper threads of a rank end before it
    g_rank_contexts[index] = nullptr;
    return status;
}

void setup_world(const struct nvx_launch& launch, const struct nvx_info& info)
{
    Cluster& c = g_cluster;
    c.world_size = (int)launch.ranks;
    c.here = (int)launch.ranks_here;
    nvx_ranks_admit(launch.ranks_here);  // before anything is set up per rank
    c.first_compute = info.cluster_count - info.compute_count;
    c.my_cluster = info.cluster - c.first_compute;
    c.node = info.node;
    c.node_count = info.node_count;
    c.local_path = variant_local_path();
    c.user_memory = (size_t)info.user_memory;
    c.spare_ops = config::spare_objects(c.user_memory, (uint32_t)c.here, sizeof(Op));
    c.cluster_of = static_cast<unsigned*>(xmalloc(sizeof(unsigned) * c.world_size));
    c.in_order = static_cast<int*>(xmalloc(sizeof(int) * c.world_size));
    for (int r = 0; r < c.world_size; r++)
        c.in_order[r] = r;
    c.local_of = static_cast<int*>(xmalloc(sizeof(int) * c.world_size));
    c.node_of_rank = static_cast<int*>(xmalloc(sizeof(int) * c.world_size));
    c.port_of = static_cast<unsigned*>(xmalloc(sizeof(unsigned) * c.world_size));
    c.out_mailboxes = OutputTable{static_cast<uint64_t*>(xmalloc(sizeof(uint64_t) * c.world_size)), 0,
                                  config::output_mailboxes((uint32_t)c.here, c.node_count), nvx_mailbox_open, nvx_mailbox_close,
                                  "no output mailbox can be opened for a new destination"};
    c.out_portals = OutputTable{static_cast<uint64_t*>(xmalloc(sizeof(uint64_t) * c.world_size)), 0,
                                config::output_portals((uint32_t)c.here), nvx_portal_open, nvx_portal_close,
                                "no output portal can be opened for a new destination"};
    if (nvx_place_ranks(launch.ranks, launch.clusters, launch.pes, launch.per_cluster, launch.policy, c.cluster_of) != 0)
        launch_failure("bad launch placement", -1);
    if (c.here > (int)config::kMaxRanksHere) launch_failure("more ranks on a cluster than its IKC operations serve", c.here);
    unsigned placed[64] = {};  // ranks seen so far per cluster: the next one's port
    for (int r = 0; r < c.world_size; r++) {
        c.local_of[r] = -1;
        c.node_of_rank[r] = -1;
        c.out_mailboxes.entry[r] = c.out_portals.entry[r] = 0;
        unsigned cl = c.cluster_of[r];
        if (cl >= 64) launch_failure("a rank on a cluster past 64", (long)cl);
        c.port_of[r] = config::kRankPortBase + placed[cl]++;
    }
    c.clusters_used = 0;
    for (unsigned n : placed) c.clusters_used += n > 0;
    nvx_mutex_init(&c.table_lock);
    nvx_mutex_init(&c.shared_lock);
    nvx_barrier_init(&c.local_barrier, (unsigned)c.here);
    g_root_cluster = c.cluster_of[0];
}

void setup_ranks(const struct nvx_launch& launch, const struct nvx_info& info)
{
    Cluster& c = g_cluster;
    c.ranks = static_cast<RankState*>(xmalloc(sizeof(RankState) * c.here));
    g_rank_contexts = static_cast<void**>(xmalloc(sizeof(void*) * c.here));
    for (int i = 0; i < c.here; i++) {
        RankState& r = c.ranks[i];
        r = RankState{};
        g_rank_contexts[i] = nullptr;
        r.world_rank = (int)launch.rank[i];
        r.local_index = i;
        r.pe = nvx_rank_hart(&info, (unsigned)i);
        nvx_mutex_init(&r.lock);
        r.credits.init(static_cast<uint32_t*>(xmalloc(sizeof(uint32_t) * c.world_size)),
                       static_cast<uint64_t*>(xmalloc(sizeof(uint64_t) * c.world_size)), c.world_size,
                       config::kEagerCredits);
        r.debts.init(static_cast<uint32_t*>(xmalloc(sizeof(uint32_t) * c.world_size)), c.world_size,
                     config::kCreditBatch);
        unsigned port = c.port_of[r.world_rank];
        r.portal = nvx_portal_create(c.node, port);
        if (r.portal < 0) launch_failure("cannot create a rank's portal", r.portal);
        r.mailbox = nvx_mailbox_create(c.node, port);
        if (r.mailbox < 0) launch_failure("cannot create a rank's mailbox", r.mailbox);
        // Attached by this thread, which lives as long as the program: the ring stays.
        r.inbox = static_cast<nvx_mailbox_ring*>(xmalloc(NVX_MAILBOX_RING_BYTES(config::kInboxSlots)));
        r.inbox->notify = &r.bell.seq;
        r.inbox->flags = NVX_IKC_NOTIFY_UNTIMED;  // each message's time is taken as it is used
        r.inbox->slots = config::kInboxSlots;
        long attached = nvx_mailbox_ring_attach(r.mailbox, r.inbox);
        if (attached < 0) launch_failure("cannot attach a rank's receive ring", attached);
        r.write_ops = config::write_ops((uint32_t)c.here);
        c.local_of[r.world_rank] = i;
    }
}

}  // namespace

RankState* self_state() { return static_cast<RankState*>(nvx_thread_context()); }

uint64_t now_ticks() { return nvx_rdtime(); }
uint64_t now_stamp() { return nvx_clock_cycles(); }

// Every rank of every cluster: each first sees its own writes through (a thread that
// ends forgets what it started), the ranks of a cluster meet at the local barrier, then
// the cluster leaders report to the root cluster's leader by Barrier messages to its
// mailbox and wait for its go. Addressed by cluster, not by name: it also runs before any
// name exists. Messages to a port not yet read wait in its kernel, so a late cluster
// loses nothing.
void world_barrier()
{
    Cluster& c = g_cluster;
    RankState* me = self_state();
    show_wait_note(me, "world barrier (MPI_Init or MPI_Finalize)");
    flush_writes(me);
    barrier_cluster();
    if (me->local_index == 0 && c.clusters_used > 1) {
        if (c.my_cluster == g_root_cluster) {
            g_barrier_expected += (uint32_t)c.clusters_used - 1;
            await_barrier_messages(me, g_barrier_expected);
            bool seen[64] = {};
            for (int r = 0; r < c.world_size; r++) {
                unsigned cl = c.cluster_of[r];
                if (cl != g_root_cluster && !seen[cl]) {
                    seen[cl] = true;
                    barrier_message(me, cl);
                }
            }
        } else {
            barrier_message(me, g_root_cluster);
            await_barrier_messages(me, ++g_barrier_expected);
        }
        flush_writes(me);
    }
    barrier_cluster();
    clear_wait_note(me);
}

int world_size() { return g_cluster.world_size; }
const int* world_in_order() { return g_cluster.in_order; }
int world_rank()
{
    RankState* self = self_state();
    return self != nullptr ? self->world_rank : -1;
}
int cluster_of(int world) { return (int)g_cluster.cluster_of[world]; }
int cluster_count() { return g_cluster.clusters_used; }
bool is_main_rank_thread() { return t_rank_main; }
// The calling thread's rank's slot in g_rank_contexts, looked up once per thread: a
// rank's slot lasts the whole run (what it points to is freed when the rank ends).
thread_local void** t_context_slot;
void** context_slot_lookup()
{
    void** slot = t_context_slot;
    if (slot == nullptr) slot = t_context_slot = &g_rank_contexts[self_state()->local_index];
    return slot;
}
void set_rank_context(void* context) { *context_slot_lookup() = context; }

int local_ranks(int* world_ranks, int max)
{
    int n = 0;
    for (int i = 0; i < g_cluster.here && n < max; i++) world_ranks[n++] = g_cluster.ranks[i].world_rank;
    return n;
}

void barrier_cluster() { nvx_barrier_wait(&g_cluster.local_barrier); }

void cluster_lock() { nvx_mutex_lock(&g_cluster.shared_lock); }
void cluster_unlock() { nvx_mutex_unlock(&g_cluster.shared_lock); }

// Each rank publishes its endpoint (its own mailbox and portal port) under "mpi.<rank>";
// the world barrier makes sure every name exists before anyone looks one up.
void init()
{
    self_state()->phase = MpiPhase::Initialized;
    char name[24];
    snprintf(name, sizeof name, "mpi.%d", world_rank());
    int err = nvx_name_link(name, g_cluster.port_of[world_rank()]);
    if (err < 0 && err != -EEXIST) {
        printf("[lwmpi] rank %d: cannot link name %s (%d)\n", world_rank(), name, err);
        abort_run(1);
    }
    world_barrier();
}

void finalize()
{
    self_state()->phase = MpiPhase::Finalizing;
    world_barrier();
    drop_spare_ops(self_state());
}

}  // namespace mputil

using namespace mputil;

extern "C" int nvx_program_main(int argc, char** argv, char** envp)
{
    (void)envp;
    struct nvx_info info;
    if (nvx_sys_info(&info) < 0) launch_failure("no cluster information", -1);
    struct nvx_launch launch;
    if (nvx_launch_info(&launch) != 0) {  // started without the launcher: a world of one
        memset(&launch, 0, sizeof launch);
        launch.ranks = launch.clusters = launch.pes = launch.per_cluster = launch.ranks_here = 1;
        launch.policy = NVX_MAP_COMPACT;
        info.cluster = info.cluster_count - info.compute_count;
    }
    on_exit(on_program_exit, nullptr);
    setup_world(launch, info);
    setup_ranks(launch, info);

    struct nvx_rank_set ranks = {};
    ranks.count = launch.ranks_here;
    ranks.world = launch.rank;
    ranks.argc = argc;
    ranks.argv = argv;
    ranks.setup = rank_setup;
    ranks.main = rank_main;
    return nvx_ranks_run(&ranks);
}
