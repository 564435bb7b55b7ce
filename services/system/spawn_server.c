/* The Spawn Server: places the launcher's program on the compute clusters (rank count,
 * mapping policy and ranks per cluster from the boot arguments), sends each its image
 * through the portals, then gathers exit statuses (believing only the system program of the
 * cluster a report is about) and powers the board off with the program's status.
 *   argv: spawn np=N map=compact|scatter ppc=N image=BYTES [env=NAME=VALUE...] -- program [args...]
 * Options end at "--": whatever follows is the program's name and arguments, each word
 * percent-encoded by the launcher (nvx/argcode.h), so a name such as np=3 or an argument
 * with spaces arrives exactly. env= entries (launcher options such as --rank-stack) go
 * into the program's environment. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <nvx/argcode.h>
#include <nvx/clock.h>
#include <nvx/placement.h>
#include <nvx/thread.h>
#include "protocol.h"
#include "system.h"

#define STRINGS_MAX NVX_ARGS_MAX_BYTES /* what NVX_SYS_EXEC takes */
#define EXTRA_ENV_MAX 4

struct launch_args {
    unsigned ranks;
    int policy;
    unsigned per_cluster;                   /* ppc=: at most this many ranks per cluster */
    unsigned long image_size;
    int first_program_arg;
    unsigned extra_env;                     /* env=NAME=VALUE entries, NAME=VALUE part */
    const char *env[EXTRA_ENV_MAX];
};

/* A decimal number, nothing else; -1 otherwise. */
static int parse_number(const char *text, unsigned long *out)
{
    char *end;
    if (*text < '0' || *text > '9') return -1;
    *out = strtoul(text, &end, 10);
    return *end == '\0' && *out <= 0xffffffffu ? 0 : -1;
}

static int parse_args(int argc, char **argv, struct launch_args *a)
{
    memset(a, 0, sizeof *a);
    a->policy = -1;
    unsigned long v = 0;
    int i = 1;
    for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (strncmp(argv[i], "np=", 3) == 0 && parse_number(argv[i] + 3, &v) == 0) a->ranks = (unsigned)v;
        else if (strncmp(argv[i], "ppc=", 4) == 0 && parse_number(argv[i] + 4, &v) == 0) a->per_cluster = (unsigned)v;
        else if (strncmp(argv[i], "map=", 4) == 0) a->policy = nvx_map_policy_parse(argv[i] + 4);
        else if (strncmp(argv[i], "image=", 6) == 0 && parse_number(argv[i] + 6, &v) == 0) a->image_size = v;
        else if (strncmp(argv[i], "env=", 4) == 0 && strchr(argv[i] + 4, '=') != 0 && a->extra_env < EXTRA_ENV_MAX)
            a->env[a->extra_env++] = argv[i] + 4;
        else return -1;
    }
    if (i == argc) return -1; /* no "--": no program */
    a->first_program_arg = ++i;
    for (int k = i; k < argc; k++)
        if (nvx_arg_decode(argv[k]) < 0) return -1;
    return a->ranks > 0 && a->policy >= 0 && a->per_cluster > 0 && a->image_size > 0 && i < argc ? 0 : -1;
}

/* Appends one NUL-terminated string to out[*n..STRINGS_MAX); -1 (and nothing more will
 * fit) when it does not fit. */
static int append(char *out, int *n, const char *format, ...)
{
    if (*n >= STRINGS_MAX) return -1;
    va_list ap;
    va_start(ap, format);
    int len = vsnprintf(out + *n, (size_t)(STRINGS_MAX - *n), format, ap);
    va_end(ap);
    if (len < 0 || len + 1 > STRINGS_MAX - *n) {
        *n = STRINGS_MAX;
        return -1;
    }
    *n += len + 1;
    return 0;
}

