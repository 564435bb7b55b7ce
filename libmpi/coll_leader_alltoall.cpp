// Alltoall of equal blocks through one leader per cluster, as a schedule (MPI_Ialltoall, and
// the blocking call where the shared-memory phase does not take it): the blocking call's
// exchange (coll_shm_alltoall.cpp) with its rounds kept in order by small messages instead
// of shared counters. The leader allocates two staging buffers in the cluster's memory and
// sends their address to its members; every rank packs its own blocks into the outgoing
// staging, grouped by destination cluster, and says so; the leaders swap one message per
// pair of clusters (instead of one per pair of ranks over the NoC); the leader says the
// incoming staging is ready and every rank unpacks its own blocks from it; the leader frees
// the staging once every member said it is done. Packing and unpacking run on every rank
// at once, as in the blocking call; the leader's own work is its messages.
//
// Staging of a cluster with m ranks, for slot s of the layout (start[s], n_s ranks), each
// group behind a status word (the one message of a pair of leaders carries it):
//   out: at (s + 1) words + m * start[s] * b, [sender i here][receiver j of s]
//   in:  at (s + 1) words + m * start[s] * b, [sender j of s][receiver i here]
// The own slot's out group is already laid out as its in group: it is read in place.
//
// Out of memory: a leader that cannot allocate its staging tells its members, sends the
// other leaders its status word alone and takes only theirs of their messages; every rank
// of the communicator then returns MPI_ERR_NO_MEM, and nothing waits for ever.
#include <stdint.h>
#include <stdlib.h>

#include "coll.hpp"
#include "coll_shm.hpp"
#include "datatype.hpp"

