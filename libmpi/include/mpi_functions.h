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
LWMPI_CALL(Comm_get_attr, RUNNING, (MPI_Comm comm, int comm_keyval, void *attribute_val,
                                    int *flag), (comm, comm_keyval, attribute_val, flag))
LWMPI_CALL(Comm_set_name, RUNNING, (MPI_Comm comm, const char *comm_name), (comm, comm_name))
LWMPI_CALL(Comm_get_name, RUNNING, (MPI_Comm comm, char *comm_name, int *resultlen),
                                    (comm, comm_name, resultlen))
LWMPI_CALL(Type_set_name, RUNNING, (MPI_Datatype datatype, const char *type_name),
                                    (datatype, type_name))
LWMPI_CALL(Type_get_name, RUNNING, (MPI_Datatype datatype, char *type_name, int *resultlen),
                                    (datatype, type_name, resultlen))

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
LWMPI_CALL(Finalize, ANYTIME, (void), ())
LWMPI_CALL(Initialized, ANYTIME, (int *flag), (flag))
LWMPI_CALL(Finalized, ANYTIME, (int *flag), (flag))
LWMPI_CALL(Abort, RUNNING, (MPI_Comm comm, int errorcode), (comm, errorcode))

/* 12.4 threads */
LWMPI_CALL(Init_thread, ANYTIME, (int *argc, char ***argv, int required, int *provided),
                                  (argc, argv, required, provided))
LWMPI_CALL(Query_thread, RUNNING, (int *provided), (provided))
LWMPI_CALL(Is_thread_main, RUNNING, (int *flag), (flag))
