/* LWMPI's own memory on one cluster, measured from the allocator and the kernel
 * (<nvx/memory.h>): run it with every rank on one cluster (--map-by compact), or with
 * more, and rank 0's cluster is measured. Rank 0 reads the cluster's memory while the
 * others wait in a barrier, and prints (bytes; N: ranks in all, H: on rank 0's cluster):
 *   memory variant=V ranks=N ranks_here=H cluster=B image=B lwmpi_heap=B helper_stacks=B
 *          rank_stack=B rank_stacks=B lwmpi=B heap_left=B            (after MPI_Init)
 *   memory-phase NAME peak=B slack=B   or   memory-phase NAME failed=ERROR  (per collective)
 *   memory-end heap_left_end=B
 * Method (all in bytes):
 *  - the "before" picture is nvx_memory_at_start(): the runtime takes it just before
 *    LWMPI's nvx_program_main starts anything;
 *  - lwmpi_heap: malloc'd bytes in use (mallinfo uordblks) after MPI_Init, minus before;
 *    it holds everything LWMPI allocated: its tables, its objects, the control blocks of
 *    its threads;
 *  - rank_stacks: H x the rank thread's stack (nvx_thread_stack_size());
 *    helper_stacks: the thread stacks mapped since the start (the runtime's count) minus
 *    the rank stacks (0: LWMPI starts no helper thread);
 *  - lwmpi = lwmpi_heap + helper_stacks (rank stacks apart);
 *  - X_peak: lwmpi plus what the collective X made the heap take beyond its top when the
 *    phase began (malloc's high-water mark of its sbrk'd memory, reset at the phase's
 *    start, after the program's own buffers were allocated) plus stacks mapped during it;
 *    free chunks inside the heap are reused first, so heap_free_at_phase_start bounds
 *    what a peak may have hidden (printed as X_slack);
 *  - heap_left: what the program's heap can still take after MPI_Init: the pages no one
 *    holds (the kernel's count) plus malloc's free bytes; heap_left_end: the most the
 *    program could malloc at the end, found by allocating the largest blocks that succeed
 *    until none of 4 KiB does (then freed; a probe after MPI_Init would have turned every
 *    free page into heap, leaving none for stacks LWMPI starts on demand).
 * Argument: iterations of each collective (default 3). */
#include <mpi.h>
#include <nvx/memory.h>
#include <nvx/thread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kPairBytes = 4096, kAllreduceBytes = 64 * 1024, kProbeMin = 4096 };



/* The most the heap can still give, in blocks of at least kProbeMin; everything is freed. */
static uint64_t heap_left(void)
{
    void *blocks[256];
    int n = 0;
    uint64_t total = 0;
    size_t size = (size_t)1 << 30;
    while (size >= kProbeMin && n < 256) {
        void *p = malloc(size);
        if (p == NULL) {
            size /= 2;
            continue;
        }
        blocks[n++] = p;
        total += size;
    }
    while (n > 0) free(blocks[--n]);
    return total;
}

struct phase {
    uint64_t top, slack, stacks;
};

/* Rank 0 starts a phase's measurement while every other rank waits. */
static void phase_start(int rank, struct phase *p)
{
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        struct nvx_memory m;
        nvx_memory_reset_peak();
        nvx_memory_get(&m);
        p->top = m.heap_top;
        p->slack = m.heap_free;
        p->stacks = m.stacks;
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* What the phase took beyond its start: heap high-water above the top, new stacks. */
static uint64_t phase_end(int rank, const struct phase *p)
{
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank != 0) return 0;
    struct nvx_memory m;
    nvx_memory_get(&m);
    return (m.heap_peak - p->top) + (m.stacks - p->stacks);
}

