// State shared by the threads of one cluster: the world as launched, one RankState per
// rank placed here, output mailboxes, and the operations (Op) and unexpected messages
// that move between them. Private to mputil.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <nvx/ikc.h>
#include <nvx/thread.h>

#include "config.hpp"
#include "credits.hpp"
#include "doorbell.hpp"
#include "match.hpp"
#include "mutex_guard.hpp"
#include "wire.hpp"
#include <mputil/mputil.hpp>

namespace mputil {

enum class OpKind : uint8_t { Send, Recv };

// A receive matched with a rendezvous (RTS): its envelope and the sender to clear.
struct RendezvousMatch {
    Envelope matched;
    uint64_t cookie;   // the sender's operation
    uint32_t node;     // the sender's node
    size_t bytes;      // the message's full length
    size_t moved;      // bytes read so far (piece by piece)
};

// A rendezvous send its receiver cleared: where its data goes, and how far it got.
struct PortalWrite {
    uint32_t node;     // the receiver's portal node and port
    uint32_t port;
    size_t bytes;      // bytes the receiver takes
    size_t moved;      // bytes written so far
    uint64_t stamp;    // when the clear-to-send arrived
};

struct Op {
    Op* next;            // in one queue of its owner at a time: posted, ready, outbox or cleared
    OpKind kind;
    SendMode mode;
    WireKind wire;       // in the outbox: the message it still has to send (Eager, Rts, Cts)
    int owner;           // world rank that started it
    uint32_t done;       // set (release) by whoever completes it, then the owner's bell rings
    Completion result;
    uint64_t stamp;
    // Receive: what it accepts and where the data goes.
    int source;
    uint32_t context;
    int tag;
    void* buf;
    size_t capacity;
    // Send: what it sends.
    int dest;
    const void* data;
    size_t bytes;
    union {
        RendezvousMatch rdv;  // a receive matched with an RTS
        PortalWrite write;    // a send its receiver cleared
    };
};

// How an unexpected message holds its data.
enum class Holding : uint8_t {
    Cell,       // payload copied right after the entry (eager, or a small local send)
    LocalRef,   // the local sender's buffer: copied at match time, then the send completes
    Rendezvous, // remote data, fetched through the portal after a clear-to-send
};

struct Unexpected {
    Unexpected* next;
    Envelope env;
    size_t bytes;          // the message's full length
    Holding holding;
    bool remote_eager;     // consuming it returns an eager credit to env.source
    bool local_cell;       // counts against the receiver's local cells
    Op* sender;            // LocalRef
    uint64_t cookie;       // Rendezvous: sender's operation
    uint32_t node;         // Rendezvous: sender's node
    unsigned char* payload() { return reinterpret_cast<unsigned char*>(this + 1); }
};

// Where a rank is in MPI's life: a rank that ends while Initialized ends the run.
enum class MpiPhase : uint8_t { NotStarted, Initialized, Finalizing };

// A write under way of a rank: a mailbox message (the kernel copied it at the start, so
// the record is all that stays) or a piece of a cleared send's data (`send`).
struct WriteSlot {
    nvx_ikc_op io;
    nvx_thread_t thread;  // the thread that started it
    Op* send;             // the portal write's send, or nullptr for a mailbox message
    bool busy;
};

// What a rank sleeps for (wait_note.hpp): the key of the text its wait note holds.
struct WaitKey {
    const char* what;
    bool peer;
    int rank;
    int tag;
    uint32_t context;
    int more;
    bool operator==(const WaitKey&) const = default;
};

struct RankState {
    int world_rank;
    int local_index;
    int pe;                    // local hart the rank thread is pinned to
    nvx_mutex_t lock;          // posted and unexpected queues (local senders touch them)
    Queue<Op> posted;
    Queue<Unexpected> unexpected;
    // The rest is the rank's own (its threads, one at a time: MPI_THREAD_SERIALIZED).
    Queue<Op> ready;           // receives matched with an RTS, waiting for the portal input
    Op* rdv_active;            // the one receive the portal input serves (its CTS is out)
    bool portal_posted;        // a read of rdv_active's current piece is under way
    nvx_ikc_op portal_read;
    nvx_thread_t portal_thread;
    long mailbox;              // the rank's mailbox input (node, port_of[rank])
    nvx_mailbox_ring* inbox;   // its receive ring: the kernel puts each message there
    Queue<Op> outbox;          // mailbox messages (Eager, Rts, Cts) waiting for a write slot
    Queue<Op> cleared;         // cleared sends waiting for a write slot
    uint32_t write_ops;        // writes the rank may keep under way (config::write_ops)
    uint32_t writes;           // slots busy now
    uint32_t portal_writes;    // of them, portal writes (at most write_ops - 1)
    WriteSlot slots[config::kMaxWriteOps];
    uint32_t credits_due;      // set when some source's debt reached a batch
    Doorbell bell;
    CreditLedger credits;      // eager credits towards every rank (as a sender)
    CreditDebts debts;         // credits owed to every rank (as a receiver)
    long portal;               // portal input at (node, port_of[rank])
    MpiPhase phase;            // set by the rank's own threads (init, finalize)
    Queue<Op> spare_ops;       // released operations kept for reuse (Cluster::spare_ops)
    char wait_note[NVX_WAIT_NOTE_MAX];  // what the rank sleeps for (wait_note.hpp), for a deadlock report
    WaitKey wait_key;          // what wait_note's text says, while wait_first is not '\0'
    char wait_first;           // wait_note's first character, kept while the note is hidden
};

// The cluster's outputs of one kind (mailboxes or portals) towards ranks' ports: one per
// destination rank, shared by the ranks of this cluster and kept open (outputs.cpp).
struct OutputTable {
    uint64_t* entry;           // per world rank: the opened id and its users now
    uint32_t open;             // outputs open now (table_lock)
    uint32_t limit;            // past this, an idle one is closed for a new one
    long (*open_output)(unsigned node, unsigned port);
    long (*close_output)(long id);
    const char* what;          // for a failure report
};
struct Cluster {
    int world_size;
    int here;                  // ranks on this cluster
    int clusters_used;
    unsigned* cluster_of;      // world rank -> compute cluster index
    int* in_order;             // world rank -> itself: the list of MPI_COMM_WORLD's group
    int* local_of;             // world rank -> local index here, or -1
    RankState* ranks;          // [here]
    unsigned my_cluster;       // compute cluster index of this cluster
    uint32_t node;             // this cluster's NoC node
    unsigned first_compute;    // board index of compute cluster 0
    unsigned* port_of;         // world rank -> its ports on its node (kRankPortBase + index there)
    int* node_of_rank;         // name lookups, cached: -1 = not looked up yet
    OutputTable out_mailboxes;
    OutputTable out_portals;
    nvx_mutex_t table_lock;    // opening and closing outputs, first-contact statistics
    nvx_mutex_t shared_lock;   // cluster_lock(): libmpi's data the cluster's ranks share
    nvx_barrier_t local_barrier;
    uint32_t barrier_messages; // Barrier messages the leader (local index 0) consumed so far
    bool local_path;           // the variant: local messages through shared memory
    size_t user_memory;        // the cluster's user memory: no buffer can be larger
    uint32_t spare_ops;        // released operations a rank keeps (config::spare_objects)
    size_t cell_bytes;         // heap held by local cells now (atomic; config::kLocalCellBytes)
    unsigned node_count;
    // Statistics (first contact through the Name Server).
    uint64_t first_contacts;
    uint64_t first_contact_ticks;
};

extern Cluster g_cluster;
RankState* self_state();                  // the calling rank's state (nullptr elsewhere)
inline RankState* state_of(int world)     // a rank of this cluster, or nullptr
{
    int i = g_cluster.local_of[world];
    return i < 0 ? nullptr : &g_cluster.ranks[i];
}

// Set by the build variant (variant_opt.cpp / variant_unopt.cpp).
bool variant_local_path();
const char* variant_name();

// transport.cpp
// Sets the result, marks done, rings the owner. The op carries the completer's virtual time,
// at least `stamp` (the envelope's): the owner takes it when it sees the op done.
void complete(Op* op, const Completion& c, uint64_t stamp = 0);
void deliver_bytes(Op* recv, const Envelope& e, const void* data, size_t bytes);
void drop_spare_ops(RankState* me);           // frees the operations kept for reuse
void* xmalloc(size_t bytes);                  // never nullptr: ends the run when out of memory
[[noreturn]] void transport_failure(const char* what, long err);

// leader_sync.cpp: whether the wait a LeaderSync started has ended (no hand-off of time).
bool leader_sync_is_fired(const LeaderSync* s);

// progress.cpp: the rank's own progress (its mailbox, its portal input, its writes).
// Everything that completed, and what can start now. Every wait runs it, so what has
// nothing to do costs a few loads, inline (a rank talking only to ranks of its own
// cluster has no writes, no rendezvous and an empty ring).
void progress_work(RankState* me);
inline bool has_progress_work(const RankState* me)
{
    return nvx_mailbox_ring_peek(me->inbox) != nullptr || me->writes != 0 || me->rdv_active != nullptr ||
           !me->ready.empty() || !me->outbox.empty() || !me->cleared.empty() ||
           __atomic_load_n(&me->credits_due, __ATOMIC_ACQUIRE) != 0;
}
inline void progress(RankState* me)
{
    if (has_progress_work(me)) progress_work(me);
}
void queue_wire(RankState* me, Op* op, WireKind kind);  // a mailbox message of op (outbox order)
void queue_rendezvous(RankState* me, Op* recv);         // a receive matched with an RTS
bool try_wire(RankState* me, const void* msg, uint32_t node);  // a message to h.dest at node now, or false
void flush_writes(RankState* me);             // sleeps (making progress) until no write is queued or under way
// A thread that may end: nothing of its own left under way (the rank's own thread never
// ends before the rank: nothing to do, tested inline).
extern thread_local bool t_rank_main;
void settle_other_thread(RankState* me);
inline void settle_thread(RankState* me)
{
    if (!t_rank_main) settle_other_thread(me);
}

// outputs.cpp: where ranks are.
uint32_t node_of_rank(int world);             // first contact: Name Server lookup, cached
// The output of `table` towards rank `world` (at `node`), opened on first use and kept
// from being closed while this object lives: hold it around the write that uses it.
class Output {
public:
    Output(OutputTable& table, int world, uint32_t node);
    ~Output();
    Output(const Output&) = delete;
    Output& operator=(const Output&) = delete;
    long id() const { return id_; }

private:
    uint64_t* entry_;
    long id_;
};

// world.cpp
void world_barrier();                         // every rank of every cluster (blocking)
uint64_t now_ticks();
// The calling rank's virtual time (nvx/clock.h): what envelopes and ops carry.
uint64_t now_stamp();

}  // namespace mputil
