// Buffered sends in the attached buffer (see bsend.hpp), MPI_Buffer_attach and
// MPI_Buffer_detach.
#include "bsend.hpp"

#include <stdint.h>
#include <string.h>

#include <mputil/mputil.hpp>

#include "api.hpp"
#include "call.hpp"
#include "comm.hpp"
#include "datatype.hpp"
#include "errhandler.hpp"
#include "rank_context.hpp"
#include "request.hpp"

namespace lwmpi {

// Kept in the attached buffer in front of the packed data of one message.
struct BsendBlock {
    BsendBlock* next;
    size_t span;       // header + data, rounded to the alignment
    mputil::Op* op;    // the standard-mode send of the copy
    Comm* comm;        // retained until delivered: its context id stays taken
};

namespace {

constexpr uintptr_t kAlign = alignof(BsendBlock);
constexpr int kWaitBatch = 32;  // a detach sleeps on this many sends at a time

// A block's span, its start's alignment and the buffer base's alignment all fit the overhead.
static_assert(sizeof(BsendBlock) + 2 * (kAlign - 1) <= MPI_BSEND_OVERHEAD);

uintptr_t align_up(uintptr_t x) { return (x + kAlign - 1) & ~(kAlign - 1); }

BsendBuffer& buffer() { return rank_context().bsend; }

void retire(BsendBlock* b)
{
    mputil::release(b->op);
    comm_release(b->comm);
}

// Frees the blocks of delivered messages; never blocks.
void reclaim()
{
    BsendBlock** link = &buffer().live;
    while (BsendBlock* b = *link) {
        if (mputil::test(b->op, nullptr)) {
            *link = b->next;
            retire(b);
        } else {
            link = &b->next;
        }
    }
}

// Blocks (in the kernel) until every buffered message is delivered.
void drain()
{
    for (;;) {
        reclaim();
        mputil::Op* ops[kWaitBatch];
        int index[kWaitBatch];
        int n = 0;
        for (BsendBlock* b = buffer().live; b && n < kWaitBatch; b = b->next)
            ops[n++] = b->op;
        if (n == 0)
            return;
        mputil::wait_some(ops, n, index, n);
    }
}

// First fit over the gaps between live blocks (each a candidate of the standard's circular
// allocation, so this never fails where that would succeed). Returns where the block goes
// and its predecessor in the list, or nullptr when no gap holds `span` bytes.
char* find_room(size_t span, BsendBlock** prev_out)
{
    BsendBuffer& buf = buffer();
    const uintptr_t end = reinterpret_cast<uintptr_t>(buf.base) + static_cast<uintptr_t>(buf.size);
    uintptr_t start = align_up(reinterpret_cast<uintptr_t>(buf.base));
    BsendBlock* prev = nullptr;
    for (BsendBlock* b = buf.live;; prev = b, b = b->next) {
        const uintptr_t gap_end = b ? reinterpret_cast<uintptr_t>(b) : end;
        if (gap_end >= start && gap_end - start >= span) {
            *prev_out = prev;
            return reinterpret_cast<char*>(start);
        }
        if (!b)
            return nullptr;
        start = reinterpret_cast<uintptr_t>(b) + b->span;
    }
}

}  // namespace

int bsend_start(Request* r)
{
    if (!buffer().attached)
        return MPI_ERR_BUFFER;
    reclaim();
    const size_t bytes = static_cast<size_t>(type_size(r->type)) * static_cast<size_t>(r->count);
    const size_t span = align_up(sizeof(BsendBlock) + bytes);
    BsendBlock* prev = nullptr;
    char* where = find_room(span, &prev);
    if (!where)
        return MPI_ERR_BUFFER;
    BsendBlock* b = reinterpret_cast<BsendBlock*>(where);
    char* data = reinterpret_cast<char*>(b + 1);
    pack_bytes(r->type, r->buf, r->count, data);
    const Comm& c = *r->comm;
    b->op = mputil::isend(c.world[r->peer], r->context, r->tag, data, bytes, mputil::SendMode::Standard);
    if (!b->op)
        return MPI_ERR_NO_MEM;
    b->span = span;
    b->comm = r->comm;
    comm_retain(b->comm);
    BsendBlock** link = prev ? &prev->next : &buffer().live;
    b->next = *link;
    *link = b;

    memset(&r->status, 0, sizeof r->status);
    r->status.MPI_SOURCE = c.rank;
    r->status.MPI_TAG = r->tag;
    r->status.lwmpi_count = static_cast<MPI_Count>(bytes);
    r->error = MPI_SUCCESS;
    r->active = r->complete = true;
    return MPI_SUCCESS;
}

void bsend_finalize()
{
    drain();
    buffer() = BsendBuffer{};
}

}  // namespace lwmpi

using namespace lwmpi;

int api::Buffer_attach(void* base, int size)
{
    if (size < 0)
        return fail(MPI_COMM_WORLD, MPI_ERR_ARG);
    if ((!base && size > 0) || buffer().attached)  // one buffer at a time (3.6)
        return fail(MPI_COMM_WORLD, MPI_ERR_BUFFER);
    buffer() = BsendBuffer{true, static_cast<char*>(base), size, nullptr};
    return MPI_SUCCESS;
}

int api::Buffer_detach(void* buffer_addr, int* size)
{
    if (!buffer_addr || !size)
        return fail(MPI_COMM_WORLD, MPI_ERR_ARG);
    drain();
    BsendBuffer& buf = buffer();
    // With no buffer attached, detach reports a null buffer of size zero, so that libraries
    // can save and restore the program's buffer around their own (MPICH and Open MPI agree).
    void* base = buf.base;
    memcpy(buffer_addr, &base, sizeof base);  // buffer_addr is a void** passed as void*
    *size = buf.size;
    buf = BsendBuffer{};
    return MPI_SUCCESS;
}
