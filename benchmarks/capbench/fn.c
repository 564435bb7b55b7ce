/* CAP Bench FN (friendly numbers), in the thesis' shape: the global master (rank 0) gives
 * each cluster's local master an equal range of A..A+N-1, the local master splits it
 * equally among its workers, each worker finds sigma(n) by trial division (the benchmark's
 * work) and returns the abundances sigma(n)/n as reduced fractions with its partial sigma
 * sum; the local master sorts its cluster's fractions, and rank 0 merges the clusters'
 * sorted lists counting equal abundances. Rank 0's serial part is the merge, O(N x
 * clusters) comparisons, against about n/2 divisions per number in the workers: it stays
 * a small fraction of the run at 192 ranks (see README, CAP Bench).
 * Output: fn: numbers A..B, sigma sum S, friendly pairs P */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "cap_app.h"
#include "cap_data.h"

/* Largest number allowed: keeps sigma(n) and the reduced numerator below 2^32, so that a
 * fraction packs into one 64-bit word (numerator high, denominator low). */
#define FN_MAX_NUMBER (1u << 26)

struct fn_task {
    uint64_t first; /* first number */
    uint64_t count; /* numbers */
};

static uint64_t sigma_by_trial_division(uint64_t n)
{
    uint64_t sum = n;
    for (uint64_t d = 1; d <= n / 2; d++)
        if (n % d == 0)
            sum += d;
    return sum;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* out[0] = the sigma sum, out[1..count] = the packed reduced fractions sigma(n)/n. */
static void compute(struct fn_task t, uint64_t *out)
{
    out[0] = 0;
    for (uint64_t i = 0; i < t.count; i++) {
        uint64_t n = t.first + i, s = sigma_by_trial_division(n), g = gcd(s, n);
        out[0] += s;
        out[1 + i] = (s / g) << 32 | (n / g);
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Local master: splits the cluster's task among the workers and collects their results
 * into out (sum, then the cluster's fractions in ascending order). */
static void local_master(struct fn_task t, uint64_t *out)
{
    int workers = cap_workers();
    if (cap_self_working()) {
        compute(t, out);
    } else {
        for (int w = 0; w < workers; w++) {
            uint64_t lo = cap_block_lo(t.count, workers, w), hi = cap_block_lo(t.count, workers, w + 1);
            struct fn_task part = {t.first + lo, hi - lo};
            cap_send(cap_worker_rank(w), &part, sizeof part);
        }
        out[0] = 0;
        for (int w = 0; w < workers; w++) {
            uint64_t lo = cap_block_lo(t.count, workers, w), hi = cap_block_lo(t.count, workers, w + 1);
            /* the worker's sum lands on out[lo], its fractions after it: keep ours aside */
            uint64_t kept = out[lo];
            cap_recv(cap_worker_rank(w), &out[lo], (hi - lo + 1) * sizeof(uint64_t));
            uint64_t partial = out[lo];
            out[lo] = kept;
            out[0] += partial;
        }
    }
    qsort(out + 1, t.count, sizeof(uint64_t), cmp_u64);
}

/* Counts unordered pairs of equal values over `lists` sorted lists (k-way merge). */
static uint64_t count_equal_pairs(uint64_t *const *lists, const uint64_t *lengths, int count)
{
    uint64_t *pos = cap_alloc(sizeof(uint64_t) * (size_t)count, "fn merge positions");
    uint64_t pairs = 0, run = 0, current = 0;
    for (int l = 0; l < count; l++)
        pos[l] = 0;
    for (;;) {
        int best = -1;
        for (int l = 0; l < count; l++)
            if (pos[l] < lengths[l] && (best < 0 || lists[l][pos[l]] < lists[best][pos[best]]))
                best = l;
        if (best < 0)
            break;
        uint64_t v = lists[best][pos[best]++];
        if (run > 0 && v == current) {
            pairs += run; /* v pairs with each equal value before it */
            run++;
        } else {
            current = v;
            run = 1;
        }
    }
    free(pos);
    return pairs;
}

int cap_main(int argc, char **argv)
{
    struct cap_run run;
    uint32_t first = (uint32_t)CAP_FN_FIRST;
    struct cap_option options[] = {
        {"per-cluster", &run.params.fn_per_cluster, 1, 1u << 20, "numbers per cluster"},
        {"first", &first, 1, FN_MAX_NUMBER, "first number A"},
    };
    int status = cap_begin(&run, "fn", argc, argv, options, 2);
    if (status)
        return status;
    run.overridden |= first != CAP_FN_FIRST;
    uint64_t per = run.params.fn_per_cluster, clusters = (uint64_t)cap_clusters();
    uint64_t total = per * clusters;
    if (first + total - 1 > FN_MAX_NUMBER) {
        if (cap_rank() == 0)
            fprintf(stderr, "fn: numbers up to %u only\n", FN_MAX_NUMBER);
        return 2;
    }
    cap_start(&run);

    char line[160];
    uint64_t end = 0;
    if (!cap_is_local_master()) {
        struct fn_task t;
        cap_recv(cap_local_member(0), &t, sizeof t);
        uint64_t *out = cap_alloc((t.count + 1) * sizeof(uint64_t), "fn results");
        compute(t, out);
        cap_send(cap_local_member(0), out, (t.count + 1) * sizeof(uint64_t));
        free(out);
    } else if (cap_rank() != 0) {
        struct fn_task t;
        cap_recv(0, &t, sizeof t);
        uint64_t *out = cap_alloc((per + 1) * sizeof(uint64_t), "fn cluster results");
        local_master(t, out);
        cap_send(0, out, (per + 1) * sizeof(uint64_t));
        free(out);
    } else {
        /* Global master: cluster c gets numbers [A + c*per, A + (c+1)*per). */
        for (uint64_t c = 1; c < clusters; c++) {
            struct fn_task t = {first + c * per, per};
            cap_send(cap_local_master_of((int)c), &t, sizeof t);
        }
        uint64_t *all = cap_alloc(clusters * (per + 1) * sizeof(uint64_t), "fn all results");
        local_master((struct fn_task){first, per}, all);
        uint64_t sigma_sum = all[0];
        uint64_t **lists = cap_alloc(sizeof(uint64_t *) * clusters, "fn lists");
        uint64_t *lengths = cap_alloc(sizeof(uint64_t) * clusters, "fn list lengths");
        lists[0] = all + 1;
        lengths[0] = per;
        for (uint64_t c = 1; c < clusters; c++) {
            uint64_t *seg = all + c * (per + 1);
            cap_recv(cap_local_master_of((int)c), seg, (per + 1) * sizeof(uint64_t));
            sigma_sum += seg[0];
            lists[c] = seg + 1;
            lengths[c] = per;
        }
        uint64_t pairs = count_equal_pairs(lists, lengths, (int)clusters);
        end = cap_cycles();
        free(all);
        free(lists);
        free(lengths);
        snprintf(line, sizeof line, "fn: numbers %" PRIu64 "..%" PRIu64 ", sigma sum %" PRIu64
                 ", friendly pairs %" PRIu64, (uint64_t)first, first + total - 1, sigma_sum, pairs);
    }
    return cap_finish(&run, end, cap_rank() == 0 ? line : NULL);
}
