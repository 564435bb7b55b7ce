/* mpi_functions.h: the table of LWMPI's functions, included by mpi.h (do not include it
 * directly). One row per function, the only place its signature is written:
 *
 *     LWMPI_CALL(name, when, (parameters), (arguments))   returns an MPI error code
 *     LWMPI_PLAIN(type, name, (parameters), (arguments))  returns a value, never fails
 *
 * `when` is RUNNING for calls allowed only between MPI_Init and MPI_Finalize, ANYTIME for
 * the others (MPI 3.1 section 8.7). mpi.h makes each row the declarations of MPI_name and
 * PMPI_name; libmpi makes it the entry point (libmpi/entries.cpp) that checks `when`, names
 * the call for error reports and calls the implementation, lwmpi::api::name.
 */
/* 3. point-to-point */
LWMPI_CALL(Send, RUNNING, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                           MPI_Comm comm), (buf, count, datatype, dest, tag, comm))
LWMPI_CALL(Ssend, RUNNING, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm), (buf, count, datatype, dest, tag, comm))
LWMPI_CALL(Rsend, RUNNING, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm), (buf, count, datatype, dest, tag, comm))
LWMPI_CALL(Recv, RUNNING, (void *buf, int count, MPI_Datatype datatype, int source, int tag,
                           MPI_Comm comm, MPI_Status *status),
                           (buf, count, datatype, source, tag, comm, status))
LWMPI_CALL(Get_count, RUNNING, (const MPI_Status *status, MPI_Datatype datatype, int *count),
                                (status, datatype, count))
LWMPI_CALL(Isend, RUNNING, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm, MPI_Request *request),
                            (buf, count, datatype, dest, tag, comm, request))
LWMPI_CALL(Issend, RUNNING, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                             MPI_Comm comm, MPI_Request *request),
                             (buf, count, datatype, dest, tag, comm, request))
LWMPI_CALL(Irecv, RUNNING, (void *buf, int count, MPI_Datatype datatype, int source, int tag,
                            MPI_Comm comm, MPI_Request *request),
                            (buf, count, datatype, source, tag, comm, request))
LWMPI_CALL(Wait, RUNNING, (MPI_Request *request, MPI_Status *status), (request, status))
LWMPI_CALL(Test, RUNNING, (MPI_Request *request, int *flag, MPI_Status *status),
                           (request, flag, status))
LWMPI_CALL(Request_free, RUNNING, (MPI_Request *request), (request))
LWMPI_CALL(Waitany, RUNNING, (int count, MPI_Request array_of_requests[], int *index,
                              MPI_Status *status), (count, array_of_requests, index, status))
LWMPI_CALL(Testany, RUNNING, (int count, MPI_Request array_of_requests[], int *index, int *flag,
                              MPI_Status *status), (count, array_of_requests, index, flag, status))
LWMPI_CALL(Waitall, RUNNING, (int count, MPI_Request array_of_requests[],
                              MPI_Status *array_of_statuses),
                              (count, array_of_requests, array_of_statuses))
LWMPI_CALL(Testall, RUNNING, (int count, MPI_Request array_of_requests[], int *flag,
                              MPI_Status *array_of_statuses),
                              (count, array_of_requests, flag, array_of_statuses))
LWMPI_CALL(Waitsome, RUNNING, (int incount, MPI_Request array_of_requests[], int *outcount,
                               int array_of_indices[], MPI_Status *array_of_statuses),
                               (incount, array_of_requests, outcount, array_of_indices, array_of_statuses))
LWMPI_CALL(Testsome, RUNNING, (int incount, MPI_Request array_of_requests[], int *outcount,
                               int array_of_indices[], MPI_Status *array_of_statuses),
                               (incount, array_of_requests, outcount, array_of_indices, array_of_statuses))
LWMPI_CALL(Request_get_status, RUNNING, (MPI_Request request, int *flag, MPI_Status *status),
                                         (request, flag, status))
LWMPI_CALL(Iprobe, RUNNING, (int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status),
                             (source, tag, comm, flag, status))
LWMPI_CALL(Probe, RUNNING, (int source, int tag, MPI_Comm comm, MPI_Status *status),
                            (source, tag, comm, status))
LWMPI_CALL(Cancel, RUNNING, (MPI_Request *request), (request))
LWMPI_CALL(Test_cancelled, RUNNING, (const MPI_Status *status, int *flag), (status, flag))
LWMPI_CALL(Send_init, RUNNING, (const void *buf, int count, MPI_Datatype datatype, int dest,
                                int tag, MPI_Comm comm, MPI_Request *request),
                                (buf, count, datatype, dest, tag, comm, request))
LWMPI_CALL(Recv_init, RUNNING, (void *buf, int count, MPI_Datatype datatype, int source, int tag,
                                MPI_Comm comm, MPI_Request *request),
                                (buf, count, datatype, source, tag, comm, request))
LWMPI_CALL(Start, RUNNING, (MPI_Request *request), (request))
LWMPI_CALL(Startall, RUNNING, (int count, MPI_Request array_of_requests[]),
                               (count, array_of_requests))
LWMPI_CALL(Sendrecv, RUNNING, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                               int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                               int source, int recvtag, MPI_Comm comm, MPI_Status *status),
                               (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag, comm, status))
LWMPI_CALL(Sendrecv_replace, RUNNING, (void *buf, int count, MPI_Datatype datatype, int dest,
                                       int sendtag, int source, int recvtag, MPI_Comm comm,
                                       MPI_Status *status),
                                       (buf, count, datatype, dest, sendtag, source, recvtag, comm, status))

