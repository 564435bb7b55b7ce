/* cap_comm.h over LWMPI (the "opt" and "unopt" builds: this one object, linked against
 * either variant of the library, which names itself in MPI_Get_library_version). Clusters come from MPI_Comm_split_type(SHARED); every
 * message is a plain MPI_Send/MPI_Recv of bytes with one tag on MPI_COMM_WORLD, which
 * keeps the per-pair order the interface promises. Ranks are threads that share the
 * program's globals, so every piece of state here is per rank (_Thread_local). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cap_comm.h"
#include "cap_mpi_build.h"

enum { kTag = 11 };

static _Thread_local int my_rank, world_size;
static _Thread_local int my_cluster, cluster_count, local_rank, local_size;
static _Thread_local int *local_members;   /* world rank of each local rank              */
static _Thread_local int *cluster_masters; /* world rank of each cluster's local master  */
static _Thread_local struct cap_stats stats;
static _Thread_local char build_name[16];

int cap_rank(void) { return my_rank; }
int cap_size(void) { return world_size; }
int cap_clusters(void) { return cluster_count; }
int cap_cluster(void) { return my_cluster; }
int cap_local_rank(void) { return local_rank; }
int cap_local_size(void) { return local_size; }
int cap_local_master_of(int cluster) { return cluster_masters[cluster]; }
int cap_local_member(int member) { return local_members[member]; }
const char *cap_build(void) { return build_name; }


void cap_stats_get(struct cap_stats *out) { *out = stats; }

_Noreturn void cap_abort(int status, const char *why)
{
    fprintf(stderr, "capbench: rank %d: %s\n", my_rank, why);
    MPI_Abort(MPI_COMM_WORLD, status);
    abort(); /* not reached: MPI_Abort ends the run */
}

/* Errors return here (MPI_ERRORS_RETURN on the world) so that every build ends a run for
 * the same fault with the same status: a longer message than the receive names is a size
 * mismatch, like a shorter one (check_count). */
static void check_call(int err, const char *call, int peer)
{
    if (err == MPI_SUCCESS) return;
    int cls = MPI_ERR_OTHER;
    MPI_Error_class(err, &cls);
    char why[MPI_MAX_ERROR_STRING + 64];
    int len = 0;
    char text[MPI_MAX_ERROR_STRING];
    MPI_Error_string(err, text, &len);
    snprintf(why, sizeof why, "%s%s with rank %d: %s", cls == MPI_ERR_TRUNCATE ? "size mismatch: " : "", call,
             peer, text);
    cap_abort(cls == MPI_ERR_TRUNCATE ? CAP_EXIT_SIZE_MISMATCH : CAP_EXIT_COMM, why);
}

static void check_count(const MPI_Status *st, size_t bytes)
{
    int got = 0;
    MPI_Get_count(st, MPI_BYTE, &got);
    if ((size_t)got != bytes) {
        char why[112];
        snprintf(why, sizeof why, "size mismatch: rank %d sent %d bytes, the receive expects %lu",
                 st->MPI_SOURCE, got, (unsigned long)bytes);
        cap_abort(CAP_EXIT_SIZE_MISMATCH, why);
    }
}

void cap_send(int dest, const void *buf, size_t bytes)
{
    uint64_t t0 = cap_cycles();
    check_call(MPI_Send(buf, (int)bytes, MPI_BYTE, dest, kTag, MPI_COMM_WORLD), "MPI_Send", dest);
    stats.comm_cycles += cap_cycles() - t0;
    stats.bytes_sent += bytes;
    stats.messages_sent++;
}

void cap_recv(int src, void *buf, size_t bytes)
{
    uint64_t t0 = cap_cycles();
    MPI_Status st;
    check_call(MPI_Recv(buf, (int)bytes, MPI_BYTE, src, kTag, MPI_COMM_WORLD, &st), "MPI_Recv", src);
    stats.comm_cycles += cap_cycles() - t0;
    check_count(&st, bytes);
}

int cap_recv_any(void *buf, size_t bytes)
{
    uint64_t t0 = cap_cycles();
    MPI_Status st;
    check_call(MPI_Recv(buf, (int)bytes, MPI_BYTE, MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &st), "MPI_Recv",
               MPI_ANY_SOURCE);
    stats.comm_cycles += cap_cycles() - t0;
    check_count(&st, bytes);
    return st.MPI_SOURCE;
}

/* Clusters in the order of their lowest rank: a rank leads its cluster when it is the
 * cluster's lowest rank (local rank 0 of a split keyed by world rank). */
static void find_clusters(void)
{
    MPI_Comm local;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, my_rank, MPI_INFO_NULL, &local);
    MPI_Comm_rank(local, &local_rank);
    MPI_Comm_size(local, &local_size);
    local_members = malloc(sizeof(int) * (size_t)local_size);
    int *leader_of = malloc(sizeof(int) * (size_t)world_size);
    cluster_masters = malloc(sizeof(int) * (size_t)world_size);
    if (!local_members || !leader_of || !cluster_masters)
        cap_abort(CAP_EXIT_COMM, "out of memory for the cluster tables");
    MPI_Allgather(&my_rank, 1, MPI_INT, local_members, 1, MPI_INT, local);
    MPI_Allgather(&local_members[0], 1, MPI_INT, leader_of, 1, MPI_INT, MPI_COMM_WORLD);
    cluster_count = 0;
    for (int r = 0; r < world_size; r++)
        if (leader_of[r] == r)
            cluster_masters[cluster_count++] = r; /* ascending: in the order of lowest rank */
    for (int c = 0; c < cluster_count; c++)
        if (cluster_masters[c] == local_members[0])
            my_cluster = c;
    free(leader_of);
    MPI_Comm_free(&local);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    cap_mpi_build_name(build_name, sizeof build_name);
    find_clusters();
    int status = cap_main(argc, argv);
    free(local_members);
    free(cluster_masters);
    MPI_Finalize();
    return status;
}