namespace lwmpi {

namespace {

// What the leader sends its members: first where the staging is (nullptr: no memory),
// then the verdict of the exchange.
struct StagingNote {
    char* out;
    int error;
};

// A group's status word: MPI_SUCCESS, or MPI_ERR_NO_MEM from a leader without staging.
using Status = int64_t;

struct LeaderPlan {
    PerRank from, recv;          // from: the outgoing blocks (the receive side when in place)
    const ClusterLayout* layout;
    size_t bytes;                // one block, packed
    int size, slot, index, members;
    StagingNote note;            // the leader's (sent), or the one received from it
    Status own;                  // leader without staging: what it sends,
    Status dropped;              // and where the others' status words land
    char token;                  // the body of the members' empty messages
};

size_t half_bytes(const LeaderPlan& p)
{
    return sizeof(Status) * p.layout->slots + static_cast<size_t>(p.members) * p.size * p.bytes;
}
char* out_of(const LeaderPlan& p) { return p.note.out; }
char* in_of(const LeaderPlan& p) { return p.note.out + half_bytes(p); }
// Where slot s's blocks start in either staging (its status word just before).
size_t group_at(const LeaderPlan& p, int slot)
{
    return sizeof(Status) * (slot + 1) + static_cast<size_t>(p.members) * static_cast<size_t>(p.layout->start[slot]) * p.bytes;
}
Status* status_of(char* staging, const LeaderPlan& p, int slot)
{
    return reinterpret_cast<Status*>(staging + group_at(p, slot) - sizeof(Status));
}

// The bytes of slot s's message: its status word and its group.
int message_bytes(const LeaderPlan& p, int slot)
{
    return static_cast<int>(sizeof(Status) + static_cast<size_t>(p.members) * layout_slot_ranks(*p.layout, slot) * p.bytes);
}

// This rank's blocks into the outgoing staging.
int pack_blocks(Schedule&, const void* v, int, int)
{
    const LeaderPlan& p = *static_cast<const LeaderPlan*>(v);
    if (!p.note.out)
        return MPI_SUCCESS;
    const ClusterLayout& l = *p.layout;
    for (int d = 0; d < p.size; d++) {
        int s = l.slot_of[d];
        size_t at = group_at(p, s) + (static_cast<size_t>(p.index) * layout_slot_ranks(l, s) + l.index_in_slot[d]) * p.bytes;
        pack_bytes(p.from.type, p.from.block(d), p.from.count, out_of(p) + at);
    }
    return MPI_SUCCESS;
}

// This rank's blocks out of the incoming staging (the own slot's from the outgoing one).
int unpack_blocks(Schedule&, const void* v, int, int)
{
    const LeaderPlan& p = *static_cast<const LeaderPlan*>(v);
    if (p.note.error != MPI_SUCCESS)
        return MPI_SUCCESS;
    const ClusterLayout& l = *p.layout;
    for (int src = 0; src < p.size; src++) {
        int s = l.slot_of[src];
        const char* group = (s == p.slot ? out_of(p) : in_of(p)) + group_at(p, s);
        size_t at = (static_cast<size_t>(l.index_in_slot[src]) * p.members + p.index) * p.bytes;
        unpack_bytes(p.recv.type, group + at, p.bytes, p.recv.block(src), p.recv.count);
    }
    return MPI_SUCCESS;
}

// The leaders' exchange: one message each way with every other leader.
int exchange_groups(Schedule& s, const void* v, int, int)
{
    // The plan is the schedule's scratch: a leader without staging uses its status words.
    LeaderPlan& p = *static_cast<LeaderPlan*>(const_cast<void*>(v));
    const ClusterLayout& l = *p.layout;
    // Step k: to slot + k, from slot - k, so that no leader has every other one sending to it at once.
    for (int k = 1; k < l.slots; k++) {
        int to = (p.slot + k) % l.slots, from = (p.slot - k + l.slots) % l.slots;
        int from_leader = l.members[l.start[from]], to_leader = l.members[l.start[to]];
        if (!p.note.out) {
            s.recv_prefix_now(from_leader, &p.dropped, sizeof(Status), MPI_BYTE);
            s.send_now(to_leader, &p.own, sizeof(Status), MPI_BYTE);
            continue;
        }
        *status_of(out_of(p), p, to) = MPI_SUCCESS;
        s.recv_now(from_leader, status_of(in_of(p), p, from), message_bytes(p, from), MPI_BYTE);
        s.send_now(to_leader, status_of(out_of(p), p, to), message_bytes(p, to), MPI_BYTE);
    }
    return MPI_SUCCESS;
}

// After the exchange: the verdict, MPI_ERR_NO_MEM if any leader had no staging.
int read_statuses(Schedule&, const void* v, int, int)
{
    LeaderPlan& p = *static_cast<LeaderPlan*>(const_cast<void*>(v));
    for (int t = 0; p.note.out && t < p.layout->slots; t++)
        if (t != p.slot && *status_of(in_of(p), p, t) != MPI_SUCCESS)
            p.note.error = static_cast<int>(*status_of(in_of(p), p, t));
    return MPI_SUCCESS;
}

int verdict(Schedule&, const void* v, int, int) { return static_cast<const LeaderPlan*>(v)->note.error; }

void free_staging(void* v) { free(static_cast<LeaderPlan*>(v)->note.out); }

void build_leader(Schedule& s, LeaderPlan* p)
{
    const ClusterLayout& l = *p->layout;
    int first = l.start[p->slot];
    p->note.out = static_cast<char*>(malloc(2 * half_bytes(*p)));
    p->note.error = p->note.out ? MPI_SUCCESS : MPI_ERR_NO_MEM;
    p->own = p->note.error;
    s.at_destroy(free_staging, p);
    for (int k = 1; k < p->members; k++) {
        s.send_bytes(l.members[first + k], &p->note, sizeof p->note);
        s.recv_bytes(l.members[first + k], &p->token, 0);  // packed
    }
    s.expand(pack_blocks, p, 0, 0, 0);
    s.fence();
    s.expand(exchange_groups, p, 0, 0, 2 * (l.slots - 1));
    s.fence();
    s.expand(read_statuses, p, 0, 0, 0);
    for (int k = 1; k < p->members; k++) {
        s.send_bytes(l.members[first + k], &p->note, sizeof p->note);  // the verdict
        s.recv_bytes(l.members[first + k], &p->token, 0);                // done
    }
    s.expand(unpack_blocks, p, 0, 0, 0);
    s.fence();
    s.expand(verdict, p, 0, 0, 0);
}

void build_member(Schedule& s, LeaderPlan* p)
{
    int leader = p->layout->members[p->layout->start[p->slot]];
    s.recv_bytes(leader, &p->note, sizeof p->note);
    s.fence();
    s.expand(pack_blocks, p, 0, 0, 0);
    s.send_bytes(leader, &p->token, 0);  // packed
    s.recv_bytes(leader, &p->note, sizeof p->note);
    s.fence();
    s.expand(unpack_blocks, p, 0, 0, 0);
    s.send_bytes(leader, &p->token, 0);  // done: the leader may free the staging
    s.fence();
    s.expand(verdict, p, 0, 0, 0);
}

}  // namespace

bool leader_alltoall_fits(const Comm& c, const PerRank& send, const PerRank& recv, size_t* bytes)
{
    const ClusterLayout& l = c.layout;
    return shm_variant() && !is_inter(c) && l.slots >= 2 && l.slots < c.size && equal_packed_blocks(send, recv, bytes) &&
           alltoall_staging_fits(c, *bytes);
}

void build_leader_alltoall(Schedule& s, const PerRank& send, const PerRank& recv, size_t bytes)
{
    Comm& c = s.comm();
    const ClusterLayout& l = c.layout;
    int slot = l.slot_of[c.rank];
    LeaderPlan* p = static_cast<LeaderPlan*>(s.scratch(sizeof(LeaderPlan)));
    if (!p)
        return;
    *p = LeaderPlan{send.buf == MPI_IN_PLACE ? recv : send, recv, &l, bytes, c.size, slot, l.index_in_slot[c.rank],
                    layout_slot_ranks(l, slot), {nullptr, MPI_SUCCESS}, MPI_SUCCESS, MPI_SUCCESS, 0};
    if (p->index != 0)
        build_member(s, p);
    else
        build_leader(s, p);
}

}  // namespace lwmpi