/* 3. point-to-point: buffered mode, the nonblocking and persistent forms of every mode,
 * matched probes */
LWMPI_CALL(Bsend, RUNNING, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                            MPI_Comm comm), (buf, count, datatype, dest, tag, comm))
LWMPI_CALL(Buffer_attach, RUNNING, (void *buffer, int size), (buffer, size))
LWMPI_CALL(Buffer_detach, RUNNING, (void *buffer_addr, int *size), (buffer_addr, size))
LWMPI_CALL(Ibsend, RUNNING, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                             MPI_Comm comm, MPI_Request *request),
                             (buf, count, datatype, dest, tag, comm, request))
LWMPI_CALL(Irsend, RUNNING, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
                             MPI_Comm comm, MPI_Request *request),
                             (buf, count, datatype, dest, tag, comm, request))
LWMPI_CALL(Bsend_init, RUNNING, (const void *buf, int count, MPI_Datatype datatype, int dest,
                                 int tag, MPI_Comm comm, MPI_Request *request),
                                 (buf, count, datatype, dest, tag, comm, request))
LWMPI_CALL(Ssend_init, RUNNING, (const void *buf, int count, MPI_Datatype datatype, int dest,
                                 int tag, MPI_Comm comm, MPI_Request *request),
                                 (buf, count, datatype, dest, tag, comm, request))
LWMPI_CALL(Rsend_init, RUNNING, (const void *buf, int count, MPI_Datatype datatype, int dest,
                                 int tag, MPI_Comm comm, MPI_Request *request),
                                 (buf, count, datatype, dest, tag, comm, request))
LWMPI_CALL(Mprobe, RUNNING, (int source, int tag, MPI_Comm comm, MPI_Message *message,
                             MPI_Status *status), (source, tag, comm, message, status))
LWMPI_CALL(Improbe, RUNNING, (int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                              MPI_Status *status), (source, tag, comm, flag, message, status))
LWMPI_CALL(Mrecv, RUNNING, (void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
                            MPI_Status *status), (buf, count, datatype, message, status))
LWMPI_CALL(Imrecv, RUNNING, (void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
                             MPI_Request *request), (buf, count, datatype, message, request))

/* 4. datatypes */
LWMPI_CALL(Type_contiguous, RUNNING, (int count, MPI_Datatype oldtype, MPI_Datatype *newtype),
                                      (count, oldtype, newtype))
LWMPI_CALL(Type_vector, RUNNING, (int count, int blocklength, int stride, MPI_Datatype oldtype,
                                  MPI_Datatype *newtype),
                                  (count, blocklength, stride, oldtype, newtype))
LWMPI_CALL(Type_create_hvector, RUNNING, (int count, int blocklength, MPI_Aint stride,
                                          MPI_Datatype oldtype, MPI_Datatype *newtype),
                                          (count, blocklength, stride, oldtype, newtype))
LWMPI_CALL(Type_indexed, RUNNING, (int count, const int array_of_blocklengths[],
                                   const int array_of_displacements[], MPI_Datatype oldtype,
                                   MPI_Datatype *newtype),
                                   (count, array_of_blocklengths, array_of_displacements, oldtype, newtype))
LWMPI_CALL(Type_create_hindexed, RUNNING, (int count, const int array_of_blocklengths[],
                                           const MPI_Aint array_of_displacements[],
                                           MPI_Datatype oldtype, MPI_Datatype *newtype),
                                           (count, array_of_blocklengths, array_of_displacements, oldtype, newtype))
LWMPI_CALL(Type_create_indexed_block, RUNNING, (int count, int blocklength,
                                                const int array_of_displacements[],
                                                MPI_Datatype oldtype, MPI_Datatype *newtype),
                                                (count, blocklength, array_of_displacements, oldtype, newtype))
LWMPI_CALL(Type_create_hindexed_block, RUNNING, (int count, int blocklength,
                                                 const MPI_Aint array_of_displacements[],
                                                 MPI_Datatype oldtype, MPI_Datatype *newtype),
                                                 (count, blocklength, array_of_displacements, oldtype, newtype))
LWMPI_CALL(Type_create_struct, RUNNING, (int count, const int array_of_blocklengths[],
                                         const MPI_Aint array_of_displacements[],
                                         const MPI_Datatype array_of_types[],
                                         MPI_Datatype *newtype),
                                         (count, array_of_blocklengths, array_of_displacements, array_of_types, newtype))
LWMPI_CALL(Type_create_resized, RUNNING, (MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                                          MPI_Datatype *newtype), (oldtype, lb, extent, newtype))
LWMPI_CALL(Type_dup, RUNNING, (MPI_Datatype oldtype, MPI_Datatype *newtype), (oldtype, newtype))
LWMPI_CALL(Type_commit, RUNNING, (MPI_Datatype *datatype), (datatype))
LWMPI_CALL(Type_free, RUNNING, (MPI_Datatype *datatype), (datatype))
LWMPI_CALL(Type_size, RUNNING, (MPI_Datatype datatype, int *size), (datatype, size))
LWMPI_CALL(Type_size_x, RUNNING, (MPI_Datatype datatype, MPI_Count *size), (datatype, size))
LWMPI_CALL(Type_get_extent, RUNNING, (MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent),
                                      (datatype, lb, extent))
LWMPI_CALL(Type_get_extent_x, RUNNING, (MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent),
                                        (datatype, lb, extent))
LWMPI_CALL(Type_get_true_extent, RUNNING, (MPI_Datatype datatype, MPI_Aint *true_lb,
                                           MPI_Aint *true_extent), (datatype, true_lb, true_extent))
