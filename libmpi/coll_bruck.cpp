// Bruck's all-to-all of small equal blocks: ceil(log2 P) rounds per rank instead of P - 1
// messages. Block i of `blocks` is first the one for rank + i; in round k the blocks whose
// index has bit k set go to rank + 2^k and the same positions are refilled from rank - 2^k;
// at the end block i came from rank - i. `blocks` is the receive buffer itself when its
// blocks lie packed one after the other (a contiguous type), else scratch of its own.
//
// A round's blocks travel packed. All ranks of a cluster run their rounds at once, so a
// round whose packed buffers, times the cluster's ranks, would pass
// kAlltoallBruckClusterScratch goes as a few messages of equal size, one after the other:
// the schedule loops over (round, piece) with the buffers of one piece.
#include <string.h>

#include "coll.hpp"
#include "coll_schedule.hpp"
#include "config.hpp"
#include "datatype.hpp"

namespace lwmpi {

namespace {

struct BruckPlan {
    PerRank from, recv;  // from: the outgoing blocks (the receive side when in place)
    char* blocks;        // [size * bytes]
    char* out;           // a piece's outgoing blocks, packed
    char* in;            // its incoming blocks
    size_t bytes;        // one block, packed
    int rank, size;
    int piece_limit;     // most blocks one message carries
    bool blocks_are_recv;
    int loop_step;       // the schedule step every piece starts at
    int bit, piece;      // the piece under way: the piece-th message of round `bit`
};

// Blocks of a round: indexes 1..size-1 with bit `bit` set (runs of 2^bit every 2^(bit+1)).
int round_blocks(int size, int bit)
{
    int period = 2 << bit, run = 1 << bit;
    int rest = size % period - run;
    return size / period * run + (rest > 0 ? rest : 0);
}

// The k-th of those indexes, counting from 0.
int round_index(int bit, int k) { return ((k >> bit) << (bit + 1)) | (1 << bit) | (k & ((1 << bit) - 1)); }

// A round of `blocks` goes in as few messages of at most `limit` blocks as can be, of equal
// size but the last.
int round_pieces(int blocks, int limit) { return (blocks + limit - 1) / limit; }
int piece_blocks(int blocks, int limit)
{
    int pieces = round_pieces(blocks, limit);
    return (blocks + pieces - 1) / pieces;
}

// The most blocks one message may carry on this communicator: every rank computes the same
// from the communicator's placement, so sender and receiver cut a round alike.
int piece_limit(const Comm& c, size_t bytes)
{
    size_t per_rank = kAlltoallBruckClusterScratch / (2 * static_cast<size_t>(layout_most_members(c.layout)));
    size_t limit = bytes > 0 ? per_rank / bytes : static_cast<size_t>(c.size);
    return limit < 1 ? 1 : limit > static_cast<size_t>(c.size) ? c.size : static_cast<int>(limit);
}

// The most blocks one message of this communicator's rounds carries.
int most_piece_blocks(int size, int limit)
{
    int most = 0;
    for (int bit = 0; (1 << bit) < size; bit++) {
        int n = piece_blocks(round_blocks(size, bit), limit);
        most = n > most ? n : most;
    }
    return most;
}

// The scratch with blocks of its own: every rank decides by it, whatever its own receive
// layout, so that all take the same algorithm.
size_t bruck_scratch(const Comm& c, size_t bytes)
{
    return bytes * (static_cast<size_t>(c.size) + 2 * most_piece_blocks(c.size, piece_limit(c, bytes)));
}

// The receive buffer's data when its blocks lie packed one after the other, else null.
char* packed_recv_blocks(const PerRank& recv)
{
    if (recv.varying || recv.w_form || !type_is_contiguous(recv.type))
        return nullptr;
    return static_cast<char*>(recv.block(0)) + type_lb(recv.type);
}

void swap_blocks(char* a, char* b, size_t bytes)
{
    char held[kAlltoallBruckMax];
    memcpy(held, a, bytes);
    memcpy(a, b, bytes);
    memcpy(b, held, bytes);
}

// Blocks [first, last) of `blocks` in reverse order.
void reverse_blocks(char* blocks, int first, int last, size_t bytes)
{
    for (--last; first < last; first++, last--)
        swap_blocks(blocks + first * bytes, blocks + last * bytes, bytes);
}

BruckPlan& plan_of(const void* p) { return *static_cast<BruckPlan*>(const_cast<void*>(p)); }

int bruck_rotate(Schedule&, const void* p, int, int)
{
    BruckPlan& plan = plan_of(p);
    plan.bit = plan.piece = 0;
    if (plan.blocks_are_recv && plan.from.buf == plan.recv.buf) {  // in place: rotate left by rank
        reverse_blocks(plan.blocks, 0, plan.rank, plan.bytes);
        reverse_blocks(plan.blocks, plan.rank, plan.size, plan.bytes);
        reverse_blocks(plan.blocks, 0, plan.size, plan.bytes);
        return MPI_SUCCESS;
    }
    for (int i = 0; i < plan.size; i++) {
        int r = (plan.rank + i) % plan.size;
        pack_bytes(plan.from.type_of(r), plan.from.block(r), plan.from.count_of(r), plan.blocks + i * plan.bytes);
    }
    return MPI_SUCCESS;
}

// The piece under way: blocks [*first, *last) of its round, counted as round_index does.
void piece_range(const BruckPlan& plan, int* first, int* last)
{
    int blocks = round_blocks(plan.size, plan.bit), n = piece_blocks(blocks, plan.piece_limit);
    *first = plan.piece * n;
    *last = *first + n < blocks ? *first + n : blocks;
}

// Packs the piece's outgoing blocks and starts its two messages.
int bruck_piece_start(Schedule& s, const void* p, int, int)
{
    const BruckPlan& plan = plan_of(p);
    int first, last;
    piece_range(plan, &first, &last);
    char* packed = plan.out;
    for (int k = first; k < last; k++, packed += plan.bytes)
        memcpy(packed, plan.blocks + round_index(plan.bit, k) * plan.bytes, plan.bytes);
    int bytes = static_cast<int>(packed - plan.out), distance = 1 << plan.bit;
    s.recv_now((plan.rank - distance + plan.size) % plan.size, plan.in, bytes, MPI_BYTE);
    s.send_now((plan.rank + distance) % plan.size, plan.out, bytes, MPI_BYTE);
    return MPI_SUCCESS;
}

// Puts the piece's incoming blocks where its outgoing ones were, then goes on to the next
// piece (the schedule's steps from loop_step again) until the last round is done.
int bruck_piece_end(Schedule& s, const void* p, int, int)
{
    BruckPlan& plan = plan_of(p);
    int first, last;
    piece_range(plan, &first, &last);
    const char* packed = plan.in;
    for (int k = first; k < last; k++, packed += plan.bytes)
        memcpy(plan.blocks + round_index(plan.bit, k) * plan.bytes, packed, plan.bytes);
    if (++plan.piece == round_pieces(round_blocks(plan.size, plan.bit), plan.piece_limit)) {
        plan.piece = 0;
        plan.bit++;
    }
    if ((1 << plan.bit) < plan.size)
        s.repeat_from(plan.loop_step);
    return MPI_SUCCESS;
}

// Block i goes to the receive block of rank - i: in the receive buffer itself, pairs swap
// places (i and rank - i name each other).
int bruck_deliver(Schedule&, const void* p, int, int)
{
    const BruckPlan& plan = plan_of(p);
    for (int i = 0; i < plan.size; i++) {
        int r = (plan.rank - i + plan.size) % plan.size;
        if (plan.blocks_are_recv) {
            if (i < r)
                swap_blocks(plan.blocks + i * plan.bytes, plan.blocks + r * plan.bytes, plan.bytes);
            continue;
        }
        unpack_bytes(plan.recv.type_of(r), plan.blocks + i * plan.bytes, plan.bytes, plan.recv.block(r),
                     plan.recv.count_of(r));
    }
    return MPI_SUCCESS;
}

}  // namespace

bool bruck_fits(const Comm& c, const PerRank& send, const PerRank& recv, size_t* bytes)
{
    return c.size >= kAlltoallBruckRanks && equal_packed_blocks(send, recv, bytes) && *bytes <= kAlltoallBruckMax &&
           bruck_scratch(c, *bytes) <= kAlltoallBruckScratch;
}

void build_bruck(Schedule& s, const PerRank& send, const PerRank& recv, size_t bytes)
{
    Comm& c = s.comm();
    int limit = piece_limit(c, bytes);
    size_t piece_bytes = bytes * static_cast<size_t>(most_piece_blocks(c.size, limit));
    BruckPlan* plan = static_cast<BruckPlan*>(s.scratch(sizeof(BruckPlan)));
    char* in_recv = packed_recv_blocks(recv);
    char* scratch = static_cast<char*>(s.scratch(in_recv ? 2 * piece_bytes : bruck_scratch(c, bytes)));
    if (!plan || !scratch)
        return;
    char* blocks = in_recv ? in_recv : scratch + 2 * piece_bytes;
    *plan = BruckPlan{send.buf == MPI_IN_PLACE ? recv : send,
                      recv,
                      blocks,
                      scratch,
                      scratch + piece_bytes,
                      bytes,
                      c.rank,
                      c.size,
                      limit,
                      in_recv != nullptr,
                      0,
                      0,
                      0};
    s.expand(bruck_rotate, plan, 0, 0, 0);
    plan->loop_step = s.position();
    s.expand(bruck_piece_start, plan, 0, 0, 2);
    s.fence();
    s.expand(bruck_piece_end, plan, 0, 0, 0);
    s.expand(bruck_deliver, plan, 0, 0, 0);
}

}  // namespace lwmpi
