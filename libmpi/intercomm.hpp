// Intercommunicators (MPI 3.1 section 6.6): a local and a remote group on one context id.
// Point-to-point ranks name the remote group (comm.hpp: peer_world); the handle-less
// intracommunicator `local` of the local group runs the local phases of the collectives.
// The calls that also take intracommunicators reach the code here through one-line hooks.
#pragma once

#include <mpi.h>
#include <stddef.h>

#include "comm.hpp"

namespace lwmpi {

// The two leaders (local rank 0 of each group) swap `out` for the other leader's `in`,
// then each leader spreads what it got through its group: every member ends with the
// remote group's `in`. Collective over both groups.
int inter_swap(Comm& inter, const void* out, size_t out_bytes, void* in, size_t in_bytes);

// Communicator calls on an intercommunicator (comm_api.cpp): collective over both groups.
int intercomm_dup(Comm& c, MPI_Comm* out);
int intercomm_split(Comm& c, int color, int key, MPI_Comm* out);
// MPI_CONGRUENT, MPI_SIMILAR or MPI_UNEQUAL for two distinct communicators, one of which at
// least is an intercommunicator (both groups compared).
int intercomm_compare(const Comm& a, const Comm& b);

// Whether `comm` is a live intercommunicator of the calling rank: its collective runs here.
bool is_intercomm(MPI_Comm comm);
// The error of a call defined only on intracommunicators (or not yet on intercommunicators):
// MPI_ERR_COMM through the communicator's handler.
int intracomm_only(MPI_Comm comm);

// The collectives on an intercommunicator (intercomm_coll.cpp), with the arguments of the
// MPI call; errors go to the communicator's handler.
int inter_barrier(MPI_Comm comm);
int inter_bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm);
int inter_reduce(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op, int root,
                 MPI_Comm comm);
int inter_allreduce(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op,
                    MPI_Comm comm);
int inter_reduce_scatter(const void* send, void* recv, const int* recvcounts, MPI_Datatype type,
                         MPI_Op op, MPI_Comm comm);
int inter_reduce_scatter_block(const void* send, void* recv, int recvcount, MPI_Datatype type,
                               MPI_Op op, MPI_Comm comm);
int inter_gatherv(const void* send, int scount, MPI_Datatype stype, void* recv, const int* rcounts,
                  const int* displs, MPI_Datatype rtype, int root, MPI_Comm comm);
int inter_gather(const void* send, int scount, MPI_Datatype stype, void* recv, int rcount,
                 MPI_Datatype rtype, int root, MPI_Comm comm);
int inter_scatterv(const void* send, const int* scounts, const int* displs, MPI_Datatype stype,
                   void* recv, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm);
int inter_scatter(const void* send, int scount, MPI_Datatype stype, void* recv, int rcount,
                  MPI_Datatype rtype, int root, MPI_Comm comm);
int inter_allgatherv(const void* send, int scount, MPI_Datatype stype, void* recv,
                     const int* rcounts, const int* displs, MPI_Datatype rtype, MPI_Comm comm);
int inter_allgather(const void* send, int scount, MPI_Datatype stype, void* recv, int rcount,
                    MPI_Datatype rtype, MPI_Comm comm);
int inter_alltoallv(const void* send, const int* scounts, const int* sdispls, MPI_Datatype stype,
                    void* recv, const int* rcounts, const int* rdispls, MPI_Datatype rtype,
                    MPI_Comm comm);
int inter_alltoall(const void* send, int scount, MPI_Datatype stype, void* recv, int rcount,
                   MPI_Datatype rtype, MPI_Comm comm);

}  // namespace lwmpi