LWMPI_CALL(Type_get_true_extent_x, RUNNING, (MPI_Datatype datatype, MPI_Count *true_lb,
                                             MPI_Count *true_extent),
                                             (datatype, true_lb, true_extent))
LWMPI_CALL(Get_address, RUNNING, (const void *location, MPI_Aint *address), (location, address))
LWMPI_PLAIN(MPI_Aint, Aint_add, (MPI_Aint base, MPI_Aint disp), (base, disp))
LWMPI_PLAIN(MPI_Aint, Aint_diff, (MPI_Aint addr1, MPI_Aint addr2), (addr1, addr2))
LWMPI_CALL(Get_elements, RUNNING, (const MPI_Status *status, MPI_Datatype datatype, int *count),
                                   (status, datatype, count))
LWMPI_CALL(Get_elements_x, RUNNING, (const MPI_Status *status, MPI_Datatype datatype,
                                     MPI_Count *count), (status, datatype, count))
LWMPI_CALL(Pack, RUNNING, (const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf,
                           int outsize, int *position, MPI_Comm comm),
                           (inbuf, incount, datatype, outbuf, outsize, position, comm))
LWMPI_CALL(Unpack, RUNNING, (const void *inbuf, int insize, int *position, void *outbuf,
                             int outcount, MPI_Datatype datatype, MPI_Comm comm),
                             (inbuf, insize, position, outbuf, outcount, datatype, comm))
LWMPI_CALL(Pack_size, RUNNING, (int incount, MPI_Datatype datatype, MPI_Comm comm, int *size),
                                (incount, datatype, comm, size))
/* 4: decoding types, array constructors, external32 packing, sized types (17.1.9) */
LWMPI_CALL(Type_get_envelope, RUNNING, (MPI_Datatype datatype, int *num_integers,
                                        int *num_addresses, int *num_datatypes, int *combiner),
                                        (datatype, num_integers, num_addresses, num_datatypes, combiner))
LWMPI_CALL(Type_get_contents, RUNNING, (MPI_Datatype datatype, int max_integers,
                                        int max_addresses, int max_datatypes,
                                        int array_of_integers[], MPI_Aint array_of_addresses[],
                                        MPI_Datatype array_of_datatypes[]),
                                        (datatype, max_integers, max_addresses, max_datatypes, array_of_integers, array_of_addresses, array_of_datatypes))
LWMPI_CALL(Type_create_subarray, RUNNING, (int ndims, const int array_of_sizes[],
                                           const int array_of_subsizes[],
                                           const int array_of_starts[], int order,
                                           MPI_Datatype oldtype, MPI_Datatype *newtype),
                                           (ndims, array_of_sizes, array_of_subsizes, array_of_starts, order, oldtype, newtype))
LWMPI_CALL(Type_create_darray, RUNNING, (int size, int rank, int ndims,
                                         const int array_of_gsizes[],
                                         const int array_of_distribs[],
                                         const int array_of_dargs[], const int array_of_psizes[],
                                         int order, MPI_Datatype oldtype, MPI_Datatype *newtype),
                                         (size, rank, ndims, array_of_gsizes, array_of_distribs, array_of_dargs, array_of_psizes, order, oldtype, newtype))
LWMPI_CALL(Pack_external, RUNNING, (const char datarep[], const void *inbuf, int incount,
                                    MPI_Datatype datatype, void *outbuf, MPI_Aint outsize,
                                    MPI_Aint *position),
                                    (datarep, inbuf, incount, datatype, outbuf, outsize, position))
LWMPI_CALL(Unpack_external, RUNNING, (const char datarep[], const void *inbuf, MPI_Aint insize,
                                      MPI_Aint *position, void *outbuf, int outcount,
                                      MPI_Datatype datatype),
                                      (datarep, inbuf, insize, position, outbuf, outcount, datatype))
LWMPI_CALL(Pack_external_size, RUNNING, (const char datarep[], int incount,
                                         MPI_Datatype datatype, MPI_Aint *size),
                                         (datarep, incount, datatype, size))
LWMPI_CALL(Type_match_size, RUNNING, (int typeclass, int size, MPI_Datatype *datatype),
                                      (typeclass, size, datatype))

/* 5. collectives */
LWMPI_CALL(Barrier, RUNNING, (MPI_Comm comm), (comm))
LWMPI_CALL(Bcast, RUNNING, (void *buffer, int count, MPI_Datatype datatype, int root,
                            MPI_Comm comm), (buffer, count, datatype, root, comm))
LWMPI_CALL(Gather, RUNNING, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                             MPI_Comm comm),
                             (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm))
LWMPI_CALL(Gatherv, RUNNING, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, int root, MPI_Comm comm),
                              (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm))
LWMPI_CALL(Scatter, RUNNING, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                              MPI_Comm comm),
                              (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm))
LWMPI_CALL(Scatterv, RUNNING, (const void *sendbuf, const int sendcounts[], const int displs[],
                               MPI_Datatype sendtype, void *recvbuf, int recvcount,
                               MPI_Datatype recvtype, int root, MPI_Comm comm),
                               (sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm))
LWMPI_CALL(Allgather, RUNNING, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm),
                                (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm))
LWMPI_CALL(Allgatherv, RUNNING, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, const int recvcounts[], const int displs[],
                                 MPI_Datatype recvtype, MPI_Comm comm),
                                 (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm))
LWMPI_CALL(Alltoall, RUNNING, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm),
                               (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm))
LWMPI_CALL(Alltoallv, RUNNING, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                                MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm),
                                (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm))