/* Every rank got its buffers: the phase runs only then (a rank alone would wait forever). */
static int all_have(int have)
{
    int all = 0;
    MPI_Allreduce(&have, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all;
}

/* A collective failed on this rank (the others may wait for it): say so and end the run. */
static void fail(const char *phase, int err)
{
    char text[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(err, text, &len);
    printf("memory-phase %s failed=%s\n", phase, text);
    MPI_Abort(MPI_COMM_WORLD, 3);
}

/* What a phase took beyond LWMPI's level after MPI_Init, on rank 0. */
static void report_phase(int rank, const char *name, uint64_t lwmpi, uint64_t extra, uint64_t slack)
{
    if (rank == 0)
        printf("memory-phase %s peak=%llu slack=%llu\n", name, (unsigned long long)(lwmpi + extra),
               (unsigned long long)slack);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int iterations = argc > 1 ? atoi(argv[1]) : 3;

    MPI_Barrier(MPI_COMM_WORLD);
    struct nvx_memory before, after;
    if (rank == 0) {
        nvx_memory_at_start(&before);
        nvx_memory_get(&after);
    }
    /* The ranks on rank 0's cluster (its rank stacks), asked once the picture is taken. */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Comm here;
    int ranks_here = 0;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &here) != MPI_SUCCESS ||
        MPI_Comm_size(here, &ranks_here) != MPI_SUCCESS || MPI_Comm_free(&here) != MPI_SUCCESS)
        fail("MPI_Comm_split_type", MPI_ERR_OTHER);
    uint64_t lwmpi = 0;
    if (rank == 0) {
        uint64_t rank_stack = nvx_thread_stack_size();
        uint64_t lwmpi_heap = after.heap_in_use - before.heap_in_use;
        uint64_t rank_stacks = (uint64_t)ranks_here * rank_stack;
        uint64_t helper_stacks = after.stacks - before.stacks - rank_stacks;
        lwmpi = lwmpi_heap + helper_stacks;
        char lib[MPI_MAX_LIBRARY_VERSION_STRING];
        int len;
        MPI_Get_library_version(lib, &len);
        const char *variant = strstr(lib, "variant ") ? strstr(lib, "variant ") + 8 : "?";
        printf("memory variant=%s ranks=%d ranks_here=%d cluster=%llu image=%llu lwmpi_heap=%llu helper_stacks=%llu "
               "rank_stack=%llu rank_stacks=%llu lwmpi=%llu heap_left=%llu\n",
               variant, size, ranks_here, (unsigned long long)before.cluster, (unsigned long long)before.image,
               (unsigned long long)lwmpi_heap, (unsigned long long)helper_stacks, (unsigned long long)rank_stack,
               (unsigned long long)rank_stacks, (unsigned long long)lwmpi,
               (unsigned long long)(after.free + after.heap_free));
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* Alltoall of kPairBytes per rank pair. */
    char *s = malloc((size_t)size * kPairBytes), *r = malloc((size_t)size * kPairBytes);
    if (all_have(s != NULL && r != NULL)) {
        memset(s, rank, (size_t)size * kPairBytes);
        struct phase a2a;
        phase_start(rank, &a2a);
        for (int i = 0; i < iterations; i++) {
            int err = MPI_Alltoall(s, kPairBytes, MPI_BYTE, r, kPairBytes, MPI_BYTE, MPI_COMM_WORLD);
            if (err != MPI_SUCCESS) fail("alltoall", err);
        }
        report_phase(rank, "alltoall", lwmpi, phase_end(rank, &a2a), a2a.slack);
        for (int k = 0; k < size; k++)
            if (r[(size_t)k * kPairBytes] != (char)k) fail("alltoall", MPI_ERR_OTHER);
    } else if (rank == 0) {
        printf("memory-phase alltoall failed=no room for the program's buffers\n");
    }
    free(s);
    free(r);

    /* Allreduce of kAllreduceBytes, in place (the program's buffer once per rank). */
    int count = kAllreduceBytes / (int)sizeof(int);
    int *v = malloc(kAllreduceBytes);
    if (all_have(v != NULL)) {
        struct phase red;
        phase_start(rank, &red);
        for (int i = 0; i < iterations; i++) {
            for (int k = 0; k < count; k++) v[k] = rank + k;
            int err = MPI_Allreduce(MPI_IN_PLACE, v, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
            if (err != MPI_SUCCESS) fail("allreduce", err);
        }
        report_phase(rank, "allreduce", lwmpi, phase_end(rank, &red), red.slack);
        if (v[1] != size * (size - 1) / 2 + size) fail("allreduce", MPI_ERR_OTHER);
    } else if (rank == 0) {
        printf("memory-phase allreduce failed=no room for the program's buffers\n");
    }
    free(v);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("memory-end heap_left_end=%llu\n", (unsigned long long)heap_left());
    MPI_Finalize();
    return 0;
}
