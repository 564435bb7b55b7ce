// MPI calls of the data-movement collectives: Gather(v), Scatter(v), Allgather(v),
// Alltoall(v). The fixed-count forms build count and displacement arrays and share the
// v-forms' code. Gathers and scatters are linear at the root (all transfers in flight at
// once); Allgather(v) gathers to rank 0 and broadcasts the packed concatenation; Alltoall(v)
// is a pairwise exchange (step s: send to rank + s, receive from rank - s).
#include <stdlib.h>
#include <string.h>

#include "api.hpp"
#include "coll.hpp"
#include "coll_check.hpp"
#include "config.hpp"
#include "datatype.hpp"
#include "env.hpp"
#include "errhandler.hpp"
#include "intercomm.hpp"
#include "p2p_check.hpp"

namespace lwmpi {

namespace {

// The counts and type of a side with a block per rank (MPI_ERR_ARG, _COUNT, _TYPE).
int check_blocks(const Comm& c, const PerRank& s)
{
    int err = s.varying ? check_counts(c, s.counts, s.displs) : check_count(s.count);
    return err == MPI_SUCCESS ? check_type(s.type) : err;
}

// The count and type of a single block; nothing to check when it is in place.
int check_one(const void* buf, int count, MPI_Datatype type)
{
    int err = buf == MPI_IN_PLACE ? MPI_SUCCESS : check_count(count);
    return err == MPI_SUCCESS && buf != MPI_IN_PLACE ? check_type(type) : err;
}

// This rank's single block as a buffer, MPI_IN_PLACE only where `in_place_ok`.
int check_one_buffer(const void* buf, int count, MPI_Datatype type, bool in_place_ok)
{
    if (buf == MPI_IN_PLACE)
        return in_place_ok ? MPI_SUCCESS : MPI_ERR_BUFFER;
    return check_buffer(buf, count, type);
}

// This rank's buffers where it has a block per rank and a single block (which may be in
// place): both usable and sharing no bytes.
int check_buffers(const Comm& c, const PerRank& many, const void* one, int count,
                  MPI_Datatype type)
{
    int err = check_blocks_buffer(c, many);
    if (err == MPI_SUCCESS)
        err = check_one_buffer(one, count, type, true);
    if (err == MPI_SUCCESS && aliased(c, many, one, count, type))
        err = MPI_ERR_BUFFER;
    return err;
}

// The counts and displacements of a side: the program's arrays, or built for equal blocks.
struct Blocks {
    const int* counts = nullptr;
    const int* displs = nullptr;
    int* built = nullptr;
    int of(const Comm& c, const PerRank& s)
    {
        if (s.varying) {
            counts = s.counts;
            displs = s.displs;
            return MPI_SUCCESS;
        }
        built = static_cast<int*>(malloc(sizeof(int) * 2 * (c.size + 1)));
        if (!built)
            return MPI_ERR_NO_MEM;
        for (int i = 0; i < c.size; i++) {
            built[i] = s.count;
            built[c.size + 1 + i] = i * s.count;
        }
        counts = built;
        displs = built + c.size + 1;
        return MPI_SUCCESS;
    }
    ~Blocks() { free(built); }
};

int gatherv(Comm& c, const void* send, int scount, MPI_Datatype stype, void* recv,
            const int* rcounts, const int* displs, MPI_Datatype rtype, int root)
{
    if (c.rank != root) {
        Exchange ex(c, 1);
        ex.send(root, send, scount, stype);
        return ex.wait();
    }
    MPI_Aint extent = type_extent(rtype);
    Exchange ex(c, c.size);
    int err = MPI_SUCCESS;
    for (int r = 0; r < c.size; r++) {
        void* block = block_at(recv, displs[r], extent);
        if (r != root)
            ex.recv(r, block, rcounts[r], rtype);
        else if (send != MPI_IN_PLACE)
            err = local_copy(send, scount, stype, block, rcounts[r], rtype);
    }
    int werr = ex.wait();
    return err != MPI_SUCCESS ? err : werr;
}

int scatterv(Comm& c, const void* send, const int* scounts, const int* displs,
             MPI_Datatype stype, void* recv, int rcount, MPI_Datatype rtype, int root)
{
    if (c.rank != root) {
        Exchange ex(c, 1);
        ex.recv(root, recv, rcount, rtype);
        return ex.wait();
    }
    MPI_Aint extent = type_extent(stype);
    Exchange ex(c, c.size);
    int err = MPI_SUCCESS;
    for (int r = 0; r < c.size; r++) {
        const void* block = block_at(send, displs[r], extent);
        if (r != root)
            ex.send(r, block, scounts[r], stype);
        else if (recv != MPI_IN_PLACE)
            err = local_copy(block, scounts[r], stype, recv, rcount, rtype);
    }
    int werr = ex.wait();
    return err != MPI_SUCCESS ? err : werr;
}

int allgatherv(Comm& c, const void* send, int scount, MPI_Datatype stype, void* recv,
               const int* rcounts, const int* displs, MPI_Datatype rtype)
{
    MPI_Aint extent = type_extent(rtype);
    if (send == MPI_IN_PLACE && c.rank != 0) {
        // My block is already in place: send it from there.
        send = block_at(recv, displs[c.rank], extent);
        scount = rcounts[c.rank];
        stype = rtype;
    }
    int err = gatherv(c, send, scount, stype, recv, rcounts, displs, rtype, 0);
    if (err != MPI_SUCCESS)
        return err;
    // Rank 0 broadcasts every block packed back to back.
    size_t size = static_cast<size_t>(type_size(rtype)), total = 0;
    for (int r = 0; r < c.size; r++)
        total += size * static_cast<size_t>(rcounts[r]);
    char* all = static_cast<char*>(malloc(total > 0 ? total : 1));
    if (!all)
        return MPI_ERR_NO_MEM;
    size_t offset = 0;
    if (c.rank == 0)
        for (int r = 0; r < c.size; r++)
            offset += pack_bytes(rtype, block_at(recv, displs[r], extent), rcounts[r], all + offset);
    err = coll_bcast_bytes(c, all, total, 0);
    if (err == MPI_SUCCESS && c.rank != 0) {
        offset = 0;
        for (int r = 0; r < c.size; r++)
            offset += unpack_bytes(rtype, all + offset, size * static_cast<size_t>(rcounts[r]),
                                   block_at(recv, displs[r], extent), rcounts[r]);
    }
    free(all);
    return err;
}

int alltoallv(Comm& c, const void* send, const int* scounts, const int* sdispls, MPI_Datatype stype,
              void* recv, const int* rcounts, const int* rdispls, MPI_Datatype rtype)
{
    MPI_Aint rext = type_extent(rtype);
    // In place: the outgoing blocks are packed aside first, then sent as bytes.
    char* aside = nullptr;
    size_t* aside_at = nullptr;
    size_t rsize = static_cast<size_t>(type_size(rtype));
    if (send == MPI_IN_PLACE) {
        size_t total = 0;
        for (int r = 0; r < c.size; r++)
            total += rsize * static_cast<size_t>(rcounts[r]);
        aside = static_cast<char*>(malloc(total > 0 ? total : 1));
        aside_at = static_cast<size_t*>(malloc(sizeof(size_t) * (c.size + 1)));
        if (!aside || !aside_at) {
            free(aside);
            free(aside_at);
            return MPI_ERR_NO_MEM;
        }
        size_t offset = 0;
        for (int r = 0; r < c.size; r++) {
            aside_at[r] = offset;
            offset += pack_bytes(rtype, block_at(recv, rdispls[r], rext), rcounts[r], aside + offset);
        }
    }
    MPI_Aint sext = send == MPI_IN_PLACE ? 0 : type_extent(stype);
    int err = MPI_SUCCESS;
    if (send != MPI_IN_PLACE)
        err = local_copy(block_at(send, sdispls[c.rank], sext), scounts[c.rank], stype,
                         block_at(recv, rdispls[c.rank], rext), rcounts[c.rank], rtype);
    // Steps go in windows of kAlltoallWindow, all of a window's transfers in flight at once.
    Exchange ex(c, 2 * kAlltoallWindow);
    for (int first = 1; first < c.size && err == MPI_SUCCESS; first += kAlltoallWindow) {
        for (int step = first; step < c.size && step < first + kAlltoallWindow; step++) {
            int dest = (c.rank + step) % c.size;
            int source = (c.rank - step + c.size) % c.size;
            ex.recv(source, block_at(recv, rdispls[source], rext), rcounts[source], rtype);
            if (aside)
                ex.send_bytes(dest, aside + aside_at[dest], rsize * static_cast<size_t>(rcounts[dest]));
            else
                ex.send(dest, block_at(send, sdispls[dest], sext), scounts[dest], stype);
        }
        err = ex.wait();
    }
    free(aside);
    free(aside_at);
    return err;
}

// Gather(v) and Scatter(v): the root has a block per rank (`many`), every rank has one block
// (`one`, which only the root may give in place). `gather` says which way the data goes.
int rooted(const char* call, MPI_Comm comm, int root, const PerRank& many, const void* one,
           int count, MPI_Datatype type, bool gather)
{
    return collective(call, comm, [&](Comm& c) {
        int err = check_root(c, root);
        if (err != MPI_SUCCESS)
            return err;
        Blocks b;
        if (c.rank == root) {
            err = check_blocks(c, many);
            if (err == MPI_SUCCESS)
                err = check_one(one, count, type);
            if (err == MPI_SUCCESS)
                err = check_buffers(c, many, one, count, type);
            if (err == MPI_SUCCESS)
                err = b.of(c, many);
        } else {
            err = check_one(one, count, type);
            if (err == MPI_SUCCESS)
                err = check_one_buffer(one, count, type, false);
        }
        err = agree_with_root(c, root, err);
        if (err != MPI_SUCCESS)
            return err;
        // The side that receives was the program's non-const buffer.
        if (gather)
            return gatherv(c, one, count, type, const_cast<void*>(many.buf), b.counts, b.displs,
                           many.type, root);
        return scatterv(c, many.buf, b.counts, b.displs, many.type, const_cast<void*>(one), count,
                        type, root);
    });
}

int allgather_call(const char* call, MPI_Comm comm, const void* send, int scount,
                   MPI_Datatype stype, const PerRank& recv)
{
    return collective(call, comm, [&](Comm& c) {
        int err = check_blocks(c, recv);
        if (err == MPI_SUCCESS)
            err = check_one(send, scount, stype);
        if (err == MPI_SUCCESS)
            err = check_buffers(c, recv, send, scount, stype);
        Blocks b;
        if (err == MPI_SUCCESS)
            err = b.of(c, recv);
        if (err == MPI_SUCCESS)
            err = allgatherv(c, send, scount, stype, const_cast<void*>(recv.buf), b.counts,
                             b.displs, recv.type);
        return err;
    });
}

int alltoall_call(const char* call, MPI_Comm comm, const PerRank& send, const PerRank& recv)
{
    return collective(call, comm, [&](Comm& c) {
        int err = check_blocks(c, recv);
        if (err == MPI_SUCCESS && send.buf != MPI_IN_PLACE)
            err = check_blocks(c, send);
        if (err == MPI_SUCCESS)
            err = check_blocks_buffer(c, recv);
        if (err == MPI_SUCCESS && send.buf != MPI_IN_PLACE)
            err = check_blocks_buffer(c, send);
        if (err == MPI_SUCCESS && aliased(c, send, recv))
            err = MPI_ERR_BUFFER;
        Blocks sb, rb;
        if (err == MPI_SUCCESS)
            err = sb.of(c, send);
        if (err == MPI_SUCCESS)
            err = rb.of(c, recv);
        if (err == MPI_SUCCESS)
            err = alltoallv(c, send.buf, sb.counts, sb.displs, send.type, const_cast<void*>(recv.buf),
                            rb.counts, rb.displs, recv.type);
        return err;
    });
}

}  // namespace

}  // namespace lwmpi