/* 5.8 all-to-all with a datatype per block */
LWMPI_CALL(Alltoallw, RUNNING, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                                const MPI_Datatype sendtypes[], void *recvbuf,
                                const int recvcounts[], const int rdispls[],
                                const MPI_Datatype recvtypes[], MPI_Comm comm),
                                (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm))
LWMPI_CALL(Reduce, RUNNING, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                             MPI_Op op, int root, MPI_Comm comm),
                             (sendbuf, recvbuf, count, datatype, op, root, comm))
LWMPI_CALL(Allreduce, RUNNING, (const void *sendbuf, void *recvbuf, int count,
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm),
                                (sendbuf, recvbuf, count, datatype, op, comm))
LWMPI_CALL(Reduce_scatter_block, RUNNING, (const void *sendbuf, void *recvbuf, int recvcount,
                                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm),
                                           (sendbuf, recvbuf, recvcount, datatype, op, comm))
LWMPI_CALL(Reduce_scatter, RUNNING, (const void *sendbuf, void *recvbuf, const int recvcounts[],
                                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm),
                                     (sendbuf, recvbuf, recvcounts, datatype, op, comm))
LWMPI_CALL(Scan, RUNNING, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                           MPI_Op op, MPI_Comm comm), (sendbuf, recvbuf, count, datatype, op, comm))
LWMPI_CALL(Exscan, RUNNING, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                             MPI_Op op, MPI_Comm comm),
                             (sendbuf, recvbuf, count, datatype, op, comm))
/* 5.12 nonblocking collectives */
LWMPI_CALL(Ibarrier, RUNNING, (MPI_Comm comm, MPI_Request *request), (comm, request))
LWMPI_CALL(Ibcast, RUNNING, (void *buffer, int count, MPI_Datatype datatype, int root,
                             MPI_Comm comm, MPI_Request *request),
                             (buffer, count, datatype, root, comm, request))
LWMPI_CALL(Igather, RUNNING, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                              MPI_Comm comm, MPI_Request *request),
                              (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request))
LWMPI_CALL(Igatherv, RUNNING, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               void *recvbuf, const int recvcounts[], const int displs[],
                               MPI_Datatype recvtype, int root, MPI_Comm comm,
                               MPI_Request *request),
                               (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, request))
LWMPI_CALL(Iscatter, RUNNING, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                               MPI_Comm comm, MPI_Request *request),
                               (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request))
LWMPI_CALL(Iscatterv, RUNNING, (const void *sendbuf, const int sendcounts[], const int displs[],
                                MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                MPI_Datatype recvtype, int root, MPI_Comm comm,
                                MPI_Request *request),
                                (sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, request))
LWMPI_CALL(Iallgather, RUNNING, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                 MPI_Comm comm, MPI_Request *request),
                                 (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request))
LWMPI_CALL(Iallgatherv, RUNNING, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void *recvbuf, const int recvcounts[], const int displs[],
                                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request),
                                  (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, request))
LWMPI_CALL(Ialltoall, RUNNING, (const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_Request *request),
                                (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request))
LWMPI_CALL(Ialltoallv, RUNNING, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                                 MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                 const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                 MPI_Request *request),
                                 (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, request))
LWMPI_CALL(Ialltoallw, RUNNING, (const void *sendbuf, const int sendcounts[], const int sdispls[],
                                 const MPI_Datatype sendtypes[], void *recvbuf,
                                 const int recvcounts[], const int rdispls[],
                                 const MPI_Datatype recvtypes[], MPI_Comm comm,
                                 MPI_Request *request),
                                 (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm, request))
LWMPI_CALL(Ireduce, RUNNING, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                              MPI_Op op, int root, MPI_Comm comm, MPI_Request *request),
                              (sendbuf, recvbuf, count, datatype, op, root, comm, request))
LWMPI_CALL(Iallreduce, RUNNING, (const void *sendbuf, void *recvbuf, int count,
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                 MPI_Request *request),
                                 (sendbuf, recvbuf, count, datatype, op, comm, request))
LWMPI_CALL(Ireduce_scatter_block, RUNNING, (const void *sendbuf, void *recvbuf, int recvcount,
                                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                            MPI_Request *request),
                                            (sendbuf, recvbuf, recvcount, datatype, op, comm, request))
LWMPI_CALL(Ireduce_scatter, RUNNING, (const void *sendbuf, void *recvbuf, const int recvcounts[],
                                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                      MPI_Request *request),
                                      (sendbuf, recvbuf, recvcounts, datatype, op, comm, request))
LWMPI_CALL(Iscan, RUNNING, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                            MPI_Op op, MPI_Comm comm, MPI_Request *request),
                            (sendbuf, recvbuf, count, datatype, op, comm, request))
LWMPI_CALL(Iexscan, RUNNING, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                              MPI_Op op, MPI_Comm comm, MPI_Request *request),
                              (sendbuf, recvbuf, count, datatype, op, comm, request))
LWMPI_CALL(Op_create, RUNNING, (MPI_User_function *user_fn, int commute, MPI_Op *op),
                                (user_fn, commute, op))
LWMPI_CALL(Op_free, RUNNING, (MPI_Op *op), (op))
LWMPI_CALL(Op_commutative, RUNNING, (MPI_Op op, int *commute), (op, commute))

/* 5.9.7 local reduction */
LWMPI_CALL(Reduce_local, RUNNING, (const void *inbuf, void *inoutbuf, int count,
                                   MPI_Datatype datatype, MPI_Op op),
                                   (inbuf, inoutbuf, count, datatype, op))

