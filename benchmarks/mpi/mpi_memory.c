/* LWMPI's own memory on one cluster, measured from the allocator and the kernel
 * (<nvx/memory.h>): run it with every rank on one cluster (--map-by compact). Rank 0
 * reads the cluster's memory while the others wait in a barrier, and prints one row:
 *   memory variant=V ranks=N cluster=B image=B lwmpi_heap=B helper_stacks=B rank_stack=B
 *          rank_stacks=B lwmpi=B alltoall_peak=B allreduce_peak=B heap_left=B heap_left_end=B
 * Method (all in bytes):
 *  - the "before" picture is nvx_memory_at_start(): the runtime takes it just before
 *    LWMPI's nvx_program_main starts anything;
 *  - lwmpi_heap: malloc'd bytes in use (mallinfo uordblks) after MPI_Init, minus before;
 *    it holds everything LWMPI allocated: its tables, its objects, the control blocks of
 *    its threads;
 *  - rank_stacks: ranks x the rank thread's stack (nvx_thread_stack_size());
 *    helper_stacks: the thread stacks mapped since the start (the runtime's count) minus
 *    the rank stacks: the receiver agent, the portal writers, the rank watchers;
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
static const uint64_t kNoRoom = ~(uint64_t)0;  /* the program's own buffers did not fit */

/* A peak, or "-" when the phase could not run for want of the program's buffers. */
static const char *peak_text(char *out, size_t n, uint64_t base, uint64_t extra)
{
    if (extra == kNoRoom) snprintf(out, n, "-");
    else snprintf(out, n, "%llu", (unsigned long long)(base + extra));
    return out;
}

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

static void fail(int rank, const char *what, int err)
{
    char text[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(err, text, &len);
    printf("mpi_memory: rank %d: %s: %s\n", rank, what, text);
    MPI_Abort(MPI_COMM_WORLD, 3);
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
    uint64_t left = 0;
    if (rank == 0) {
        nvx_memory_at_start(&before);
        nvx_memory_get(&after);
        left = after.free + after.heap_free;
    }
    uint64_t rank_stack = nvx_thread_stack_size();
    MPI_Barrier(MPI_COMM_WORLD);

    /* Alltoall of kPairBytes per rank pair. */
    char *s = malloc((size_t)size * kPairBytes), *r = malloc((size_t)size * kPairBytes);
    struct phase a2a = {0, 0, 0};
    uint64_t a2a_extra = kNoRoom;
    if (all_have(s != NULL && r != NULL)) {
        memset(s, rank, (size_t)size * kPairBytes);
        phase_start(rank, &a2a);
        for (int i = 0; i < iterations; i++) {
            int err = MPI_Alltoall(s, kPairBytes, MPI_BYTE, r, kPairBytes, MPI_BYTE, MPI_COMM_WORLD);
            if (err != MPI_SUCCESS) fail(rank, "MPI_Alltoall", err);
        }
        a2a_extra = phase_end(rank, &a2a);
        for (int k = 0; k < size; k++)
            if (r[(size_t)k * kPairBytes] != (char)k) fail(rank, "alltoall delivered wrong data", MPI_ERR_OTHER);
    }
    free(s);
    free(r);

    /* Allreduce of kAllreduceBytes, in place (the program's buffer once per rank). */
    int count = kAllreduceBytes / (int)sizeof(int);
    int *v = malloc(kAllreduceBytes);
    struct phase red = {0, 0, 0};
    uint64_t red_extra = kNoRoom;
    if (all_have(v != NULL)) {
        phase_start(rank, &red);
        for (int i = 0; i < iterations; i++) {
            for (int k = 0; k < count; k++) v[k] = rank + k;
            int err = MPI_Allreduce(MPI_IN_PLACE, v, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
            if (err != MPI_SUCCESS) fail(rank, "MPI_Allreduce", err);
        }
        red_extra = phase_end(rank, &red);
        if (v[1] != size * (size - 1) / 2 + size) fail(rank, "allreduce computed a wrong sum", MPI_ERR_OTHER);
    }
    free(v);

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        uint64_t left_end = heap_left();
        char lib[MPI_MAX_LIBRARY_VERSION_STRING];
        int len;
        MPI_Get_library_version(lib, &len);
        const char *variant = strstr(lib, "variant ") ? strstr(lib, "variant ") + 8 : "?";
        uint64_t lwmpi_heap = after.heap_in_use - before.heap_in_use;
        uint64_t rank_stacks = (uint64_t)size * rank_stack;
        uint64_t helper_stacks = after.stacks - before.stacks - rank_stacks;
        uint64_t lwmpi = lwmpi_heap + helper_stacks;
        char p1[24], p2[24];
        printf("memory variant=%s ranks=%d cluster=%llu image=%llu lwmpi_heap=%llu helper_stacks=%llu "
               "rank_stack=%llu rank_stacks=%llu lwmpi=%llu alltoall_peak=%s alltoall_slack=%llu "
               "allreduce_peak=%s allreduce_slack=%llu heap_left=%llu heap_left_end=%llu\n",
               variant, size, (unsigned long long)before.cluster, (unsigned long long)before.image,
               (unsigned long long)lwmpi_heap, (unsigned long long)helper_stacks,
               (unsigned long long)rank_stack, (unsigned long long)rank_stacks, (unsigned long long)lwmpi,
               peak_text(p1, sizeof p1, lwmpi, a2a_extra), (unsigned long long)a2a.slack,
               peak_text(p2, sizeof p2, lwmpi, red_extra), (unsigned long long)red.slack,
               (unsigned long long)left, (unsigned long long)left_end);
    }
    MPI_Finalize();
    return 0;
}
