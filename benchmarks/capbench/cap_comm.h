/* The thin communication layer CAP Bench applications are written against: one source per
 * application, one implementation of this header per build, chosen at link time:
 *   comm_mpi.c  LWMPI (the "opt" and "unopt" builds: the same object, linked against either
 *               variant of the library);
 *   comm_ikc.c  the raw IKC API (the "ipc" build, the thesis' Nanvix IPC baseline: static
 *               addressing, no name service, every message through the NoC, local ones too).
 * Ranks are threads in both: each compute cluster that got ranks runs the program once and
 * one thread per rank placed there runs cap_main(). Messages are point-to-point, blocking,
 * untagged and in order per (sender, receiver) pair; a receive names the exact size it
 * expects, and a size mismatch ends the run (cap_abort). */
#ifndef CAP_COMM_H
#define CAP_COMM_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The application's entry point, run by every rank after the layer is up. Its return
 * value is the rank's exit status (0 = verified success). */
int cap_main(int argc, char **argv);

/* --- who am I ------------------------------------------------------------------------ */
int cap_rank(void);          /* 0 .. cap_size()-1; rank 0 is the global master            */
int cap_size(void);
int cap_clusters(void);      /* compute clusters that got ranks                            */
int cap_cluster(void);       /* this rank's cluster among them, 0 .. cap_clusters()-1,
                                numbered in the order of their lowest rank                  */
int cap_local_rank(void);    /* position among the ranks of this cluster (0 = local master) */
int cap_local_size(void);    /* ranks on this cluster                                      */
int cap_local_master_of(int cluster); /* world rank of that cluster's local master        */
int cap_local_member(int local_rank); /* world rank of that rank of this cluster           */
const char *cap_build(void); /* "opt", "unopt" or "ipc": recorded in every result line     */

/* --- messages ------------------------------------------------------------------------ */
void cap_send(int dest, const void *buf, size_t bytes);
void cap_recv(int src, void *buf, size_t bytes);
/* Receives the next message of `bytes` bytes from any rank; returns the sender. */
int cap_recv_any(void *buf, size_t bytes);

/* --- time and accounting ------------------------------------------------------------- */
uint64_t cap_cycles(void);   /* the board clock of this hart, in cycles                    */
double cap_seconds(uint64_t cycles); /* cycles of cap_cycles() in seconds                  */

struct cap_stats {
    uint64_t bytes_sent;     /* payload bytes this rank sent                               */
    uint64_t messages_sent;  /* messages this rank sent                                    */
    uint64_t comm_cycles;    /* cycles this rank spent inside cap_send / cap_recv*         */
};
void cap_stats_get(struct cap_stats *out);

/* Exit statuses of the layer, the same in every build (the applications use 0 for a
 * verified result, 2 for bad arguments and 3 for a wrong result). */
#define CAP_EXIT_SIZE_MISMATCH 4 /* a receive named another size than the send        */
#define CAP_EXIT_COMM 5          /* bad rank, a failed transfer, a protocol violation  */

/* Ends the whole run at once with `status` (non-zero), after printing `why`. */
_Noreturn void cap_abort(int status, const char *why);

#ifdef __cplusplus
}
#endif
#endif