/* 6. groups, communicators */
LWMPI_CALL(Group_size, RUNNING, (MPI_Group group, int *size), (group, size))
LWMPI_CALL(Group_rank, RUNNING, (MPI_Group group, int *rank), (group, rank))
LWMPI_CALL(Group_translate_ranks, RUNNING, (MPI_Group group1, int n, const int ranks1[],
                                            MPI_Group group2, int ranks2[]),
                                            (group1, n, ranks1, group2, ranks2))
LWMPI_CALL(Group_compare, RUNNING, (MPI_Group group1, MPI_Group group2, int *result),
                                    (group1, group2, result))
LWMPI_CALL(Group_union, RUNNING, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup),
                                  (group1, group2, newgroup))
LWMPI_CALL(Group_intersection, RUNNING, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup),
                                         (group1, group2, newgroup))
LWMPI_CALL(Group_difference, RUNNING, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup),
                                       (group1, group2, newgroup))
LWMPI_CALL(Group_incl, RUNNING, (MPI_Group group, int n, const int ranks[], MPI_Group *newgroup),
                                 (group, n, ranks, newgroup))
LWMPI_CALL(Group_excl, RUNNING, (MPI_Group group, int n, const int ranks[], MPI_Group *newgroup),
                                 (group, n, ranks, newgroup))
LWMPI_CALL(Group_range_incl, RUNNING, (MPI_Group group, int n, int ranges[][3],
                                       MPI_Group *newgroup), (group, n, ranges, newgroup))
LWMPI_CALL(Group_range_excl, RUNNING, (MPI_Group group, int n, int ranges[][3],
                                       MPI_Group *newgroup), (group, n, ranges, newgroup))
LWMPI_CALL(Group_free, RUNNING, (MPI_Group *group), (group))
LWMPI_CALL(Comm_size, RUNNING, (MPI_Comm comm, int *size), (comm, size))
LWMPI_CALL(Comm_rank, RUNNING, (MPI_Comm comm, int *rank), (comm, rank))
LWMPI_CALL(Comm_compare, RUNNING, (MPI_Comm comm1, MPI_Comm comm2, int *result),
                                   (comm1, comm2, result))
LWMPI_CALL(Comm_group, RUNNING, (MPI_Comm comm, MPI_Group *group), (comm, group))
LWMPI_CALL(Comm_dup, RUNNING, (MPI_Comm comm, MPI_Comm *newcomm), (comm, newcomm))
LWMPI_CALL(Comm_create, RUNNING, (MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm),
                                  (comm, group, newcomm))
LWMPI_CALL(Comm_split, RUNNING, (MPI_Comm comm, int color, int key, MPI_Comm *newcomm),
                                 (comm, color, key, newcomm))
LWMPI_CALL(Comm_split_type, RUNNING, (MPI_Comm comm, int split_type, int key, MPI_Info info,
                                      MPI_Comm *newcomm), (comm, split_type, key, info, newcomm))
LWMPI_CALL(Comm_free, RUNNING, (MPI_Comm *comm), (comm))
/* 6.6 intercommunicators */
LWMPI_CALL(Comm_test_inter, RUNNING, (MPI_Comm comm, int *flag), (comm, flag))
LWMPI_CALL(Comm_remote_size, RUNNING, (MPI_Comm comm, int *size), (comm, size))
LWMPI_CALL(Comm_remote_group, RUNNING, (MPI_Comm comm, MPI_Group *group), (comm, group))
LWMPI_CALL(Intercomm_create, RUNNING, (MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                                       int remote_leader, int tag, MPI_Comm *newintercomm),
                                       (local_comm, local_leader, peer_comm, remote_leader, tag, newintercomm))
LWMPI_CALL(Intercomm_merge, RUNNING, (MPI_Comm intercomm, int high, MPI_Comm *newintracomm),
                                      (intercomm, high, newintracomm))
LWMPI_CALL(Comm_get_attr, RUNNING, (MPI_Comm comm, int comm_keyval, void *attribute_val,
                                    int *flag), (comm, comm_keyval, attribute_val, flag))
LWMPI_CALL(Comm_set_name, RUNNING, (MPI_Comm comm, const char *comm_name), (comm, comm_name))
LWMPI_CALL(Comm_get_name, RUNNING, (MPI_Comm comm, char *comm_name, int *resultlen),
                                    (comm, comm_name, resultlen))
LWMPI_CALL(Type_set_name, RUNNING, (MPI_Datatype datatype, const char *type_name),
                                    (datatype, type_name))
LWMPI_CALL(Type_get_name, RUNNING, (MPI_Datatype datatype, char *type_name, int *resultlen),
                                    (datatype, type_name, resultlen))
/* 6.4 communicators from a group with a tag, with info; 6.7 attribute caching */
LWMPI_CALL(Comm_create_group, RUNNING, (MPI_Comm comm, MPI_Group group, int tag,
                                        MPI_Comm *newcomm), (comm, group, tag, newcomm))
LWMPI_CALL(Comm_dup_with_info, RUNNING, (MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm),
                                         (comm, info, newcomm))
LWMPI_CALL(Comm_set_info, RUNNING, (MPI_Comm comm, MPI_Info info), (comm, info))
LWMPI_CALL(Comm_get_info, RUNNING, (MPI_Comm comm, MPI_Info *info_used), (comm, info_used))
LWMPI_CALL(Comm_create_keyval, RUNNING, (MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                                         MPI_Comm_delete_attr_function *comm_delete_attr_fn,
                                         int *comm_keyval, void *extra_state),
                                         (comm_copy_attr_fn, comm_delete_attr_fn, comm_keyval, extra_state))
