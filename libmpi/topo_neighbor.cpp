// Blocking neighbourhood collectives (MPI 3.1 7.6): every process sends a block to each
// neighbour it points to and receives one from each neighbour pointing to it, in the
// topology's neighbour order. Cartesian: per dimension the source then the dest of a shift by
// +1, MPI_PROC_NULL off a non-periodic border (its block is left alone); graph: the node's
// edges; distributed graph: sources to receive from, destinations to send to. Every call,
// blocking or not (7.7), is a schedule of the collective engine (coll_engine.hpp) whose
// transfers are all in flight at once, under the communicator's next collective tag.
//
// Repeated neighbours pair up by order (messages between two processes never overtake each
// other). On a Cartesian grid the block a process sends towards its source in a dimension is
// the one that neighbour receives from its dest: receiving each pair dest first keeps the
// order right when source and dest are one process (a periodic dimension of size 1 or 2).
#include <limits.h>
#include <stdint.h>

#include "api.hpp"
#include "coll.hpp"
#include "coll_check.hpp"
#include "comm.hpp"
#include "config.hpp"
#include "datatype.hpp"
#include "errhandler.hpp"
#include "p2p_check.hpp"
#include "topo.hpp"
#include "topo_logic.hpp"

namespace lwmpi {

namespace {

struct Neighbors {
    int in_count;
    const int* in;
    int out_count;
    const int* out;
    bool cart;
};

Neighbors neighbors_of(const Comm& c, const Topology& t)
{
    if (t.kind == MPI_CART)
        return {2 * t.ndims, t.cart_neighbors(), 2 * t.ndims, t.cart_neighbors(), true};
    if (t.kind == MPI_GRAPH) {
        int first, count;
        topo::graph_neighbors(t.index(), c.rank, &first, &count);
        return {count, t.edges() + first, count, t.edges() + first, false};
    }
    return {t.indegree, t.sources(), t.outdegree, t.dests(), false};
}

// One side of a call: a block per neighbour. Counts, displacements and types are per
// neighbour when their arrays are given, else `count`, consecutive blocks and `type`; `shared`
// gives every neighbour the same block (the send side of the allgathers).
struct Side {
    const void* buf;
    int count;
    MPI_Datatype type;
    const int* counts = nullptr;
    const int* displs = nullptr;           // in extents of the type
    const MPI_Aint* byte_displs = nullptr; // alltoallw
    const MPI_Datatype* types = nullptr;   // alltoallw
    bool shared = false;

