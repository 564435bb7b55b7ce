/* Rank threads: the one way a program's ranks start and end on a cluster, for every layer
 * that runs ranks (LWMPI, CAP Bench's raw-IKC layer).
 *
 * Rank i of the cluster runs on a thread of its own pinned to the cluster's i-th PE
 * (nvx_rank_hart), with the stack of the rule in nvx/rank_config.h. Each rank thread
 * first asks that a fault killing it end the program (NVX_SYS_FAULT_ENDS_PROGRAM: the
 * other ranks would wait for it forever; status 128 + cause, the kernel's report on the
 * console) and enters its own copy of the program's private globals
 * (nvx/private_globals.h), before the layer's setup hook and the rank's main touch any
 * global of the program; its main then gets its own copy of argv. The cluster's status is
 * the first non-zero status a rank's main returned.
 *
 * Failures end the cluster's program (the Spawn Server ends the run) with a message on the
 * console: a launch the cluster cannot run (more ranks than PEs or user ports, a bad
 * NVX_RANK_STACK) with status 2; stacks and private globals that do not fit the cluster's
 * free memory, or a rank without memory for its globals or its argv, with
 * NVX_EXIT_NO_ROOM (122), naming the sizes. */
#ifndef NVX_RANKS_H
#define NVX_RANKS_H

#include <stddef.h>
#include <stdint.h>

#include <nvx_abi.h>
#include <nvx/rank_config.h>

#ifdef __cplusplus
extern "C" {
#endif

struct nvx_rank_set {
    unsigned count;        /* ranks on this cluster, 1..NVX_RANKS_PER_CLUSTER_MAX        */
    const unsigned *world; /* their world ranks, for messages (NULL: their local index)  */
    int argc;              /* the program's arguments: each rank gets its own copy       */
    char **argv;
    /* Runs first in rank `index`'s thread, once it has its private globals (may be NULL):
     * the layer marks the thread as the rank's. */
    void (*setup)(unsigned index, void *data);
    /* The rank's program; its return value is the rank's status. */
    int (*main)(unsigned index, int argc, char **argv, void *data);
    void *data;            /* passed to both hooks                                       */
};

/* Ends the program with status 2 and a message if `count` ranks cannot run on this cluster
 * (not 1..min(its PEs, NVX_RANKS_PER_CLUSTER_MAX), or a bad NVX_RANK_STACK): a layer calls
 * it before it sets up anything per rank. nvx_ranks_run checks the same. */
void nvx_ranks_admit(unsigned count);

/* Checks that the ranks' stacks and private globals fit the cluster's free memory, runs
 * every rank to its end (from the calling thread, once per program) and returns the first
 * non-zero status a rank returned, else 0. */
int nvx_ranks_run(const struct nvx_rank_set *set);

/* The local hart rank `index` of this cluster is pinned to. */
static inline int nvx_rank_hart(const struct nvx_info *info, unsigned index)
{
    return (int)(info->first_user_hart + index);
}

/* --- the rules (pure functions) ------------------------------------------------------- */

/* A rank's stack for `count` ranks on a cluster of `user_memory` bytes; `setting` is
 * NVX_RANK_STACK (NULL or empty: the default rule). -1 if the setting is not a decimal
 * byte count of at least NVX_THREAD_STACK_MIN. */
int nvx_rank_stack_rule(uint64_t user_memory, unsigned count, const char *setting, size_t *stack);

/* Memory a rank's private globals of `bytes` take: the copy rounded up to pages and its
 * page tables; 0 for a program without private globals. */
uint64_t nvx_rank_private_bytes(size_t bytes);

/* Memory `count` ranks need before they start: stacks and private globals. */
uint64_t nvx_ranks_memory(unsigned count, size_t stack, size_t private_globals);

#ifdef __cplusplus
}
#endif

#endif