LWMPI_CALL(Comm_free_keyval, RUNNING, (int *comm_keyval), (comm_keyval))
LWMPI_CALL(Comm_set_attr, RUNNING, (MPI_Comm comm, int comm_keyval, void *attribute_val),
                                    (comm, comm_keyval, attribute_val))
LWMPI_CALL(Comm_delete_attr, RUNNING, (MPI_Comm comm, int comm_keyval), (comm, comm_keyval))
LWMPI_CALL(Type_create_keyval, RUNNING, (MPI_Type_copy_attr_function *type_copy_attr_fn,
                                         MPI_Type_delete_attr_function *type_delete_attr_fn,
                                         int *type_keyval, void *extra_state),
                                         (type_copy_attr_fn, type_delete_attr_fn, type_keyval, extra_state))
LWMPI_CALL(Type_free_keyval, RUNNING, (int *type_keyval), (type_keyval))
LWMPI_CALL(Type_set_attr, RUNNING, (MPI_Datatype datatype, int type_keyval, void *attribute_val),
                                    (datatype, type_keyval, attribute_val))
LWMPI_CALL(Type_get_attr, RUNNING, (MPI_Datatype datatype, int type_keyval, void *attribute_val,
                                    int *flag), (datatype, type_keyval, attribute_val, flag))
LWMPI_CALL(Type_delete_attr, RUNNING, (MPI_Datatype datatype, int type_keyval),
                                       (datatype, type_keyval))
/* the MPI-1 forms, deprecated in MPI 2.0 and still part of 3.1 */
LWMPI_CALL(Keyval_create, RUNNING, (MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn,
                                    int *keyval, void *extra_state),
                                    (copy_fn, delete_fn, keyval, extra_state))
LWMPI_CALL(Keyval_free, RUNNING, (int *keyval), (keyval))
LWMPI_CALL(Attr_put, RUNNING, (MPI_Comm comm, int keyval, void *attribute_val),
                               (comm, keyval, attribute_val))
LWMPI_CALL(Attr_get, RUNNING, (MPI_Comm comm, int keyval, void *attribute_val, int *flag),
                               (comm, keyval, attribute_val, flag))
LWMPI_CALL(Attr_delete, RUNNING, (MPI_Comm comm, int keyval), (comm, keyval))
/* 6.4.2 nonblocking duplication */
LWMPI_CALL(Comm_idup, RUNNING, (MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request),
                                (comm, newcomm, request))

/* 7. process topologies */
LWMPI_CALL(Cart_create, RUNNING, (MPI_Comm comm_old, int ndims, const int dims[],
                                  const int periods[], int reorder, MPI_Comm *comm_cart),
                                  (comm_old, ndims, dims, periods, reorder, comm_cart))
LWMPI_CALL(Dims_create, RUNNING, (int nnodes, int ndims, int dims[]), (nnodes, ndims, dims))
LWMPI_CALL(Graph_create, RUNNING, (MPI_Comm comm_old, int nnodes, const int index[],
                                   const int edges[], int reorder, MPI_Comm *comm_graph),
                                   (comm_old, nnodes, index, edges, reorder, comm_graph))
LWMPI_CALL(Dist_graph_create_adjacent, RUNNING, (MPI_Comm comm_old, int indegree,
                                                 const int sources[], const int sourceweights[],
                                                 int outdegree, const int destinations[],
                                                 const int destweights[], MPI_Info info,
                                                 int reorder, MPI_Comm *comm_dist_graph),
                                                 (comm_old, indegree, sources, sourceweights, outdegree, destinations, destweights, info, reorder, comm_dist_graph))
LWMPI_CALL(Dist_graph_create, RUNNING, (MPI_Comm comm_old, int n, const int sources[],
                                        const int degrees[], const int destinations[],
                                        const int weights[], MPI_Info info, int reorder,
                                        MPI_Comm *comm_dist_graph),
                                        (comm_old, n, sources, degrees, destinations, weights, info, reorder, comm_dist_graph))
LWMPI_CALL(Topo_test, RUNNING, (MPI_Comm comm, int *status), (comm, status))
LWMPI_CALL(Graphdims_get, RUNNING, (MPI_Comm comm, int *nnodes, int *nedges), (comm, nnodes, nedges))
LWMPI_CALL(Graph_get, RUNNING, (MPI_Comm comm, int maxindex, int maxedges, int index[],
                                int edges[]), (comm, maxindex, maxedges, index, edges))
LWMPI_CALL(Cartdim_get, RUNNING, (MPI_Comm comm, int *ndims), (comm, ndims))
LWMPI_CALL(Cart_get, RUNNING, (MPI_Comm comm, int maxdims, int dims[], int periods[],
                               int coords[]), (comm, maxdims, dims, periods, coords))
LWMPI_CALL(Cart_rank, RUNNING, (MPI_Comm comm, const int coords[], int *rank), (comm, coords, rank))
LWMPI_CALL(Cart_coords, RUNNING, (MPI_Comm comm, int rank, int maxdims, int coords[]),
                                  (comm, rank, maxdims, coords))
LWMPI_CALL(Graph_neighbors_count, RUNNING, (MPI_Comm comm, int rank, int *nneighbors),
                                            (comm, rank, nneighbors))
LWMPI_CALL(Graph_neighbors, RUNNING, (MPI_Comm comm, int rank, int maxneighbors,
                                      int neighbors[]), (comm, rank, maxneighbors, neighbors))
LWMPI_CALL(Dist_graph_neighbors_count, RUNNING, (MPI_Comm comm, int *indegree, int *outdegree,
                                                 int *weighted), (comm, indegree, outdegree, weighted))
