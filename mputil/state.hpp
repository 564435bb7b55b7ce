// State shared by the threads of one cluster: the world as launched, one RankState per
// rank placed here, output mailboxes, and the operations (Op) and unexpected messages
// that move between them. Private to mputil.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <nvx/thread.h>

#include "config.hpp"
#include "credits.hpp"
#include "doorbell.hpp"
#include "match.hpp"
#include <mputil/mputil.hpp>

namespace mputil {

enum class OpKind : uint8_t { Send, Recv };

// A receive matched with a rendezvous (RTS): its envelope and the sender to clear.
struct RendezvousMatch {
    Envelope matched;
    uint64_t cookie;   // the sender's operation
    uint32_t node;     // the sender's node
    size_t bytes;      // the message's full length
};

// A rendezvous send its receiver cleared: what a portal writer writes, and where.
struct PortalWrite {
    int receiver;      // world rank that cleared the send
    uint32_t node;     // its portal's node and port
    uint32_t port;
    size_t bytes;
    uint64_t stamp;    // when the clear-to-send arrived: the writer serves it from then on
};

struct Op {
    Op* next;            // posted queue or ready list of the owner; a cleared send: the writers' queue
    OpKind kind;
    SendMode mode;
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
        PortalWrite write;    // a send its receiver cleared: the write a writer does for it
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

struct RankState {
    int world_rank;
    int local_index;
    int pe;                    // local hart the rank thread is pinned to
    nvx_mutex_t lock;          // queues, ready list, cell count
    Queue<Op> posted;
    Queue<Unexpected> unexpected;
    Queue<Op> ready;           // receives matched with an RTS, waiting for their CTS
    Op* rdv_active;            // the one receive whose CTS is out (owner thread only)
    uint32_t rdv_writer_ready; // set by the agent: rdv_active's writer is about to write
    uint64_t rdv_ready_stamp;  // when that Ready arrived (virtual clock)
    uint32_t credits_due;      // set when some source's debt reached a batch
    Doorbell bell;
    CreditLedger credits;      // eager credits towards every rank (as a sender)
    CreditDebts debts;         // credits owed to every rank (as a receiver)
    long portal;               // input portal at (node, kPortalBase + local_index)
    MpiPhase phase;            // set by the rank's own threads (init, finalize)
    char wait_note[NVX_WAIT_NOTE_MAX];  // what the rank sleeps for (wait_note.hpp), for a deadlock report
};

struct Cluster {
    int world_size;
    int here;                  // ranks on this cluster
    int clusters_used;
    unsigned* cluster_of;      // world rank -> compute cluster index
    int* local_of;             // world rank -> local index here, or -1
    RankState* ranks;          // [here]
    unsigned my_cluster;       // compute cluster index of this cluster
    uint32_t node;             // this cluster's NoC node
    unsigned first_compute;    // board index of compute cluster 0
    long mailbox;              // the MPI mailbox (input)
    int* node_of_rank;         // name lookups, cached: -1 = not looked up yet
    long* out_mailbox;         // per node: opened output mailbox + 1 (0 = none)
    nvx_mutex_t table_lock;    // opening out_mailbox entries, first-contact statistics
    nvx_mutex_t shared_lock;   // cluster_lock(): libmpi's data the cluster's ranks share
    nvx_barrier_t local_barrier;
    uint32_t barrier_messages; // futex word: Barrier messages the agent received so far
    int spare_first;           // local harts no rank is pinned to: spare_first ..
    int spare_count;           //   + spare_count - 1 (0: the ranks use every user hart)
    bool local_path;           // the variant: local messages through shared memory
    size_t user_memory;        // the cluster's user memory: no buffer can be larger
    size_t cell_bytes;         // heap held by local cells now (atomic; config::kLocalCellBytes)
    unsigned node_count;
    // Statistics (first contact through the Name Server; portal writers started).
    uint64_t first_contacts;
    uint64_t first_contact_ticks;
    uint32_t writers;
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
void* xmalloc(size_t bytes);                  // never nullptr: ends the run when out of memory

// agent.cpp: the receiver agent and the portal writers.
void agent_start();                           // the agent and the reserved writers: before any rank runs
long mailbox_to_node(uint32_t node);          // output mailbox towards node (opened once)
void wire_send(uint32_t node, const void* msg);  // one mailbox message, blocking until accepted
uint32_t node_of_rank(int world);             // first contact: Name Server lookup, cached

// world.cpp
void world_barrier();                         // every rank of every cluster (blocking)
// The hart for the cluster's k-th helper thread (the receiver agent): one of
// the harts no rank is pinned to, in turn, or any hart when the ranks use them all.
int helper_hart(unsigned k);
uint64_t now_ticks();
// The calling rank's virtual time (nvx/clock.h): what envelopes and ops carry (issue 9).
uint64_t now_stamp();

}  // namespace mputil