using namespace lwmpi;

int api::Gatherv(const void* send, int scount, MPI_Datatype stype, void* recv,
                           const int rcounts[], const int displs[], MPI_Datatype rtype, int root,
                           MPI_Comm comm)
{
    if (is_intercomm(comm))
        return inter_gatherv(send, scount, stype, recv, rcounts, displs, rtype, root, comm);
    return rooted("MPI_Gatherv", comm, root, v_blocks(recv, rcounts, displs, rtype), send, scount,
                  stype, true);
}

int api::Gather(const void* send, int scount, MPI_Datatype stype, void* recv, int rcount,
                          MPI_Datatype rtype, int root, MPI_Comm comm)
{
    if (is_intercomm(comm))
        return inter_gather(send, scount, stype, recv, rcount, rtype, root, comm);
    return rooted("MPI_Gather", comm, root, equal_blocks(recv, rcount, rtype), send, scount, stype,
                  true);
}

int api::Scatterv(const void* send, const int scounts[], const int displs[],
                            MPI_Datatype stype, void* recv, int rcount, MPI_Datatype rtype, int root,
                            MPI_Comm comm)
{
    if (is_intercomm(comm))
        return inter_scatterv(send, scounts, displs, stype, recv, rcount, rtype, root, comm);
    return rooted("MPI_Scatterv", comm, root, v_blocks(send, scounts, displs, stype), recv, rcount,
                  rtype, false);
}