LWMPI_CALL(Dist_graph_neighbors, RUNNING, (MPI_Comm comm, int maxindegree, int sources[],
                                           int sourceweights[], int maxoutdegree,
                                           int destinations[], int destweights[]),
                                           (comm, maxindegree, sources, sourceweights, maxoutdegree, destinations, destweights))
LWMPI_CALL(Cart_shift, RUNNING, (MPI_Comm comm, int direction, int disp, int *rank_source,
                                 int *rank_dest), (comm, direction, disp, rank_source, rank_dest))
LWMPI_CALL(Cart_sub, RUNNING, (MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm),
                               (comm, remain_dims, newcomm))
LWMPI_CALL(Cart_map, RUNNING, (MPI_Comm comm, int ndims, const int dims[], const int periods[],
                               int *newrank), (comm, ndims, dims, periods, newrank))
LWMPI_CALL(Graph_map, RUNNING, (MPI_Comm comm, int nnodes, const int index[], const int edges[],
                                int *newrank), (comm, nnodes, index, edges, newrank))
LWMPI_CALL(Neighbor_allgather, RUNNING, (const void *sendbuf, int sendcount,
                                         MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                         MPI_Datatype recvtype, MPI_Comm comm),
                                         (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm))
LWMPI_CALL(Neighbor_allgatherv, RUNNING, (const void *sendbuf, int sendcount,
                                          MPI_Datatype sendtype, void *recvbuf,
                                          const int recvcounts[], const int displs[],
                                          MPI_Datatype recvtype, MPI_Comm comm),
                                          (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm))
LWMPI_CALL(Neighbor_alltoall, RUNNING, (const void *sendbuf, int sendcount,
                                        MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                        MPI_Datatype recvtype, MPI_Comm comm),
                                        (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm))
LWMPI_CALL(Neighbor_alltoallv, RUNNING, (const void *sendbuf, const int sendcounts[],
                                         const int sdispls[], MPI_Datatype sendtype,
                                         void *recvbuf, const int recvcounts[],
                                         const int rdispls[], MPI_Datatype recvtype,
                                         MPI_Comm comm),
                                         (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm))
LWMPI_CALL(Neighbor_alltoallw, RUNNING, (const void *sendbuf, const int sendcounts[],
                                         const MPI_Aint sdispls[],
                                         const MPI_Datatype sendtypes[], void *recvbuf,
                                         const int recvcounts[], const MPI_Aint rdispls[],
                                         const MPI_Datatype recvtypes[], MPI_Comm comm),
                                         (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm))
/* 7.7 nonblocking neighbourhood collectives */
LWMPI_CALL(Ineighbor_allgather, RUNNING, (const void *sendbuf, int sendcount,
                                          MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                          MPI_Datatype recvtype, MPI_Comm comm,
                                          MPI_Request *request),
                                          (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request))
LWMPI_CALL(Ineighbor_allgatherv, RUNNING, (const void *sendbuf, int sendcount,
                                           MPI_Datatype sendtype, void *recvbuf,
                                           const int recvcounts[], const int displs[],
                                           MPI_Datatype recvtype, MPI_Comm comm,
                                           MPI_Request *request),
                                           (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, request))
LWMPI_CALL(Ineighbor_alltoall, RUNNING, (const void *sendbuf, int sendcount,
                                         MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                         MPI_Datatype recvtype, MPI_Comm comm,
                                         MPI_Request *request),
                                         (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request))
LWMPI_CALL(Ineighbor_alltoallv, RUNNING, (const void *sendbuf, const int sendcounts[],
                                          const int sdispls[], MPI_Datatype sendtype,
                                          void *recvbuf, const int recvcounts[],
                                          const int rdispls[], MPI_Datatype recvtype,
                                          MPI_Comm comm, MPI_Request *request),
                                          (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, request))
LWMPI_CALL(Ineighbor_alltoallw, RUNNING, (const void *sendbuf, const int sendcounts[],
                                          const MPI_Aint sdispls[],
                                          const MPI_Datatype sendtypes[], void *recvbuf,
                                          const int recvcounts[], const MPI_Aint rdispls[],
                                          const MPI_Datatype recvtypes[], MPI_Comm comm,
                                          MPI_Request *request),
                                          (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm, request))

/* 8. environment, errors */
LWMPI_CALL(Get_version, ANYTIME, (int *version, int *subversion), (version, subversion))
LWMPI_CALL(Get_library_version, ANYTIME, (char *version, int *resultlen), (version, resultlen))
LWMPI_CALL(Get_processor_name, RUNNING, (char *name, int *resultlen), (name, resultlen))
LWMPI_CALL(Alloc_mem, RUNNING, (MPI_Aint size, MPI_Info info, void *baseptr), (size, info, baseptr))
LWMPI_CALL(Free_mem, RUNNING, (void *base), (base))
LWMPI_CALL(Comm_create_errhandler, RUNNING, (MPI_Comm_errhandler_function *comm_errhandler_fn,
                                             MPI_Errhandler *errhandler),
                                             (comm_errhandler_fn, errhandler))
LWMPI_CALL(Comm_set_errhandler, RUNNING, (MPI_Comm comm, MPI_Errhandler errhandler),
                                          (comm, errhandler))
LWMPI_CALL(Comm_get_errhandler, RUNNING, (MPI_Comm comm, MPI_Errhandler *errhandler),
                                          (comm, errhandler))
LWMPI_CALL(Errhandler_free, RUNNING, (MPI_Errhandler *errhandler), (errhandler))
LWMPI_CALL(Error_string, ANYTIME, (int errorcode, char *string, int *resultlen),
                                   (errorcode, string, resultlen))