/* argv strings, an empty string, then the environment: the layout NVX_SYS_EXEC takes. */
static int build_strings(char *out, int argc, char **argv, const struct launch_args *a, unsigned clusters,
                         unsigned pes, const unsigned *cluster_of, unsigned cluster)
{
    int n = 0;
    for (int i = a->first_program_arg; i < argc; i++) append(out, &n, "%s", argv[i]);
    append(out, &n, "");
    append(out, &n, "NVX_RANKS=%u", a->ranks);
    append(out, &n, "NVX_MAP=%s", nvx_map_policy_name(a->policy));
    append(out, &n, "NVX_PPC=%u", a->per_cluster);
    append(out, &n, "NVX_CLUSTERS=%u", clusters);
    append(out, &n, "NVX_PES=%u", pes);
    for (unsigned e = 0; e < a->extra_env; e++) append(out, &n, "%s", a->env[e]);
    /* the rank list, built in place: "NVX_RANK_LIST=" then the ranks separated by commas */
    static char list[STRINGS_MAX];
    int used = snprintf(list, sizeof list, "NVX_RANK_LIST=");
    const char *separator = "";
    for (unsigned r = 0; r < a->ranks && used < (int)sizeof list; r++) {
        if (cluster_of[r] != cluster) continue;
        used += snprintf(list + used, sizeof list - (size_t)used, "%s%u", separator, r);
        separator = ",";
    }
    if (used >= (int)sizeof list) return -1;
    if (append(out, &n, "%s", list) != 0) return -1;
    return n < STRINGS_MAX ? n : -1;
}

static void describe_end(unsigned cluster, unsigned status)
{
    if (status >= NVX_EXIT_KILLED && status < NVX_EXIT_KILLED + 32)
        printf("[spawn] cluster %u: program killed (exception cause %u), status %u\n", cluster, status - NVX_EXIT_KILLED,
               status);
    else
        printf("[spawn] cluster %u: program exited with status %u\n", cluster, status);
}

/* A cluster whose kernel asked for a board reset was ended by the firmware (only the
 * control cluster may reset the board): that is the cluster's end, with its own status. */
static void *watch_cluster_ends(void *arg)
{
    (void)arg;
    for (;;) {
        long cluster = nvx_cluster_end_wait();
        if (cluster < 0) return 0;
        printf("[spawn] cluster %ld: its kernel asked for a board reset; the firmware ended that cluster, status %u\n",
               cluster, NVX_EXIT_CLUSTER_RESET);
        printf("[spawn] run failed: ending the run with status %u\n", NVX_EXIT_CLUSTER_RESET);
        nvx_poweroff(NVX_EXIT_CLUSTER_RESET);
    }
}

static long g_reports = -1;
static unsigned g_exited;
static unsigned long g_forged_reports;

/* The next report a spawn client sent. Only the system program of the cluster a report is
 * about may send it (the NoC stamps the node, that cluster's kernel the system mark): any
 * other report is forged, ignored and counted. */
static int read_report(struct nvx_spawn_report *r)
{
    for (;;) {
        struct nvx_mailbox_origin from;
        if (nvx_mailbox_read_from(g_reports, r, sizeof *r, &from) != sizeof *r) continue;
        long node = r->cluster < 64 ? nvx_node_of(r->cluster, 0) : -1;
        if ((from.flags & NVX_ORIGIN_SYSTEM) && node >= 0 && from.node == (unsigned long)node) return 0;
        g_forged_reports++;
    }
}

/* Refused requests and undelivered answers of the services, for the final report. */
static void report_refusals(void)
{
    printf("[services] ignored %lu forged exit reports and %lu forged name requests; %lu name answers not taken\n",
           g_forged_reports, __atomic_load_n(&g_name_server_counters.forged, __ATOMIC_RELAXED),
           __atomic_load_n(&g_name_server_counters.undelivered, __ATOMIC_RELAXED));
}

/* An exit report: the first failure ends the run (other clusters may wait for it forever). */
static void take_exit(const struct nvx_spawn_report *r)
{
    if (r->status != 0) {
        describe_end(r->cluster, r->status);
        report_refusals();
        printf("[spawn] run failed: ending the run with status %u\n", r->status);
        nvx_poweroff(r->status);
    }
    g_exited++;
}

/* Asks `cluster` to take the program; sends it once the client holds the memory for it.
 * Exit reports of clusters started earlier may arrive meanwhile. 0, or the run's status:
 * the client's when it refused (NVX_EXIT_NO_ROOM: the program does not fit). */
