/* The shared part of the CAP Bench applications (see cap_app.h). Ranks are threads that
 * share a cluster's globals: nothing here keeps state outside the caller's cap_run. */
#include "cap_app.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(const char *app, struct cap_option *options, int option_count)
{
    if (cap_rank() != 0)
        return;
    fprintf(stderr, "usage: %s [--class test|small|thesis]", app);
    for (int i = 0; i < option_count; i++)
        fprintf(stderr, " [--%s N]", options[i].name);
    fprintf(stderr, "\n  --class C  problem class (default test); sizes are per cluster in use (LBM's cavity: "
                    "the same on any cluster count)\n");
    for (int i = 0; i < option_count; i++)
        fprintf(stderr, "  --%s N  %s (%u..%u)\n", options[i].name, options[i].help,
                (unsigned)options[i].min, (unsigned)options[i].max);
}

static const struct cap_class *find_class(const char *name)
{
    for (unsigned i = 0; i < CAP_CLASS_COUNT; i++)
        if (strcmp(cap_classes[i].name, name) == 0)
            return &cap_classes[i];
    return NULL;
}

int cap_begin(struct cap_run *run, const char *app, int argc, char **argv,
              struct cap_option *options, int option_count)
{
    memset(run, 0, sizeof *run);
    run->app = app;
    run->params = cap_classes[0];
    /* The class first, wherever it stands, so that overrides apply on top of it. */
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--class") == 0) {
            const struct cap_class *c = find_class(argv[i + 1]);
            if (!c) {
                if (cap_rank() == 0)
                    fprintf(stderr, "%s: unknown class '%s'\n", app, argv[i + 1]);
                usage(app, options, option_count);
                return 2;
            }
            run->params = *c;
        }
    const struct cap_class chosen = run->params;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--class") == 0 && i + 1 < argc) {
            i++;
            continue;
        }
        int known = 0;
        for (int o = 0; o < option_count && !known; o++) {
            if (strncmp(argv[i], "--", 2) != 0 || strcmp(argv[i] + 2, options[o].name) != 0)
                continue;
            known = 1;
            char *end = NULL;
            unsigned long v = i + 1 < argc ? strtoul(argv[i + 1], &end, 10) : 0;
            if (i + 1 >= argc || *argv[i + 1] == '\0' || *end != '\0' || v < options[o].min ||
                v > options[o].max) {
                if (cap_rank() == 0)
                    fprintf(stderr, "%s: --%s needs a number in %u..%u\n", app, options[o].name,
                            (unsigned)options[o].min, (unsigned)options[o].max);
                usage(app, options, option_count);
                return 2;
            }
            *options[o].value = (uint32_t)v;
            i++;
        }
        if (!known) {
            if (cap_rank() == 0)
                fprintf(stderr, "%s: unknown option '%s'\n", app, argv[i]);
            usage(app, options, option_count);
            return 2;
        }
    }
    run->overridden = memcmp(&chosen, &run->params, sizeof chosen) != 0;
    return 0;
}

int cap_is_local_master(void) { return cap_local_rank() == 0; }
int cap_self_working(void) { return cap_local_size() == 1; }
int cap_workers(void) { return cap_self_working() ? 1 : cap_local_size() - 1; }
int cap_worker_rank(int w) { return cap_self_working() ? cap_rank() : cap_local_member(w + 1); }

void *cap_alloc(size_t bytes, const char *what)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        char why[96];
        snprintf(why, sizeof why, "out of memory for %s (%lu bytes)", what, (unsigned long)bytes);
        cap_abort(1, why);
    }
    return p;
}

/* Every rank reports to its local master, local masters to rank 0; then back. */
uint64_t cap_sum_all(uint64_t mine)
{
    uint64_t sum = mine, other;
    if (!cap_is_local_master()) {
        cap_send(cap_local_member(0), &mine, sizeof mine);
        cap_recv(cap_local_member(0), &sum, sizeof sum);
        return sum;
    }
    for (int m = 1; m < cap_local_size(); m++) {
        cap_recv(cap_local_member(m), &other, sizeof other);
        sum += other;
    }
    if (cap_rank() == 0) {
        for (int c = 1; c < cap_clusters(); c++) {
            cap_recv(cap_local_master_of(c), &other, sizeof other);
            sum += other;
        }
        for (int c = 1; c < cap_clusters(); c++)
            cap_send(cap_local_master_of(c), &sum, sizeof sum);
    } else {
        cap_send(0, &sum, sizeof sum);
        cap_recv(0, &sum, sizeof sum);
    }
    for (int m = 1; m < cap_local_size(); m++)
        cap_send(cap_local_member(m), &sum, sizeof sum);
    return sum;
}