LWMPI_CALL(Error_class, ANYTIME, (int errorcode, int *errorclass), (errorcode, errorclass))
LWMPI_PLAIN(double, Wtime, (void), ())
LWMPI_PLAIN(double, Wtick, (void), ())
LWMPI_CALL(Init, ANYTIME, (int *argc, char ***argv), (argc, argv))
LWMPI_CALL(Finalize, RUNNING, (void), ())
LWMPI_CALL(Initialized, ANYTIME, (int *flag), (flag))
LWMPI_CALL(Finalized, ANYTIME, (int *flag), (flag))
LWMPI_CALL(Abort, RUNNING, (MPI_Comm comm, int errorcode), (comm, errorcode))

/* 8.3, 8.5 error classes and codes of the program, calling an error handler */
LWMPI_CALL(Comm_call_errhandler, RUNNING, (MPI_Comm comm, int errorcode), (comm, errorcode))
LWMPI_CALL(Add_error_class, RUNNING, (int *errorclass), (errorclass))
LWMPI_CALL(Add_error_code, RUNNING, (int errorclass, int *errorcode), (errorclass, errorcode))
LWMPI_CALL(Add_error_string, RUNNING, (int errorcode, const char *string), (errorcode, string))

/* 12.3 setting a status (for generalized requests and layered libraries) */
LWMPI_CALL(Status_set_elements, RUNNING, (MPI_Status *status, MPI_Datatype datatype, int count),
                                          (status, datatype, count))
LWMPI_CALL(Status_set_elements_x, RUNNING, (MPI_Status *status, MPI_Datatype datatype,
                                            MPI_Count count), (status, datatype, count))
LWMPI_CALL(Status_set_cancelled, RUNNING, (MPI_Status *status, int flag), (status, flag))
/* 9. info objects */
LWMPI_CALL(Info_create, RUNNING, (MPI_Info *info), (info))
LWMPI_CALL(Info_set, RUNNING, (MPI_Info info, const char *key, const char *value),
                               (info, key, value))
LWMPI_CALL(Info_delete, RUNNING, (MPI_Info info, const char *key), (info, key))
LWMPI_CALL(Info_get, RUNNING, (MPI_Info info, const char *key, int valuelen, char *value,
                               int *flag), (info, key, valuelen, value, flag))
LWMPI_CALL(Info_get_valuelen, RUNNING, (MPI_Info info, const char *key, int *valuelen,
                                        int *flag), (info, key, valuelen, flag))
LWMPI_CALL(Info_get_nkeys, RUNNING, (MPI_Info info, int *nkeys), (info, nkeys))
LWMPI_CALL(Info_get_nthkey, RUNNING, (MPI_Info info, int n, char *key), (info, n, key))
LWMPI_CALL(Info_dup, RUNNING, (MPI_Info info, MPI_Info *newinfo), (info, newinfo))
LWMPI_CALL(Info_free, RUNNING, (MPI_Info *info), (info))

/* 12.4 threads */
LWMPI_CALL(Init_thread, ANYTIME, (int *argc, char ***argv, int required, int *provided),
                                  (argc, argv, required, provided))
LWMPI_CALL(Query_thread, RUNNING, (int *provided), (provided))
LWMPI_CALL(Is_thread_main, RUNNING, (int *flag), (flag))

/* 14. profiling interface */
LWMPI_CALL(Pcontrol, RUNNING, (const int level, ...), (level))

/* 17.2.4 handle and status conversion between C and Fortran (MPI_Win and MPI_File: LWMPI
 * has neither) */
LWMPI_PLAIN(MPI_Fint, Comm_c2f, (MPI_Comm comm), (comm))
LWMPI_PLAIN(MPI_Comm, Comm_f2c, (MPI_Fint comm), (comm))
LWMPI_PLAIN(MPI_Fint, Type_c2f, (MPI_Datatype datatype), (datatype))
LWMPI_PLAIN(MPI_Datatype, Type_f2c, (MPI_Fint datatype), (datatype))
LWMPI_PLAIN(MPI_Fint, Group_c2f, (MPI_Group group), (group))
LWMPI_PLAIN(MPI_Group, Group_f2c, (MPI_Fint group), (group))
LWMPI_PLAIN(MPI_Fint, Request_c2f, (MPI_Request request), (request))
LWMPI_PLAIN(MPI_Request, Request_f2c, (MPI_Fint request), (request))
LWMPI_PLAIN(MPI_Fint, Op_c2f, (MPI_Op op), (op))
LWMPI_PLAIN(MPI_Op, Op_f2c, (MPI_Fint op), (op))
LWMPI_PLAIN(MPI_Fint, Info_c2f, (MPI_Info info), (info))
LWMPI_PLAIN(MPI_Info, Info_f2c, (MPI_Fint info), (info))
LWMPI_PLAIN(MPI_Fint, Errhandler_c2f, (MPI_Errhandler errhandler), (errhandler))
LWMPI_PLAIN(MPI_Errhandler, Errhandler_f2c, (MPI_Fint errhandler), (errhandler))
LWMPI_PLAIN(MPI_Fint, Message_c2f, (MPI_Message message), (message))
LWMPI_PLAIN(MPI_Message, Message_f2c, (MPI_Fint message), (message))
LWMPI_CALL(Status_c2f, RUNNING, (const MPI_Status *c_status, MPI_Fint *f_status),
                                 (c_status, f_status))
LWMPI_CALL(Status_f2c, RUNNING, (const MPI_Fint *f_status, MPI_Status *c_status),
                                 (f_status, c_status))
