// MPI calls of the data-movement collectives, blocking and nonblocking: Gather(v),
// Scatter(v), Allgather(v), Alltoall(v,w). Every form describes its block-per-rank sides as
// a PerRank (equal blocks, v-form arrays, w-form types) and shares one builder
// (coll_build.cpp): linear at the root for gathers and scatters, gather and broadcast for
// Allgather, the windowed pairwise exchange for Alltoall.
#include "api.hpp"
#include "coll.hpp"
#include "coll_check.hpp"
#include "coll_shm.hpp"
#include "datatype.hpp"
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

// The counts and types of a w-form side (MPI_ERR_ARG, _COUNT, _TYPE).
int check_w_blocks(const Comm& c, const PerRank& s)
{
    int err = check_counts(c, s.counts, s.displs);
    if (err == MPI_SUCCESS && !s.types)
        err = MPI_ERR_ARG;
    for (int r = 0; r < c.size && err == MPI_SUCCESS; r++)
        err = check_type(s.types[r]);
    return err;
}

// Gather(v) and Scatter(v): the root has a block per rank (`many`), every rank has one block
// (`one`, which only the root may give in place). `gather` says which way the data goes.
int rooted(MPI_Comm comm, CollStart start, int root, const PerRank& many, const void* one,
           int count, MPI_Datatype type, bool gather)
{
    return coll_call(comm, start, [&](Comm& c, Schedule& s) {
        int err = check_root(c, root);
        if (err != MPI_SUCCESS)
            return err;
        if (c.rank == root) {
            err = check_blocks(c, many);
            if (err == MPI_SUCCESS)
                err = check_one(one, count, type);
            if (err == MPI_SUCCESS)
                err = check_buffers(c, many, one, count, type);
        } else {
            err = check_one(one, count, type);
            if (err == MPI_SUCCESS)
                err = check_one_buffer(one, count, type, false);
        }
        // A blocking call spreads the root's verdict; a nonblocking one cannot wait for it.
        if (!start.nonblocking)
            err = agree_with_root(c, root, err);
        if (err != MPI_SUCCESS)
            return err;
        if (gather)
            build_gather(s, one, count, type, many, root);
        else  // the side that receives was the program's non-const buffer
            build_scatter(s, many, const_cast<void*>(one), count, type, root);
        return MPI_SUCCESS;
    });
}

int allgather(MPI_Comm comm, CollStart start, const void* send, int scount, MPI_Datatype stype,
              const PerRank& recv)
{
    return coll_call(comm, start, [&](Comm& c, Schedule& s) {
        int err = check_blocks(c, recv);
        if (err == MPI_SUCCESS)
            err = check_one(send, scount, stype);
        if (err == MPI_SUCCESS)
            err = check_buffers(c, recv, send, scount, stype);
        if (err == MPI_SUCCESS)
            build_allgather(s, send, scount, stype, recv);
        return err;
    });
}

// Alltoall(v,w)'s argument checks.
int check_alltoall(Comm& c, const PerRank& send, const PerRank& recv)
{
    bool in_place = send.buf == MPI_IN_PLACE;
    int err = recv.w_form ? check_w_blocks(c, recv) : check_blocks(c, recv);
    if (err == MPI_SUCCESS && !in_place)
        err = send.w_form ? check_w_blocks(c, send) : check_blocks(c, send);
    if (err == MPI_SUCCESS)
        err = check_blocks_buffer(c, recv);
    if (err == MPI_SUCCESS && !in_place)
        err = check_blocks_buffer(c, send);
    if (err == MPI_SUCCESS && aliased(c, send, recv))
        err = MPI_ERR_BUFFER;
    return err;
}