void cap_start(struct cap_run *run)
{
    cap_sum_all(0);
    cap_stats_get(&run->at_start);
    run->start = cap_cycles();
}

static void add_stats(struct cap_stats *sum, const struct cap_stats *s)
{
    sum->bytes_sent += s->bytes_sent;
    sum->messages_sent += s->messages_sent;
    sum->comm_cycles += s->comm_cycles;
}

/* Sums every rank's statistics of the measured region at rank 0 (same tree as above). */
static struct cap_stats gather_stats(const struct cap_run *run)
{
    struct cap_stats now, mine, other;
    cap_stats_get(&now);
    mine.bytes_sent = now.bytes_sent - run->at_start.bytes_sent;
    mine.messages_sent = now.messages_sent - run->at_start.messages_sent;
    mine.comm_cycles = now.comm_cycles - run->at_start.comm_cycles;
    add_stats(&mine, &run->io);
    if (!cap_is_local_master()) {
        cap_send(cap_local_member(0), &mine, sizeof mine);
        return mine;
    }
    for (int m = 1; m < cap_local_size(); m++) {
        cap_recv(cap_local_member(m), &other, sizeof other);
        add_stats(&mine, &other);
    }
    if (cap_rank() != 0) {
        cap_send(0, &mine, sizeof mine);
        return mine;
    }
    for (int c = 1; c < cap_clusters(); c++) {
        cap_recv(cap_local_master_of(c), &other, sizeof other);
        add_stats(&mine, &other);
    }
    return mine;
}

static const char *expected_result(const struct cap_run *run)
{
    if (run->overridden)
        return NULL;
    for (unsigned i = 0; i < cap_expected_count; i++) {
        const struct cap_expected *e = &cap_expected_table[i];
        if ((e->clusters == cap_clusters() || e->clusters == 0) && strcmp(e->app, run->app) == 0 &&
            strcmp(e->class_name, run->params.name) == 0)
            return e->result;
    }
    return NULL;
}

/* Rank 0 prints the summary line of the run; returns the exit status. */
static int report(const struct cap_run *run, uint64_t end, const struct cap_stats *total, const char *verified)
{
    uint64_t cycles = end - run->start;
    printf("capbench: app=%s build=%s ranks=%d clusters=%d class=%s cycles=%llu seconds=%.6f "
           "comm_cycles=%llu bytes=%llu messages=%llu verified=%s\n",
           run->app, cap_build(), cap_size(), cap_clusters(),
           run->params.name, (unsigned long long)cycles,
           cap_seconds(cycles), (unsigned long long)(total->comm_cycles / (uint64_t)cap_size()),
           (unsigned long long)total->bytes_sent, (unsigned long long)total->messages_sent, verified);
    fflush(stdout);
    return strcmp(verified, "no") == 0 ? 3 : 0;
}

int cap_finish(struct cap_run *run, uint64_t end, const char *result)
{
    struct cap_stats total = gather_stats(run);
    if (cap_rank() != 0)
        return 0;
    const char *expected = expected_result(run);
    const char *verified = !expected ? "no-reference" : strcmp(expected, result) == 0 ? "yes" : "no";
    printf("%s\n", result);
    int status = report(run, end, &total, verified);
    if (status)
        fprintf(stderr, "%s: result mismatch, the host reference says: %s\n", run->app, expected);
    return status;
}

int cap_finish_checked(struct cap_run *run, uint64_t end, int verified)
{
    struct cap_stats total = gather_stats(run);
    if (cap_rank() != 0)
        return 0;
    return report(run, end, &total, verified ? "yes" : "no");
}
