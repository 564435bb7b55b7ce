/* CAP Bench problem classes: the one table of sizes the applications, the host reference
 * tool (capbench-ref) and the README read. Sizes are per compute cluster in use (weak
 * scaling): an application run on C clusters works on C times the per-cluster size. */
#ifndef CAP_CLASS_H
#define CAP_CLASS_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct cap_class {
    const char *name;
    uint32_t fn_per_cluster;  /* FN: numbers per cluster, from CAP_FN_FIRST                 */
    uint32_t gf_per_cluster;  /* GF: images per cluster                                     */
    uint32_t km_per_cluster;  /* KM: points per cluster                                     */
    uint32_t km_centroids;    /* KM: K                                                      */
    uint32_t km_iters;        /* KM: iterations I (fixed, so the work per rank is constant) */
    uint32_t a2a_iters;       /* A2A: messages per pair and size                            */
    /* LBM (benchmarks/lbm): one cavity whatever the clusters in use, as the paper measures
     * MLUPS against clusters on one lattice; the largest that fits one DDR is 48^3. */
    uint32_t lbm_size;        /* LBM: cavity edge N (N^3 nodes)                             */
    uint32_t lbm_steps;       /* LBM: time steps T                                          */
    uint32_t lbm_block;       /* LBM: block edge B (divides N)                              */
};

/* test: seconds on board small; small: a whole mppa256 weak-scaling sweep under 30 minutes
 * on a 2-core host; thesis: the thesis' Table 5 (KM iterations chosen here: the thesis
 * iterates to a threshold, a fixed count keeps the work per rank constant). */
static const struct cap_class cap_classes[] = {
    {"test", 48, 2, 480, 128, 3, 2, 16, 2, 4},
    {"small", 1056, 96, 6720, 128, 24, 4, 48, 2, 8},
    {"thesis", 1536, 1200, 13440, 128, 64, 10, 48, 6, 8},
};
#define CAP_CLASS_COUNT (sizeof cap_classes / sizeof cap_classes[0])
/* The reference table covers every cluster count 1..CAP_REF_MAX_CLUSTERS (LBM's one
 * entry per class, cluster count 0, holds for any). */
#define CAP_REF_MAX_CLUSTERS 16

#ifdef __cplusplus
}
#endif
#endif