int api::Scatter(const void* send, int scount, MPI_Datatype stype, void* recv, int rcount,
                           MPI_Datatype rtype, int root, MPI_Comm comm)
{
    if (is_intercomm(comm))
        return inter_scatter(send, scount, stype, recv, rcount, rtype, root, comm);
    return rooted("MPI_Scatter", comm, root, equal_blocks(send, scount, stype), recv, rcount, rtype,
                  false);
}

int api::Allgatherv(const void* send, int scount, MPI_Datatype stype, void* recv,
                              const int rcounts[], const int displs[], MPI_Datatype rtype,
                              MPI_Comm comm)
{
    if (is_intercomm(comm))
        return inter_allgatherv(send, scount, stype, recv, rcounts, displs, rtype, comm);
    return allgather_call("MPI_Allgatherv", comm, send, scount, stype,
                          v_blocks(recv, rcounts, displs, rtype));
}

int api::Allgather(const void* send, int scount, MPI_Datatype stype, void* recv, int rcount,
                             MPI_Datatype rtype, MPI_Comm comm)
{
    if (is_intercomm(comm))
        return inter_allgather(send, scount, stype, recv, rcount, rtype, comm);
    return allgather_call("MPI_Allgather", comm, send, scount, stype,
                          equal_blocks(recv, rcount, rtype));
}

int api::Alltoallv(const void* send, const int scounts[], const int sdispls[],
                             MPI_Datatype stype, void* recv, const int rcounts[], const int rdispls[],
                             MPI_Datatype rtype, MPI_Comm comm)
{
    if (is_intercomm(comm))
        return inter_alltoallv(send, scounts, sdispls, stype, recv, rcounts, rdispls, rtype, comm);
    return alltoall_call("MPI_Alltoallv", comm, v_blocks(send, scounts, sdispls, stype),
                         v_blocks(recv, rcounts, rdispls, rtype));
}

int api::Alltoall(const void* send, int scount, MPI_Datatype stype, void* recv, int rcount,
                            MPI_Datatype rtype, MPI_Comm comm)
{
    if (is_intercomm(comm))
        return inter_alltoall(send, scount, stype, recv, rcount, rtype, comm);
    return alltoall_call("MPI_Alltoall", comm, equal_blocks(send, scount, stype),
                         equal_blocks(recv, rcount, rtype));
}