    int count_of(int i) const { return counts ? counts[i] : count; }
    MPI_Datatype type_of(int i) const { return types ? types[i] : type; }
    void* block(int i) const
    {
        char* base = static_cast<char*>(const_cast<void*>(buf));
        if (shared)
            return base;
        if (byte_displs)
            return base + byte_displs[i];
        MPI_Aint index = displs ? displs[i] : static_cast<MPI_Aint>(i) * count;
        return base + index * type_extent(type);
    }
};

// The arrays a side needs for `n` blocks (MPI_ERR_ARG), then each block's count, type and
// buffer (MPI_ERR_COUNT, _TYPE, _BUFFER: MPI_IN_PLACE has no meaning here).
int check_side(const Side& s, int n)
{
    bool varying = s.counts || s.displs || s.byte_displs || s.types;
    if (varying && n > 0 && (!s.counts || (!s.displs && !s.byte_displs) || (s.byte_displs && !s.types)))
        return MPI_ERR_ARG;
    if (!varying || s.shared)
        return check_data(s.buf, s.count, s.type);
    for (int i = 0; i < n; i++) {
        int err = check_data(s.buf, s.count_of(i), s.type_of(i));
        if (err != MPI_SUCCESS)
            return err;
    }
    return MPI_SUCCESS;
}

// Whether a side moves any element to or from its `n` neighbours.
bool moves(const Side& s, int n)
{
    for (int i = 0; i < n; i++)
        if (s.count_of(i) > 0)
            return true;
    return false;
}

// Send and receive buffers must not overlap (MPI_IN_PLACE has no meaning here). Exact for
// equal blocks; blocks with their own displacements may interleave legally, so there only one
// buffer given twice counts (as for the other collectives, coll_check.hpp).
bool sides_alias(const Side& send, int out, const Side& recv, int in)
{
    if (!moves(send, out) || !moves(recv, in))
        return false;
    bool fixed = !recv.counts && !send.counts;
    if (!fixed)
        return send.buf == recv.buf;
    int64_t scount = send.shared ? send.count : static_cast<int64_t>(send.count) * out;
    int64_t rcount = static_cast<int64_t>(recv.count) * in;
    if (scount > INT_MAX || rcount > INT_MAX)
        return send.buf == recv.buf;  // no memory holds that much: only the same start can tell
    return aliased(send.buf, static_cast<int>(scount), send.type, recv.buf,
                   static_cast<int>(rcount), recv.type);
}

// Checks one call's arguments and adds its transfers, all in flight at once, then a fence.
int build_neighbor(Comm& c, Schedule& s, const Side& send, const Side& recv)
{
    const Topology* t = topo_of(c, 0);
    if (!t)
        return MPI_ERR_TOPOLOGY;
    Neighbors n = neighbors_of(c, *t);
    int err = check_side(recv, n.in_count);
    if (err == MPI_SUCCESS)
        err = check_side(send, n.out_count);
    if (err == MPI_SUCCESS && sides_alias(send, n.out_count, recv, n.in_count))
        err = MPI_ERR_BUFFER;
    if (err != MPI_SUCCESS)
        return err;
    for (int k = 0; k < n.in_count; k++) {
        int i = n.cart ? k ^ 1 : k;
        s.recv(n.in[i], recv.block(i), recv.count_of(i), recv.type_of(i));
    }
    for (int i = 0; i < n.out_count; i++)
        s.send(n.out[i], send.block(i), send.count_of(i), send.type_of(i));
    s.fence();
    return MPI_SUCCESS;
}

// The blocking calls run the schedule, the I-forms (7.7) hand its request to the program.
int neighbor_call(MPI_Comm comm, CollStart start, const Side& send, const Side& recv)
{
    return coll_call(comm, start,
                     [&](Comm& c, Schedule& s) { return build_neighbor(c, s, send, recv); });
}

// One Side per call shape, shared by the blocking and nonblocking forms.
Side shared_block(const void* buf, int count, MPI_Datatype type)
{
    Side side{buf, count, type};
    side.shared = true;
    return side;
}

Side varying(const void* buf, const int* counts, const int* displs, MPI_Datatype type)
{
    Side side{buf, 0, type};
    side.counts = counts;
    side.displs = displs;
    return side;
}

Side per_type(const void* buf, const int* counts, const MPI_Aint* displs, const MPI_Datatype* types)
{
    Side side{buf, 0, MPI_DATATYPE_NULL};
    side.counts = counts;
    side.byte_displs = displs;
    side.types = types;
    return side;
}

}  // namespace

}  // namespace lwmpi

using namespace lwmpi;

int api::Neighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return neighbor_call(comm, kBlocking, shared_block(sendbuf, sendcount, sendtype),
                         Side{recvbuf, recvcount, recvtype});
}

int api::Neighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                             void* recvbuf, const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm)
{
    return neighbor_call(comm, kBlocking, shared_block(sendbuf, sendcount, sendtype),
                         varying(recvbuf, recvcounts, displs, recvtype));
}

int api::Neighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                           void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return neighbor_call(comm, kBlocking, Side{sendbuf, sendcount, sendtype},
                         Side{recvbuf, recvcount, recvtype});
}

int api::Neighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                            MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return neighbor_call(comm, kBlocking, varying(sendbuf, sendcounts, sdispls, sendtype),
                         varying(recvbuf, recvcounts, rdispls, recvtype));
}

int api::Neighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return neighbor_call(comm, kBlocking, per_type(sendbuf, sendcounts, sdispls, sendtypes),
                         per_type(recvbuf, recvcounts, rdispls, recvtypes));
}

int api::Ineighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                             void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request* request)
{
    return neighbor_call(comm, nonblocking(request), shared_block(sendbuf, sendcount, sendtype),
                         Side{recvbuf, recvcount, recvtype});
}

int api::Ineighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                              void* recvbuf, const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request)
{
    return neighbor_call(comm, nonblocking(request), shared_block(sendbuf, sendcount, sendtype),
                         varying(recvbuf, recvcounts, displs, recvtype));
}

int api::Ineighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                            void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request* request)
{
    return neighbor_call(comm, nonblocking(request), Side{sendbuf, sendcount, sendtype},
                         Side{recvbuf, recvcount, recvtype});
}

int api::Ineighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request* request)
{
    return neighbor_call(comm, nonblocking(request), varying(sendbuf, sendcounts, sdispls, sendtype),
                         varying(recvbuf, recvcounts, rdispls, recvtype));
}

int api::Ineighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                             const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                             const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                             MPI_Comm comm, MPI_Request* request)
{
    return neighbor_call(comm, nonblocking(request), per_type(sendbuf, sendcounts, sdispls, sendtypes),
                         per_type(recvbuf, recvcounts, rdispls, recvtypes));
}