// A blocking Alltoall through the cluster's shared memory when it applies (coll_shm.hpp);
// false: the schedule takes it (and reports any argument error), without staging when
// *no_staging says a cluster could not have one.
bool shm_alltoall_call(MPI_Comm comm, const PerRank& send, const PerRank& recv, int* err, bool* no_staging)
{
    Comm* c = comm_get(comm);
    if (!c || is_inter(*c) || check_alltoall(*c, send, recv) != MPI_SUCCESS ||
        !shm_alltoall_fits(*c, send, recv))
        return false;
    bool taken = shm_run(comm, *c, err, [&] { return shm_alltoall(*c, send, recv); });
    *no_staging = !taken && *err == kNoStaging;
    return taken;
}

int alltoall(MPI_Comm comm, CollStart start, const PerRank& send, const PerRank& recv)
{
    int err;
    bool no_staging = false;
    if (!start.nonblocking && !send.w_form && shm_alltoall_call(comm, send, recv, &err, &no_staging))
        return err;
    return coll_call(comm, start, [&](Comm& c, Schedule& s) {
        int err = check_alltoall(c, send, recv);
        if (err == MPI_SUCCESS)
            build_alltoall(s, send, recv, !no_staging);
        return err;
    });
}

}  // namespace

}  // namespace lwmpi

using namespace lwmpi;

int api::Gatherv(const void* send, int scount, MPI_Datatype stype, void* recv, const int rcounts[],
                 const int displs[], MPI_Datatype rtype, int root, MPI_Comm comm)
{
    if (is_intercomm(comm))
        return inter_gatherv(send, scount, stype, recv, rcounts, displs, rtype, root, comm);
    return rooted(comm, kBlocking, root, v_blocks(recv, rcounts, displs, rtype), send, scount,
                  stype, true);
}

int api::Igatherv(const void* send, int scount, MPI_Datatype stype, void* recv,
                  const int rcounts[], const int displs[], MPI_Datatype rtype, int root,
                  MPI_Comm comm, MPI_Request* request)
{
    return rooted(comm, nonblocking(request), root, v_blocks(recv, rcounts, displs, rtype), send,
                  scount, stype, true);
}

int api::Gather(const void* send, int scount, MPI_Datatype stype, void* recv, int rcount,
                MPI_Datatype rtype, int root, MPI_Comm comm)
{
    if (is_intercomm(comm))
        return inter_gather(send, scount, stype, recv, rcount, rtype, root, comm);
    return rooted(comm, kBlocking, root, equal_blocks(recv, rcount, rtype), send, scount, stype,
                  true);
}

int api::Igather(const void* send, int scount, MPI_Datatype stype, void* recv, int rcount,
                 MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request* request)
{
    return rooted(comm, nonblocking(request), root, equal_blocks(recv, rcount, rtype), send,
                  scount, stype, true);
}

int api::Scatterv(const void* send, const int scounts[], const int displs[], MPI_Datatype stype,
                  void* recv, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
    if (is_intercomm(comm))
        return inter_scatterv(send, scounts, displs, stype, recv, rcount, rtype, root, comm);
    return rooted(comm, kBlocking, root, v_blocks(send, scounts, displs, stype), recv, rcount,
                  rtype, false);
}

int api::Iscatterv(const void* send, const int scounts[], const int displs[], MPI_Datatype stype,
                   void* recv, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm,
                   MPI_Request* request)
{
    return rooted(comm, nonblocking(request), root, v_blocks(send, scounts, displs, stype), recv,
                  rcount, rtype, false);
}

int api::Scatter(const void* send, int scount, MPI_Datatype stype, void* recv, int rcount,
                 MPI_Datatype rtype, int root, MPI_Comm comm)
{
    if (is_intercomm(comm))
        return inter_scatter(send, scount, stype, recv, rcount, rtype, root, comm);
    return rooted(comm, kBlocking, root, equal_blocks(send, scount, stype), recv, rcount, rtype,
                  false);
}

int api::Iscatter(const void* send, int scount, MPI_Datatype stype, void* recv, int rcount,
                  MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request* request)
{
    return rooted(comm, nonblocking(request), root, equal_blocks(send, scount, stype), recv,
                  rcount, rtype, false);
}

