// MPIUtil: the OS-dependent tier of LWMPI. libmpi/ reaches threads, IKC, names, futexes,
// clocks and launch information only through this header, so porting LWMPI to another OS
// means rewriting mputil/ only. Every call is made by a rank thread (one per MPI rank)
// between init() and finalize() unless said otherwise. A thread that a rank thread starts
// belongs to that rank: it may make every call on the rank's behalf (one thread of a rank
// at a time: MPI_THREAD_SERIALIZED).
#pragma once

#include <stddef.h>
#include <stdint.h>

namespace mputil {

// ---- World, fixed at launch. World ranks are 0..world_size()-1. -------------------------

int world_size();
const int* world_in_order();                   // 0..world_size()-1, one copy per cluster
int world_rank();                              // of the calling thread's rank (-1: none)
int cluster_of(int world_rank);                // compute cluster index that runs that rank
int cluster_count();                           // clusters that have ranks
int local_ranks(int* world_ranks, int max);    // ranks of my cluster, ascending; returns count
bool is_main_rank_thread();                    // the rank's own thread (MPI_Is_thread_main)

// libmpi's per-rank state: one pointer per rank, nullptr until set, the same on every
// thread of the rank, valid from program start (before init()). mputil releases it with
// free() when the rank's main returns, so it must come from malloc/calloc.
// The calling thread's slot holding it, found once per thread by context_slot_lookup
// (which may cache it in t_context_slot): every MPI call reads it.
extern thread_local void** t_context_slot;
void** context_slot_lookup();
inline void* rank_context()
{
    void** slot = t_context_slot;
    return *(slot != nullptr ? slot : context_slot_lookup());
}
void set_rank_context(void* context);

// ---- Point-to-point on contiguous bytes, MPI matching on (context, source, tag). --------
// Messages between one pair of ranks on one context never overtake each other.

constexpr int kAnySource = -1;
constexpr int kAnyTag = -1;

enum class SendMode {
    Standard,     // completes when the buffer may be reused
    Synchronous,  // completes only once a matching receive was posted (MPI_Ssend)
    Ready,        // the receive is known to be posted; behaves like Standard here
    Buffered,     // libmpi's buffered mode: it sends a copy in Standard mode, never this
};

struct Op;  // one transport operation (a send or a receive), opaque

struct Completion {
    int source;      // matched world rank (receives, probes); the destination for sends
    int tag;         // matched tag
    size_t bytes;    // bytes delivered (receives: at most the capacity)
    bool truncated;  // the message was longer than the receive buffer
    bool cancelled;  // the receive was cancelled before matching
};

// Start a send / receive and return at once; nullptr (nothing started) when memory for the
// operation cannot be had. `buf` must stay valid until the operation completes.
Op* isend(int dest_world, uint32_t context, int tag, const void* buf, size_t bytes,
          SendMode mode);
Op* irecv(int source_world_or_any, uint32_t context, int tag_or_any, void* buf,
          size_t capacity);

// Makes progress; true when `op` is done, then *out is filled (out may be nullptr).
bool test(Op* op, Completion* out);

// A nonblocking call (test, probe) that found nothing gives the rank's hart away once, so
// that a program polling in a loop leaves the turn to the threads that bring what it polls
// for (a local sender, the kernel core): under deterministic execution a hart
// that never enters the kernel keeps its whole turn (about 10^8 instructions) before the
// harts it waits for run. libmpi calls it once per fruitless MPI call, not per request.
void poll_idle();

// Blocks in the kernel until at least one of ops[0..n) is done (nullptr entries are
// skipped); writes the indices of up to max_done done operations to done_index and returns
// how many. Returns 0 at once when every entry is nullptr. Completion data: test().
int wait_some(Op* const* ops, int n, int* done_index, int max_done);
// Blocks in the kernel until every one of ops[0..n) is done (nullptr entries are skipped).
// Each wake-up looks only from the first operation not seen done on, so waiting for n
// operations that complete one by one costs O(n) looks, not O(n^2).
void wait_all(Op* const* ops, int n);

// Blocking forms: start, wait (making progress as wait_some does) and release in one call,
// with the operation on the caller's stack, so nothing is allocated for it. send returns
// false, with nothing started, where isend would return nullptr. `out` may be nullptr.
bool send(int dest_world, uint32_t context, int tag, const void* buf, size_t bytes, SendMode mode,
          Completion* out);
void recv(int source_world_or_any, uint32_t context, int tag_or_any, void* buf, size_t capacity,
          Completion* out);

// ---- A barrier among one rank per cluster on the NoC's sync registers. -----------------
// clusters[0..n): compute cluster indexes, each once, the root's first; the caller runs on
// clusters[0] (root) or on one of the others. Takes sync register `port` of every node
// (an all-to-one on the root's, a one-to-all on the others'); false if the caller cannot
// (the register is taken, n outside 2..kLeaderSyncMax, the cluster has one open already:
// one LeaderSync per cluster at a time, whose wait record is the cluster's).
constexpr int kLeaderSyncMax = 64;  // clusters of one leader sync (its nodes are a 64-bit mask)
struct SyncWait;  // the wait of a LeaderSync under way (mputil's)
struct LeaderSync {
    long arrive = -1, release = -1;  // this side's two syncs
    bool root = false;
    SyncWait* waiting = nullptr;
};
bool leader_sync_open(const int* clusters, int n, bool root, unsigned port, LeaderSync* out);
// One barrier in two steps, so that the caller waits between them in wait_some (its other
// operations progressing, as MPI's progress rule asks): enter (the root starts waiting for
// the others' signals; another signals the root and starts waiting for its release), then,
// once leader_sync_fired, leave (the root signals the release). Each returns 0 or -errno.
long leader_sync_enter(LeaderSync* s);
// Whether the wait that enter started has ended (then the caller's time is the firing's).
bool leader_sync_fired(const LeaderSync* s);
long leader_sync_leave(LeaderSync* s);
void leader_sync_close(LeaderSync* s);

// ---- Counters the ranks of one cluster share (libmpi's shared-memory collectives). ------
// A rank waits for a counter inside wait_some, on its doorbell, so its other operations
// keep progressing meanwhile; whoever moves the counter rings the waiters (wake_rank).

struct Counter {      // zero-initialized, in memory the ranks of the cluster share
    uint32_t value;
    uint64_t stamp;   // the virtual time of the latest add (mputil's)
};

// Adds n to the counter (release) and returns the new value. Wakes nobody by itself.
uint32_t counter_add(Counter* c, uint32_t n);
// Whether the counter reached `target` (counters wrap: compared as a distance). When it did,
// the caller's virtual time becomes at least that of the adds it sees (a hand-off).
bool counter_reached(const Counter* c, uint32_t target);
// Rings the doorbell of `world_rank`, a rank of the calling cluster: a wait_some of it
// looks at its counter again.
void wake_rank(int world_rank);
// What else ends a wait_some: a counter reaching a target, a leader sync firing.
struct WaitEnd {
    const Counter* counter = nullptr;
    uint32_t target = 0;
    const LeaderSync* sync = nullptr;
};
// As wait_some, but returns also once `end` is met (then perhaps 0 operations done): the
// caller checks counter_reached or leader_sync_fired. Sleeps even when every entry of ops
// is nullptr.
int wait_some(Op* const* ops, int n, int* done_index, int max_done, const WaitEnd& end);

// A lock over data the ranks of the calling cluster share, held briefly (never across a
// wait).
void cluster_lock();
void cluster_unlock();
// Holds the cluster's lock for a scope.
class ClusterLockGuard {
public:
    ClusterLockGuard() { cluster_lock(); }
    ~ClusterLockGuard() { cluster_unlock(); }
    ClusterLockGuard(const ClusterLockGuard&) = delete;
    ClusterLockGuard& operator=(const ClusterLockGuard&) = delete;
};

// Receives only: true if the receive was removed before it matched (its completion then
// says cancelled); false if it matched already (or is a send) and completes normally.
bool cancel(Op* op);

// Frees an operation after it completed (test()/wait_some() said so) or was cancelled.
void release(Op* op);

// Looks for a message that a receive with these arguments would match, without receiving
// it: source, tag and the full message length in bytes (truncated = false).
bool iprobe(int source_or_any, uint32_t context, int tag_or_any, Completion* out);
void probe(int source_or_any, uint32_t context, int tag_or_any, Completion* out);  // blocks

// Matched probes (MPI_Mprobe): the message found is taken out of matching, so no other
// receive or probe can match it; only imrecv of it receives it, once.
struct Message;  // opaque: a message held for one receive
Message* improbe(int source_or_any, uint32_t context, int tag_or_any, Completion* out);  // nullptr: none
Message* mprobe(int source_or_any, uint32_t context, int tag_or_any, Completion* out);   // blocks
// Starts the receive of a matched message, as irecv does; nullptr (the message still held,
// nothing started) when memory for the operation cannot be had.
Op* imrecv(Message* message, void* buf, size_t capacity);

// Truncation: a message longer than `capacity` completes with truncated = true and
// bytes = capacity written (never more); the rest is discarded without corrupting anything.
// Blocking waits never spin: they sleep in the kernel (futex or IKC read) and wake on a
// local or a remote arrival. Every envelope and queue entry carries a 64-bit `stamp`: the
// virtual time the receiver takes with it (nvx_clock_take).

// ---- Environment. ------------------------------------------------------------------------

double wtime();                              // seconds since an arbitrary fixed origin
double wtick();                              // resolution of wtime()
int processor_name(char* out, int max);      // "nvx-cluster3-pe5"; returns length written
[[noreturn]] void abort_run(int status);     // ends the whole run with that exit status
void* alloc_mem(size_t bytes);               // nullptr when out of memory
size_t memory_bytes();                       // the cluster's user memory: no buffer is larger
uint32_t spare_objects(size_t object_bytes);  // freed objects of that size a rank keeps for reuse
void free_mem(void* p);
const char* variant();                       // "opt" or "unopt"

// Called by MPI_Init / MPI_Finalize on every rank thread. finalize() returns once every
// operation of the calling rank completed on both sides.
void init();
void finalize();

// Blocks until every rank of my cluster called it (shared-memory barrier, sleeps).
void barrier_cluster();

// ---- Measurements (benchmarks and tests). --------------------------------------------------

struct Stats {
    uint64_t first_contacts;        // name lookups of peers done by this cluster
    double first_contact_seconds;   // their total time
    uint32_t helper_threads;        // threads mputil started on this cluster (none: ranks move their own messages)
};
void stats(Stats* out);             // of the calling rank's cluster

}  // namespace mputil
