/* CAP Bench KM (k-means), in the thesis' shape: each iteration the global master (rank 0)
 * sends the centroids to the local masters, which forward them to their workers; every
 * worker assigns its points to the nearest centroid and returns its partial sums (x, y and
 * count per centroid); the local master adds up all its workers' partials and sends the
 * cluster's sums to rank 0, which adds the clusters' and sets each centroid to the floor
 * of its points' mean (an empty centroid stays). Cluster c owns points [c*P, (c+1)*P),
 * split into equal blocks among its workers, which generate their own points (data is
 * defined per point, cap_km_x/y): rank 0's serial work is O(K x clusters) per iteration.
 * Output: km: points N, centroids K, iterations I, centroid hash H */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cap_app.h"
#include "cap_data.h"

#define KM_MAX_CENTROIDS 1024

struct km_sums {
    uint64_t x, y, count;
};

struct km_state {
    uint32_t k;
    uint32_t *centroids;    /* x, y pairs                                  */
    struct km_sums *sums;   /* this rank's (or cluster's) partial sums     */
    struct km_sums *other;  /* one received partial                        */
    uint32_t *points;       /* this rank's points, x, y pairs              */
    uint64_t point_count;
};

static void assign(struct km_state *s)
{
    memset(s->sums, 0, sizeof(struct km_sums) * s->k);
    for (uint64_t p = 0; p < s->point_count; p++) {
        int64_t px = s->points[2 * p], py = s->points[2 * p + 1];
        uint64_t best_d = UINT64_MAX;
        uint32_t best = 0;
        for (uint32_t c = 0; c < s->k; c++) {
            int64_t dx = px - (int64_t)s->centroids[2 * c], dy = py - (int64_t)s->centroids[2 * c + 1];
            uint64_t d = (uint64_t)(dx * dx + dy * dy);
            if (d < best_d) { /* strictly less: ties go to the lowest index */
                best_d = d;
                best = c;
            }
        }
        s->sums[best].x += (uint64_t)px;
        s->sums[best].y += (uint64_t)py;
        s->sums[best].count++;
    }
}

static void add_partial(struct km_state *s)
{
    for (uint32_t c = 0; c < s->k; c++) {
        s->sums[c].x += s->other[c].x;
        s->sums[c].y += s->other[c].y;
        s->sums[c].count += s->other[c].count;
    }
}

/* Local master, one iteration (centroids already in s): the cluster's sums into s->sums. */
static void cluster_iteration(struct km_state *s)
{
    size_t cbytes = sizeof(uint32_t) * 2 * s->k, sbytes = sizeof(struct km_sums) * s->k;
    if (cap_self_working()) {
        assign(s);
        return;
    }
    for (int w = 0; w < cap_workers(); w++)
        cap_send(cap_worker_rank(w), s->centroids, cbytes);
    memset(s->sums, 0, sbytes);
    for (int w = 0; w < cap_workers(); w++) {
        cap_recv(cap_worker_rank(w), s->other, sbytes);
        add_partial(s);
    }
}

int cap_main(int argc, char **argv)
{
    struct cap_run run;
    struct cap_option options[] = {
        {"per-cluster", &run.params.km_per_cluster, 1, 1u << 24, "points per cluster"},
        {"centroids", &run.params.km_centroids, 1, KM_MAX_CENTROIDS, "centroids K (at most the points)"},
        {"iters", &run.params.km_iters, 0, 1u << 20, "iterations I"},
    };
    int status = cap_begin(&run, "km", argc, argv, options, 3);
    if (status)
        return status;
    uint64_t per = run.params.km_per_cluster, clusters = (uint64_t)cap_clusters();
    struct km_state s = {.k = run.params.km_centroids};
    if (s.k > per) {
        if (cap_rank() == 0)
            fprintf(stderr, "km: %u centroids need at least as many points per cluster\n", s.k);
        return 2;
    }
    size_t cbytes = sizeof(uint32_t) * 2 * s.k, sbytes = sizeof(struct km_sums) * s.k;
    s.centroids = cap_alloc(cbytes, "km centroids");
    s.sums = cap_alloc(sbytes, "km sums");
    s.other = cap_alloc(sbytes, "km partial sums");
    /* This rank's points: its worker block of its cluster's points. */
    uint64_t first = 0;
    int w = cap_self_working() ? 0 : cap_local_rank() - 1;
    if (cap_self_working() || !cap_is_local_master()) {
        uint64_t lo = cap_block_lo(per, cap_workers(), w), hi = cap_block_lo(per, cap_workers(), w + 1);
        first = (uint64_t)cap_cluster() * per + lo;
        s.point_count = hi - lo;
    }
    s.points = cap_alloc(sizeof(uint32_t) * 2 * s.point_count, "km points");
    for (uint64_t p = 0; p < s.point_count; p++) {
        s.points[2 * p] = cap_km_x(first + p);
        s.points[2 * p + 1] = cap_km_y(first + p);
    }
    cap_start(&run);

    char line[128];
    uint64_t end = 0;
    if (!cap_is_local_master()) {
        for (uint32_t it = 0; it < run.params.km_iters; it++) {
            cap_recv(cap_local_member(0), s.centroids, cbytes);
            assign(&s);
            cap_send(cap_local_member(0), s.sums, sbytes);
        }
    } else if (cap_rank() != 0) {
        for (uint32_t it = 0; it < run.params.km_iters; it++) {
            cap_recv(0, s.centroids, cbytes);
            cluster_iteration(&s);
            cap_send(0, s.sums, sbytes);
        }
    } else {
        for (uint32_t c = 0; c < s.k; c++) {
            s.centroids[2 * c] = cap_km_x(c);
            s.centroids[2 * c + 1] = cap_km_y(c);
        }
        for (uint32_t it = 0; it < run.params.km_iters; it++) {
            for (uint64_t c = 1; c < clusters; c++)
                cap_send(cap_local_master_of((int)c), s.centroids, cbytes);
            cluster_iteration(&s);
            for (uint64_t c = 1; c < clusters; c++) {
                cap_recv(cap_local_master_of((int)c), s.other, sbytes);
                add_partial(&s);
            }
            for (uint32_t c = 0; c < s.k; c++)
                if (s.sums[c].count) {
                    s.centroids[2 * c] = (uint32_t)(s.sums[c].x / s.sums[c].count);
                    s.centroids[2 * c + 1] = (uint32_t)(s.sums[c].y / s.sums[c].count);
                }
        }
        uint64_t hash = CAP_FNV_BASIS;
        for (uint32_t i = 0; i < 2 * s.k; i++) {
            uint8_t le[4] = {(uint8_t)s.centroids[i], (uint8_t)(s.centroids[i] >> 8),
                             (uint8_t)(s.centroids[i] >> 16), (uint8_t)(s.centroids[i] >> 24)};
            hash = cap_fnv1a(hash, le, sizeof le);
        }
        end = cap_cycles();
        snprintf(line, sizeof line, "km: points %" PRIu64 ", centroids %u, iterations %u, centroid hash 0x%016" PRIx64,
                 per * clusters, s.k, run.params.km_iters, hash);
    }
    free(s.centroids);
    free(s.sums);
    free(s.other);
    free(s.points);
    return cap_finish(&run, end, cap_rank() == 0 ? line : NULL);
}