int api::Allgatherv(const void* send, int scount, MPI_Datatype stype, void* recv,
                    const int rcounts[], const int displs[], MPI_Datatype rtype, MPI_Comm comm)
{
    if (is_intercomm(comm))
        return inter_allgatherv(send, scount, stype, recv, rcounts, displs, rtype, comm);
    return allgather(comm, kBlocking, send, scount, stype, v_blocks(recv, rcounts, displs, rtype));
}

int api::Iallgatherv(const void* send, int scount, MPI_Datatype stype, void* recv,
                     const int rcounts[], const int displs[], MPI_Datatype rtype, MPI_Comm comm,
                     MPI_Request* request)
{
    return allgather(comm, nonblocking(request), send, scount, stype,
                     v_blocks(recv, rcounts, displs, rtype));
}

int api::Allgather(const void* send, int scount, MPI_Datatype stype, void* recv, int rcount,
                   MPI_Datatype rtype, MPI_Comm comm)
{
    if (is_intercomm(comm))
        return inter_allgather(send, scount, stype, recv, rcount, rtype, comm);
    return allgather(comm, kBlocking, send, scount, stype, equal_blocks(recv, rcount, rtype));
}

int api::Iallgather(const void* send, int scount, MPI_Datatype stype, void* recv, int rcount,
                    MPI_Datatype rtype, MPI_Comm comm, MPI_Request* request)
{
    return allgather(comm, nonblocking(request), send, scount, stype,
                     equal_blocks(recv, rcount, rtype));
}

int api::Alltoallv(const void* send, const int scounts[], const int sdispls[], MPI_Datatype stype,
                   void* recv, const int rcounts[], const int rdispls[], MPI_Datatype rtype,
                   MPI_Comm comm)
{
    if (is_intercomm(comm))
        return inter_alltoallv(send, scounts, sdispls, stype, recv, rcounts, rdispls, rtype, comm);
    return alltoall(comm, kBlocking, v_blocks(send, scounts, sdispls, stype),
                    v_blocks(recv, rcounts, rdispls, rtype));
}

int api::Ialltoallv(const void* send, const int scounts[], const int sdispls[], MPI_Datatype stype,
                    void* recv, const int rcounts[], const int rdispls[], MPI_Datatype rtype,
                    MPI_Comm comm, MPI_Request* request)
{
    return alltoall(comm, nonblocking(request), v_blocks(send, scounts, sdispls, stype),
                    v_blocks(recv, rcounts, rdispls, rtype));
}

int api::Alltoall(const void* send, int scount, MPI_Datatype stype, void* recv, int rcount,
                  MPI_Datatype rtype, MPI_Comm comm)
{
    if (is_intercomm(comm))
        return inter_alltoall(send, scount, stype, recv, rcount, rtype, comm);
    return alltoall(comm, kBlocking, equal_blocks(send, scount, stype),
                    equal_blocks(recv, rcount, rtype));
}

int api::Ialltoall(const void* send, int scount, MPI_Datatype stype, void* recv, int rcount,
                   MPI_Datatype rtype, MPI_Comm comm, MPI_Request* request)
{
    return alltoall(comm, nonblocking(request), equal_blocks(send, scount, stype),
                    equal_blocks(recv, rcount, rtype));
}

int api::Alltoallw(const void* send, const int scounts[], const int sdispls[],
                   const MPI_Datatype stypes[], void* recv, const int rcounts[],
                   const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm)
{
    return alltoall(comm, kBlocking, w_blocks(send, scounts, sdispls, stypes),
                    w_blocks(recv, rcounts, rdispls, rtypes));
}

int api::Ialltoallw(const void* send, const int scounts[], const int sdispls[],
                    const MPI_Datatype stypes[], void* recv, const int rcounts[],
                    const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm,
                    MPI_Request* request)
{
    return alltoall(comm, nonblocking(request), w_blocks(send, scounts, sdispls, stypes),
                    w_blocks(recv, rcounts, rdispls, rtypes));
}
