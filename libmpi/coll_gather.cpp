// MPI calls of the data-movement collectives: Gather(v), Scatter(v), Allgather(v),
// Alltoall(v). The fixed-count forms build count and displacement arrays and share the
// v-forms' code. Gathers and scatters are linear at the root (all transfers in flight at
// once); Allgather(v) gathers to rank 0 and broadcasts the packed concatenation; Alltoall(v)
// is a pairwise exchange (step s: send to rank + s, receive from rank - s).
#include <stdlib.h>
#include <string.h>

#include "coll.hpp"
#include "coll_check.hpp"
#include "datatype.hpp"
#include "env.hpp"
#include "errhandler.hpp"
#include "p2p_check.hpp"

namespace lwmpi {

namespace {

// Counts and displacements of `n` equal blocks.
struct Blocks {
    int* counts = nullptr;
    int* displs = nullptr;
    int make(int n, int count)
    {
        counts = static_cast<int*>(malloc(sizeof(int) * (n + 1)));
        displs = static_cast<int*>(malloc(sizeof(int) * (n + 1)));
        if (!counts || !displs)
            return MPI_ERR_NO_MEM;
        for (int i = 0; i < n; i++) {
            counts[i] = count;
            displs[i] = i * count;
        }
        return MPI_SUCCESS;
    }
    ~Blocks()
    {
        free(counts);
        free(displs);
    }
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
    Exchange ex(c, 2);
    for (int step = 1; step < c.size && err == MPI_SUCCESS; step++) {
        int dest = (c.rank + step) % c.size;
        int source = (c.rank - step + c.size) % c.size;
        ex.recv(source, block_at(recv, rdispls[source], rext), rcounts[source], rtype);
        if (aside)
            ex.send_bytes(dest, aside + aside_at[dest], rsize * static_cast<size_t>(rcounts[dest]));
        else
            ex.send(dest, block_at(send, sdispls[dest], sext), scounts[dest], stype);
        err = ex.wait();
    }
    free(aside);
    free(aside_at);
    return err;
}

// Common checks: communicator, and typed data of one side when it is used.
int enter(MPI_Comm comm, Comm** c)
{
    *c = comm_get(comm);
    return *c ? MPI_SUCCESS : MPI_ERR_COMM;
}

int check_side(const void* buf, int count, MPI_Datatype type)
{
    return buf == MPI_IN_PLACE ? MPI_SUCCESS : check_data(buf, count, type);
}

}  // namespace

}  // namespace lwmpi

using namespace lwmpi;

extern "C" int MPI_Gatherv(const void* send, int scount, MPI_Datatype stype, void* recv,
                           const int rcounts[], const int displs[], MPI_Datatype rtype, int root,
                           MPI_Comm comm)
{
    const char* call = "MPI_Gatherv";
    if (!mpi_running())
        return not_running(call);
    Comm* c;
    int err = enter(comm, &c);
    if (err == MPI_SUCCESS)
        err = check_root(*c, root);
    if (err == MPI_SUCCESS && c->rank == root) {
        err = check_counts(*c, rcounts, displs);
        if (err == MPI_SUCCESS)
            err = type_check(rtype, true);
        if (err == MPI_SUCCESS)
            err = check_side(send, scount, stype);
    } else if (err == MPI_SUCCESS) {
        err = send == MPI_IN_PLACE ? MPI_ERR_BUFFER : check_data(send, scount, stype);
    }
    if (err == MPI_SUCCESS)
        err = gatherv(*c, send, scount, stype, recv, rcounts, displs, rtype, root);
    return fail(comm, err, call);
}

extern "C" int MPI_Gather(const void* send, int scount, MPI_Datatype stype, void* recv, int rcount,
                          MPI_Datatype rtype, int root, MPI_Comm comm)
{
    const char* call = "MPI_Gather";
    if (!mpi_running())
        return not_running(call);
    Comm* c;
    int err = enter(comm, &c);
    if (err == MPI_SUCCESS)
        err = check_root(*c, root);
    Blocks b;
    if (err == MPI_SUCCESS && c->rank == root) {
        err = check_data(recv, rcount, rtype);
        if (err == MPI_SUCCESS)
            err = check_side(send, scount, stype);
        if (err == MPI_SUCCESS)
            err = b.make(c->size, rcount);
    } else if (err == MPI_SUCCESS) {
        err = send == MPI_IN_PLACE ? MPI_ERR_BUFFER : check_data(send, scount, stype);
    }
    if (err == MPI_SUCCESS)
        err = gatherv(*c, send, scount, stype, recv, b.counts, b.displs, rtype, root);
    return fail(comm, err, call);
}

