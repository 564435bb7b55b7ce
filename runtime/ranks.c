/* Rank threads (nvx/ranks.h): admission, the memory check, start, the first failure. */
#include <nvx/ranks.h>

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvx/private_globals.h>
#include <nvx/syscall.h>
#include <nvx/thread.h>

/* What a run shares with its rank threads, on the caller's stack (stacks are shared by
 * the cluster's threads, whatever the linker makes private). */
struct run {
    const struct nvx_rank_set *set;
    int first_failure;
};

struct rank_slot {
    struct run *run;
    unsigned index;
    nvx_thread_t thread;
};

static struct nvx_info cluster_info(void)
{
    struct nvx_info info;
    if (nvx_sys_info(&info) < 0) memset(&info, 0, sizeof info);
    return info;
}

static unsigned world_rank(const struct rank_slot *slot)
{
    const unsigned *world = slot->run->set->world;
    return world != NULL ? world[slot->index] : slot->index;
}

__attribute__((format(printf, 2, 3))) static _Noreturn void end_program(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("[ranks] ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    fflush(stdout);
    fflush(stderr);
    nvx_sys_exit(status);
}

/* The rank stack of `count` ranks on the cluster *info describes; ends the program if the
 * cluster cannot run them. */
static size_t admit(unsigned count, struct nvx_info *info)
{
    *info = cluster_info();
    unsigned most = info->user_harts < NVX_RANKS_PER_CLUSTER_MAX ? info->user_harts : NVX_RANKS_PER_CLUSTER_MAX;
    if (count < 1 || count > most)
        end_program(2, "cluster %u: cannot start %u ranks: at most %u (each takes a PE of its %u and one of the %u user "
                    "ports)",
                    (unsigned)info->cluster, count, most, (unsigned)info->user_harts, NVX_RANKS_PER_CLUSTER_MAX);
    const char *setting = getenv("NVX_RANK_STACK");
    size_t stack;
    if (nvx_rank_stack_rule(info->user_memory, count, setting, &stack) != 0)
        end_program(2, "cluster %u: cannot start the ranks: NVX_RANK_STACK '%s' is not a byte count of at least %u",
                    (unsigned)info->cluster, setting, NVX_THREAD_STACK_MIN);
    return stack;
}

void nvx_ranks_admit(unsigned count)
{
    struct nvx_info info;
    admit(count, &info);
}

/* Name the sizes: the launcher names a board with more memory per cluster on this status. */
static _Noreturn void ranks_do_not_fit(unsigned count, size_t stack)
{
    struct nvx_info now = cluster_info();
    size_t globals = nvx_private_globals_size();
    char globals_part[160] = " (no private globals)";
    if (globals != 0)
        snprintf(globals_part, sizeof globals_part,
                 " and %llu KiB for its copy of the %zu bytes of private globals, page tables included",
                 (unsigned long long)(nvx_rank_private_bytes(globals) / 1024), globals);
    end_program(NVX_EXIT_NO_ROOM,
                "cluster %u: %u ranks do not fit: each takes a %zu KiB stack%s, %llu KiB in all; %llu KiB of the "
                "cluster's %llu KiB are free (nvx-run --rank-stack sets a rank's stack)",
                (unsigned)now.cluster, count, stack / 1024, globals_part,
                (unsigned long long)(nvx_ranks_memory(count, stack, globals) / 1024),
                (unsigned long long)(now.free_memory / 1024), (unsigned long long)(now.user_memory / 1024));
}

static _Noreturn void rank_without_memory(const struct rank_slot *slot, const char *what, uint64_t bytes)
{
    struct nvx_info now = cluster_info();
    end_program(NVX_EXIT_NO_ROOM,
                "rank %u (cluster %u, PE %d): no memory for its %s (%llu bytes; %llu KiB of the cluster's %llu KiB are "
                "free): ending the run",
                world_rank(slot), (unsigned)now.cluster, nvx_rank_hart(&now, slot->index), what,
                (unsigned long long)bytes, (unsigned long long)(now.free_memory / 1024),
                (unsigned long long)(now.user_memory / 1024));
}

/* A rank's own argv (pointers and strings, one block): programs rewrite theirs
 * (MPI_Init(&argc, &argv), getopt's permutations, strtok) as if they owned it. */
static char **argv_copy(const struct rank_slot *slot, int argc, char **argv)
{
    size_t bytes = sizeof(char *) * (size_t)(argc + 1);
    for (int i = 0; i < argc; i++) bytes += strlen(argv[i]) + 1;
    char **copy = malloc(bytes);
    if (copy == NULL) rank_without_memory(slot, "copy of the arguments", bytes);
    char *text = (char *)(copy + argc + 1);
    for (int i = 0; i < argc; i++) {
        size_t n = strlen(argv[i]) + 1;
        memcpy(text, argv[i], n);
        copy[i] = text;
        text += n;
    }
    copy[argc] = NULL;
    return copy;
}

static void *rank_thread(void *arg)
{
    struct rank_slot *slot = arg;
    nvx_sys_fault_ends_program(); /* a kernel call: it touches no global */
    int err = nvx_private_globals_enter((int)world_rank(slot));
    if (err == ENOMEM)
        rank_without_memory(slot, "private globals and their page tables",
                            nvx_rank_private_bytes(nvx_private_globals_size()));
    if (err != 0) end_program(2, "rank %u: cannot enter its private globals (error %d)", world_rank(slot), err);
    const struct nvx_rank_set *set = slot->run->set;
    if (set->setup != NULL) set->setup(slot->index, set->data);
    char **argv = argv_copy(slot, set->argc, set->argv);
    int status = set->main(slot->index, set->argc, argv, set->data);
    free(argv);
    int none = 0;
    if (status != 0)
        __atomic_compare_exchange_n(&slot->run->first_failure, &none, status, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    return (void *)(intptr_t)status;
}

int nvx_ranks_run(const struct nvx_rank_set *set)
{
    struct nvx_info info;
    size_t stack = admit(set->count, &info);
    if (info.free_memory < nvx_ranks_memory(set->count, stack, nvx_private_globals_size()))
        ranks_do_not_fit(set->count, stack);
    struct run run = {set, 0};
    struct rank_slot slots[NVX_RANKS_PER_CLUSTER_MAX];
    for (unsigned i = 0; i < set->count; i++) {
        slots[i] = (struct rank_slot){&run, i, NULL};
        nvx_thread_attr_t attr = {stack, nvx_rank_hart(&info, i)};
        int err = nvx_thread_create(&slots[i].thread, &attr, rank_thread, &slots[i]);
        if (err == EAGAIN) ranks_do_not_fit(set->count, stack);
        if (err != 0)
            end_program(2, "cluster %u: cannot start rank %u (error %d)", (unsigned)info.cluster, world_rank(&slots[i]),
                        err);
    }
    for (unsigned i = 0; i < set->count; i++) nvx_thread_join(slots[i].thread, NULL);
    fflush(stdout);
    return __atomic_load_n(&run.first_failure, __ATOMIC_ACQUIRE);
}
