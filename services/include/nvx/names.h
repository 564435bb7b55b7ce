/* Names of threads, as in the LWMPI thesis: the Name Server (first I/O cluster) knows
 * which node a name lives on, the Local Name Daemon of that node knows the port. Lookups
 * are cached per cluster. Functions return 0 or a negative errno:
 *   -EINVAL bad argument, -ENAMETOOLONG name over NVX_NAME_MAX, -EEXIST already linked,
 *   -ENOENT unknown name, -EPERM unlink of a name linked by another cluster,
 *   -ENOSPC a table is full. */
#ifndef NVX_NAMES_H
#define NVX_NAMES_H
#include <stdint.h>
#include <nvx/services.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Links `name` to (this cluster's node, port). */
int nvx_name_link(const char *name, unsigned port);
/* Removes a name this cluster linked. */
int nvx_name_unlink(const char *name);
/* Finds the (node, port) a name is linked to. */
int nvx_name_lookup(const char *name, unsigned *node, unsigned *port);

struct nvx_name_stats {
    uint64_t hits;    /* lookups answered from this cluster's cache          */
    uint64_t misses;  /* lookups that asked the Name Server and a daemon     */
    uint64_t served;  /* requests this cluster's daemon answered             */
    uint64_t undelivered; /* daemon answers the asker's reply port did not take */
};
int nvx_name_stats(struct nvx_name_stats *stats);
/* Empties this cluster's cache (answers may go stale after a remote unlink). */
void nvx_name_cache_flush(void);

#ifdef __cplusplus
}
#endif
#endif