static int send_program(unsigned cluster, const void *image, unsigned long image_size, const char *strings,
                        int strings_size)
{
    unsigned node = (unsigned)nvx_node_of(cluster, 0);
    struct nvx_spawn_request req = {(uint32_t)image_size, (uint32_t)strings_size};
    long box = nvx_mailbox_open(node, NVX_SPAWN_CLIENT_PORT);
    long portal = nvx_portal_open(node, NVX_SPAWN_CLIENT_PORT);
    int ok = box >= 0 && portal >= 0 && nvx_mailbox_write(box, &req, sizeof req) == sizeof req;
    int failure = NVX_EXIT_NOT_RUN;
    while (ok) {
        struct nvx_spawn_report r;
        read_report(&r);
        if (r.kind == NVX_SPAWN_EXITED) take_exit(&r);
        else if (r.cluster != cluster) continue;
        else if (r.kind == NVX_SPAWN_REFUSED) {
            ok = 0;
            if (r.status != 0) failure = (int)r.status;
        }
        else break;
    }
    ok = ok && nvx_portal_write(portal, image, image_size) == (long)image_size &&
         nvx_portal_write(portal, strings, (size_t)strings_size) == strings_size;
    nvx_mailbox_close(box);
    nvx_portal_close(portal);
    return ok ? 0 : failure;
}

int spawn_server_main(int argc, char **argv)
{
    struct nvx_info info;
    nvx_sys_info(&info);
    struct launch_args a;
    if (argc < 2 || strcmp(argv[0], "spawn") != 0 || parse_args(argc, argv, &a) != 0) {
        printf("[spawn] nothing to launch (boot arguments: spawn np=N map=P ppc=N image=BYTES -- program [args])\n");
        return argc < 2 ? 0 : 2;
    }
    unsigned clusters = info.compute_count, pes = info.compute_user_harts;
    unsigned first_compute = info.cluster_count - info.compute_count;
    unsigned *cluster_of = malloc(sizeof(unsigned) * a.ranks);
    if (!cluster_of || nvx_place_ranks(a.ranks, clusters, pes, a.per_cluster, a.policy, cluster_of) != 0) {
        printf("[spawn] cannot place %u ranks on %u clusters of %u PEs, at most %u per cluster\n", a.ranks, clusters,
               pes, a.per_cluster);
        return 2;
    }
    long image = nvx_map_image(a.image_size);
    g_reports = nvx_mailbox_create(info.node, NVX_SPAWN_SERVER_PORT);
    if (image < 0 || g_reports < 0) {
        printf("[spawn] cannot read the program image (%ld) or listen (%ld)\n", image, g_reports);
        return 2;
    }
    nvx_thread_t watcher;
    if (nvx_thread_create(&watcher, 0, watch_cluster_ends, 0) != 0) {
        printf("[spawn] cannot watch for ended clusters\n");
        return 2;
    }
    unsigned long start = nvx_rdtime();
    unsigned spawned = 0;
    static char strings[STRINGS_MAX];
    for (unsigned k = 0; k < clusters; k++) {
        unsigned here = 0;
        for (unsigned r = 0; r < a.ranks; r++) here += cluster_of[r] == k;
        if (here == 0) continue;
        int size = build_strings(strings, argc, argv, &a, clusters, pes, cluster_of, k);
        int failure = size < 0 ? NVX_EXIT_NOT_RUN
                               : send_program(first_compute + k, (const void *)image, a.image_size, strings, size);
        if (failure != 0) {
            printf("[spawn] cannot start %s on cluster %u: run failed\n", argv[a.first_program_arg], first_compute + k);
            nvx_poweroff((unsigned)failure);
        }
        spawned++;
    }
    unsigned long took = (nvx_rdtime() - start) * 1000000ul / NVX_TIMER_HZ;
    printf("[spawn] %s: %u ranks (%s) on %u clusters, started in %lu us (%lu us per cluster)\n",
           argv[a.first_program_arg], a.ranks, nvx_map_policy_name(a.policy), spawned, took,
           spawned ? took / spawned : 0);
    while (g_exited < spawned) {
        struct nvx_spawn_report r;
        read_report(&r);
        if (r.kind == NVX_SPAWN_EXITED) take_exit(&r);
    }
    report_refusals();
    printf("[spawn] all %u clusters exited with status 0\n", spawned);
    nvx_poweroff(0);
    return 0;
}