extern "C" int MPI_Scatterv(const void* send, const int scounts[], const int displs[],
                            MPI_Datatype stype, void* recv, int rcount, MPI_Datatype rtype, int root,
                            MPI_Comm comm)
{
    const char* call = "MPI_Scatterv";
    if (!mpi_running())
        return not_running(call);
    Comm* c;
    int err = enter(comm, &c);
    if (err == MPI_SUCCESS)
        err = check_root(*c, root);
    if (err == MPI_SUCCESS && c->rank == root) {
        err = check_counts(*c, scounts, displs);
        if (err == MPI_SUCCESS)
            err = type_check(stype, true);
        if (err == MPI_SUCCESS)
            err = check_side(recv, rcount, rtype);
    } else if (err == MPI_SUCCESS) {
        err = recv == MPI_IN_PLACE ? MPI_ERR_BUFFER : check_data(recv, rcount, rtype);
    }
    if (err == MPI_SUCCESS)
        err = scatterv(*c, send, scounts, displs, stype, recv, rcount, rtype, root);
    return fail(comm, err, call);
}

extern "C" int MPI_Scatter(const void* send, int scount, MPI_Datatype stype, void* recv, int rcount,
                           MPI_Datatype rtype, int root, MPI_Comm comm)
{
    const char* call = "MPI_Scatter";
    if (!mpi_running())
        return not_running(call);
    Comm* c;
    int err = enter(comm, &c);
    if (err == MPI_SUCCESS)
        err = check_root(*c, root);
    Blocks b;
    if (err == MPI_SUCCESS && c->rank == root) {
        err = check_data(send, scount, stype);
        if (err == MPI_SUCCESS)
            err = check_side(recv, rcount, rtype);
        if (err == MPI_SUCCESS)
            err = b.make(c->size, scount);
    } else if (err == MPI_SUCCESS) {
        err = recv == MPI_IN_PLACE ? MPI_ERR_BUFFER : check_data(recv, rcount, rtype);
    }
    if (err == MPI_SUCCESS)
        err = scatterv(*c, send, b.counts, b.displs, stype, recv, rcount, rtype, root);
    return fail(comm, err, call);
}

extern "C" int MPI_Allgatherv(const void* send, int scount, MPI_Datatype stype, void* recv,
                              const int rcounts[], const int displs[], MPI_Datatype rtype,
                              MPI_Comm comm)
{
    const char* call = "MPI_Allgatherv";
    if (!mpi_running())
        return not_running(call);
    Comm* c;
    int err = enter(comm, &c);
    if (err == MPI_SUCCESS)
        err = check_counts(*c, rcounts, displs);
    if (err == MPI_SUCCESS)
        err = type_check(rtype, true);
    if (err == MPI_SUCCESS)
        err = check_side(send, scount, stype);
    if (err == MPI_SUCCESS)
        err = allgatherv(*c, send, scount, stype, recv, rcounts, displs, rtype);
    return fail(comm, err, call);
}

extern "C" int MPI_Allgather(const void* send, int scount, MPI_Datatype stype, void* recv, int rcount,
                             MPI_Datatype rtype, MPI_Comm comm)
{
    const char* call = "MPI_Allgather";
    if (!mpi_running())
        return not_running(call);
    Comm* c;
    int err = enter(comm, &c);
    if (err == MPI_SUCCESS)
        err = check_data(recv, rcount, rtype);
    if (err == MPI_SUCCESS)
        err = check_side(send, scount, stype);
    Blocks b;
    if (err == MPI_SUCCESS)
        err = b.make(c->size, rcount);
    if (err == MPI_SUCCESS)
        err = allgatherv(*c, send, scount, stype, recv, b.counts, b.displs, rtype);
    return fail(comm, err, call);
}

extern "C" int MPI_Alltoallv(const void* send, const int scounts[], const int sdispls[],
                             MPI_Datatype stype, void* recv, const int rcounts[], const int rdispls[],
                             MPI_Datatype rtype, MPI_Comm comm)
{
    const char* call = "MPI_Alltoallv";
    if (!mpi_running())
        return not_running(call);
    Comm* c;
    int err = enter(comm, &c);
    if (err == MPI_SUCCESS)
        err = check_counts(*c, rcounts, rdispls);
    if (err == MPI_SUCCESS)
        err = type_check(rtype, true);
    if (err == MPI_SUCCESS && send != MPI_IN_PLACE) {
        err = check_counts(*c, scounts, sdispls);
        if (err == MPI_SUCCESS)
            err = type_check(stype, true);
    }
    if (err == MPI_SUCCESS)
        err = alltoallv(*c, send, scounts, sdispls, stype, recv, rcounts, rdispls, rtype);
    return fail(comm, err, call);
}

extern "C" int MPI_Alltoall(const void* send, int scount, MPI_Datatype stype, void* recv, int rcount,
                            MPI_Datatype rtype, MPI_Comm comm)
{
    const char* call = "MPI_Alltoall";
    if (!mpi_running())
        return not_running(call);
    Comm* c;
    int err = enter(comm, &c);
    if (err == MPI_SUCCESS)
        err = check_data(recv, rcount, rtype);
    if (err == MPI_SUCCESS)
        err = check_side(send, scount, stype);
    Blocks sb, rb;
    if (err == MPI_SUCCESS)
        err = sb.make(c->size, scount);
    if (err == MPI_SUCCESS)
        err = rb.make(c->size, rcount);
    if (err == MPI_SUCCESS)
        err = alltoallv(*c, send, sb.counts, sb.displs, stype, recv, rb.counts, rb.displs, rtype);
    return fail(comm, err, call);
}
