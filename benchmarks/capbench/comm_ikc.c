/* cap_comm.h over the raw IKC API: the "ipc" build, the thesis' Nanvix IPC baseline.
 *
 * Addressing is static: world rank r lives on compute cluster cluster_of[r] (the launch
 * placement, nvx_place_ranks) at position local_of[r] among that cluster's ranks; its
 * mailbox and its portal are port FIRST_PORT + local_of[r] of that cluster's node. No
 * name service, no helper thread: every rank reads its own mailbox, and messages between
 * ranks of one cluster go through the kernel's IKC like the others.
 *
 * Handshake (mailbox control messages, 8-byte header): the receiver clears the sender.
 *   receive first:  R -> S  CTS(n)  ... S -> R  DATA(n bytes)           (n <= SMALL_MAX)
 *                                   ... S -> R  READY, portal write     (larger)
 *   send first:     S -> R  RTS(m), then as above once R receives.
 * A receiver allows the sender's node on its portal before sending CTS, and blocks in
 * its portal read only after READY, when the writer is committed: portal reads of a node
 * are served in order, so a read must never wait for a writer that is not writing.
 * Every wait is a blocking mailbox read of the rank's own mailbox; control messages that
 * arrive for another transfer are kept per peer (at most one RTS and one CTS per peer:
 * a rank has one send or one receive open at a time), so buffering is bounded and
 * nothing is dropped. The sender checks the receiver's size (or the receiver the
 * sender's) and a mismatch ends the run with CAP_EXIT_SIZE_MISMATCH.
 *
 * The rank threads are the runtime's (nvx/ranks.h), as LWMPI's are: pinned to the first
 * PEs, the same stack rule, a rank's fault ends the run with 128 + cause. */
#include "cap_comm.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvx/ikc.h>
#include <nvx/launch.h>
#include <nvx/placement.h>
#include <nvx/ranks.h>
#include <nvx/services.h>
#include <nvx/syscall.h>
#include <nvx/thread.h>

/* The launch does not fit the layer's limits (cap_comm.h has the others). */
#define CAP_EXIT_LAUNCH 2        /* the launch does not fit the layer's limits       */

/* Ports: programs own NVX_FIRST_USER_PORT..NVX_IKC_PORTS-1 of every node; a rank uses
 * the same number for its mailbox and its portal. */
#define FIRST_PORT NVX_FIRST_USER_PORT
_Static_assert(FIRST_PORT + NVX_RANKS_PER_CLUSTER_MAX <= NVX_IKC_PORTS, "every rank of a full cluster has its ports");
/* Virtual mailboxes and portals of a cluster's kernel (nvx_abi.h): the ranks' inputs take
 * one of each, the rest is shared out as caches of open outputs, minus a margin for the
 * runtime. */
#define IKC_ENDPOINTS (NVX_IKC_MAILBOXES < NVX_IKC_PORTALS ? NVX_IKC_MAILBOXES : NVX_IKC_PORTALS)
#define IKC_ENDPOINT_MARGIN 4
#define OUTPUT_CACHE_MAX 8
_Static_assert(IKC_ENDPOINTS - IKC_ENDPOINT_MARGIN >= 2 * NVX_RANKS_PER_CLUSTER_MAX,
               "every rank of a full cluster has its input and at least one cached output of each kind");

/* --- wire --------------------------------------------------------------------------- */
enum msg_kind { MSG_RTS = 1, MSG_CTS = 2, MSG_DATA = 3, MSG_READY = 4 };

struct msg {
    uint8_t kind;
    uint8_t pad;
    uint16_t from;   /* world rank of the writer */
    uint32_t bytes;  /* RTS: bytes sent; CTS: bytes expected; DATA: payload bytes */
    uint8_t payload[NVX_MAILBOX_MSG_MAX - 8];
};
#define MSG_HEADER 8u
#define SMALL_MAX (NVX_MAILBOX_MSG_MAX - MSG_HEADER) /* larger payloads go by portal */
_Static_assert(sizeof(struct msg) == NVX_MAILBOX_MSG_MAX, "one mailbox message");

/* --- the world as launched (shared by the ranks of this cluster) ----------------------- */
static struct {
    int size;                 /* world ranks                                            */
    int here;                 /* ranks on this cluster                                  */
    int clusters;             /* compute clusters that got ranks                        */
    unsigned *cluster_of;     /* world rank -> compute cluster index (placement)        */
    int *local_of;            /* world rank -> position among its cluster's ranks       */
    uint32_t *node_of;        /* compute cluster index -> NoC node                      */
    int *used_index;          /* compute cluster index -> its number among used ones    */
    int *master_of;           /* used cluster number -> world rank of its local master  */
    unsigned out_slots;       /* cached output endpoints per rank, of each kind         */
} g;

struct out_cache {
    int peer;                 /* world rank, -1 = free */
    long id;
    uint64_t last_use;
};

struct rank {
    int world;
    int local;
    long mailbox;             /* own input endpoints */
    long portal;
    int64_t *cts;             /* per peer: bytes it cleared us to send (-1: none)        */
    int64_t *rts;             /* per peer: bytes it announced (-1: none)                 */
    int *rts_order;           /* peers with an RTS kept, in arrival order (ring)         */
    unsigned rts_head, rts_count;
    int data_from;            /* peer whose DATA/READY we wait for (-1: none)            */
    int64_t expect;           /* bytes of that receive                                   */
    struct out_cache *mailboxes, *portals;
    uint64_t uses;
    struct cap_stats stats;
};

static struct rank *g_ranks;
static _Thread_local struct rank *t_self;

/* --- failure ------------------------------------------------------------------------- */
_Noreturn void cap_abort(int status, const char *why)
{
    int code = status & 0xff;
    if (code == 0) code = 1; /* 0 would read as success and leave the other clusters waiting */
    printf("cap: rank %d: %s: ending the run with status %d\n", t_self ? t_self->world : -1, why, code);
    fflush(stdout);
    fflush(stderr);
    nvx_sys_exit(code); /* the cluster ends; the Spawn Server ends the run on it */
}

__attribute__((format(printf, 2, 3))) static _Noreturn void failf(int status, const char *fmt, ...)
{
    char why[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    cap_abort(status, why);
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (p == NULL) failf(CAP_EXIT_COMM, "out of memory (%lu bytes)", (unsigned long)(n * size));
    return p;
}

/* --- who am I ------------------------------------------------------------------------ */
int cap_rank(void) { return t_self->world; }
int cap_size(void) { return g.size; }
int cap_clusters(void) { return g.clusters; }
int cap_cluster(void) { return g.used_index[g.cluster_of[t_self->world]]; }
int cap_local_rank(void) { return t_self->local; }
int cap_local_size(void) { return g.here; }
const char *cap_build(void) { return "ipc"; }

int cap_local_master_of(int cluster)
{
    if (cluster < 0 || cluster >= g.clusters) failf(CAP_EXIT_COMM, "cap_local_master_of(%d): no such cluster", cluster);
    return g.master_of[cluster];
}

int cap_local_member(int local_rank)
{
    if (local_rank < 0 || local_rank >= g.here) failf(CAP_EXIT_COMM, "cap_local_member(%d): no such local rank", local_rank);
    return g_ranks[local_rank].world;
}

void cap_stats_get(struct cap_stats *out) { *out = t_self->stats; }

/* --- endpoints ----------------------------------------------------------------------- */
static uint32_t node_of_rank(int r) { return g.node_of[g.cluster_of[r]]; }
static unsigned port_of_rank(int r) { return FIRST_PORT + (unsigned)g.local_of[r]; }

/* An output endpoint towards `peer`, from the rank's small LRU cache (the cluster's
 * endpoint tables are shared by its ranks, so each keeps only out_slots open). */
static long output_to(struct out_cache *cache, int peer, int portal)
{
    struct out_cache *victim = &cache[0];
    for (unsigned i = 0; i < g.out_slots; i++) {
        if (cache[i].peer == peer) {
            cache[i].last_use = ++t_self->uses;
            return cache[i].id;
        }
        if (cache[i].peer < 0 || (victim->peer >= 0 && cache[i].last_use < victim->last_use)) victim = &cache[i];
    }
    if (victim->peer >= 0) {
        long err = portal ? nvx_portal_close(victim->id) : nvx_mailbox_close(victim->id);
        if (err < 0) failf(CAP_EXIT_COMM, "closing an output to rank %d failed (%ld)", victim->peer, err);
        victim->peer = -1;
    }
    long id = portal ? nvx_portal_open(node_of_rank(peer), port_of_rank(peer))
                     : nvx_mailbox_open(node_of_rank(peer), port_of_rank(peer));
    if (id < 0) failf(CAP_EXIT_COMM, "cannot open the %s of rank %d (%ld)", portal ? "portal" : "mailbox", peer, id);
    *victim = (struct out_cache){peer, id, ++t_self->uses};
    return id;
}

static void post(int peer, enum msg_kind kind, uint32_t bytes, const void *payload)
{
    struct msg m;
    m.kind = (uint8_t)kind;
    m.pad = 0;
    m.from = (uint16_t)t_self->world;
    m.bytes = bytes;
    size_t length = MSG_HEADER;
    if (kind == MSG_DATA && bytes > 0) {
        memcpy(m.payload, payload, bytes);
        length += bytes;
    }
    long err = nvx_mailbox_write(output_to(t_self->mailboxes, peer, 0), &m, length);
    if (err < 0) failf(CAP_EXIT_COMM, "mailbox write to rank %d failed (%ld)", peer, err);
}

/* --- control messages kept for later --------------------------------------------------- */
static void keep_rts(struct rank *me, int from, uint32_t bytes)
{
    if (me->rts[from] >= 0) failf(CAP_EXIT_COMM, "protocol: second RTS from rank %d", from);
    me->rts[from] = bytes;
    me->rts_order[(me->rts_head + me->rts_count++) % (unsigned)g.size] = from;
}

/* Takes the RTS of `from` out of the arrival order (it is usually at the head). */
static void drop_rts(struct rank *me, int from)
{
    unsigned n = (unsigned)g.size, k = 0;
    while (me->rts_order[(me->rts_head + k) % n] != from) k++;
    for (; k > 0; k--) me->rts_order[(me->rts_head + k) % n] = me->rts_order[(me->rts_head + k - 1) % n];
    me->rts_head = (me->rts_head + 1) % n;
    me->rts_count--;
    me->rts[from] = -1;
}

/* Blocks in the rank's mailbox for one message and files it. DATA goes to `buf` (it can
 * only be the one awaited: a rank clears one sender at a time). Returns 1 if it was the
 * awaited DATA or READY. */
static int read_one(void *buf)
{
    struct rank *me = t_self;
    struct msg m;
    m.kind = 0;
    m.from = 0;
    long got = nvx_mailbox_read(me->mailbox, &m, sizeof m);
    if (got < (long)MSG_HEADER || m.from >= g.size)
        failf(CAP_EXIT_COMM, "bad mailbox message (length %ld, from %u)", got, (unsigned)m.from);
    switch (m.kind) {
    case MSG_RTS:
        if (m.from == me->data_from) {
            /* crossed: the sender announced before our CTS reached it; same message */
            if (m.bytes != (uint64_t)me->expect)
                failf(CAP_EXIT_SIZE_MISMATCH, "size mismatch: rank %d sends %u bytes, the receive expects %lld",
                      m.from, m.bytes, (long long)me->expect);
            return 0;
        }
        keep_rts(me, m.from, m.bytes);
        return 0;
    case MSG_CTS:
        if (me->cts[m.from] >= 0) failf(CAP_EXIT_COMM, "protocol: second CTS from rank %d", m.from);
        me->cts[m.from] = m.bytes;
        return 0;
    case MSG_DATA:
    case MSG_READY:
        if (m.from != me->data_from) failf(CAP_EXIT_COMM, "protocol: unexpected data from rank %d", m.from);
        if (m.kind == MSG_DATA) {
            if ((uint64_t)got != MSG_HEADER + m.bytes || m.bytes != (uint64_t)me->expect)
                failf(CAP_EXIT_COMM, "protocol: DATA of %u bytes from rank %d", m.bytes, m.from);
            if (m.bytes > 0) memcpy(buf, m.payload, m.bytes);
        }
        return m.kind;
    default:
        failf(CAP_EXIT_COMM, "protocol: unknown message kind %u from rank %d", m.kind, m.from);
    }
}

/* --- messages ------------------------------------------------------------------------ */
static void check_peer(const char *call, int peer, size_t bytes)
{
    if (peer < 0 || peer >= g.size) failf(CAP_EXIT_COMM, "%s: no rank %d (size %d)", call, peer, g.size);
    if (peer == t_self->world) failf(CAP_EXIT_COMM, "%s: rank %d to itself would never complete", call, peer);
    if (bytes > NVX_PORTAL_MAX) failf(CAP_EXIT_COMM, "%s: %lu bytes exceed the IKC limit", call, (unsigned long)bytes);
}

static void size_mismatch(int sender, uint64_t sent, uint64_t expected)
{
    failf(CAP_EXIT_SIZE_MISMATCH, "size mismatch: rank %d sends %llu bytes, the receive expects %llu", sender,
          (unsigned long long)sent, (unsigned long long)expected);
}

void cap_send(int dest, const void *buf, size_t bytes)
{
    struct rank *me = t_self;
    uint64_t start = cap_cycles();
    check_peer("cap_send", dest, bytes);
    if (me->cts[dest] < 0) {
        post(dest, MSG_RTS, (uint32_t)bytes, NULL);
        while (me->cts[dest] < 0) read_one(NULL);
    }
    uint64_t expected = (uint64_t)me->cts[dest];
    me->cts[dest] = -1;
    if (expected != bytes) size_mismatch(me->world, bytes, expected);
    if (bytes <= SMALL_MAX) {
        post(dest, MSG_DATA, (uint32_t)bytes, buf);
    } else {
        post(dest, MSG_READY, (uint32_t)bytes, NULL);
        long err = nvx_portal_write(output_to(me->portals, dest, 1), buf, bytes);
        if (err != (long)bytes) failf(CAP_EXIT_COMM, "portal write to rank %d failed (%ld)", dest, err);
    }
    me->stats.bytes_sent += bytes;
    me->stats.messages_sent++;
    me->stats.comm_cycles += cap_cycles() - start;
}

/* The receive of `bytes` from `src`, once no RTS of src is kept (it was consumed, or
 * none came yet): clear the sender, then wait for its data. */
static void receive_from(int src, void *buf, size_t bytes)
{
    struct rank *me = t_self;
    if (bytes > SMALL_MAX) {
        long err = nvx_portal_allow(me->portal, node_of_rank(src));
        if (err < 0) failf(CAP_EXIT_COMM, "portal allow for rank %d failed (%ld)", src, err);
    }
    me->data_from = src;
    me->expect = (int64_t)bytes;
    post(src, MSG_CTS, (uint32_t)bytes, NULL);
    int got;
    while ((got = read_one(buf)) == 0) {}
    if (got == MSG_READY) {
        long n = nvx_portal_read(me->portal, buf, bytes);
        if (n != (long)bytes) failf(CAP_EXIT_COMM, "portal read from rank %d failed (%ld)", src, n);
    }
    me->data_from = -1;
}

void cap_recv(int src, void *buf, size_t bytes)
{
    struct rank *me = t_self;
    uint64_t start = cap_cycles();
    check_peer("cap_recv", src, bytes);
    if (me->rts[src] >= 0) {
        if ((uint64_t)me->rts[src] != bytes) size_mismatch(src, (uint64_t)me->rts[src], bytes);
        drop_rts(me, src);
    }
    receive_from(src, buf, bytes);
    me->stats.comm_cycles += cap_cycles() - start;
}

int cap_recv_any(void *buf, size_t bytes)
{
    struct rank *me = t_self;
    uint64_t start = cap_cycles();
    if (g.size < 2) failf(CAP_EXIT_COMM, "cap_recv_any: no other rank");
    if (bytes > NVX_PORTAL_MAX) failf(CAP_EXIT_COMM, "cap_recv_any: %lu bytes exceed the IKC limit", (unsigned long)bytes);
    while (me->rts_count == 0) read_one(NULL); /* a sender announces itself with an RTS */
    int src = me->rts_order[me->rts_head];
    if ((uint64_t)me->rts[src] != bytes) size_mismatch(src, (uint64_t)me->rts[src], bytes);
    drop_rts(me, src);
    receive_from(src, buf, bytes);
    me->stats.comm_cycles += cap_cycles() - start;
    return src;
}

/* --- start-up ------------------------------------------------------------------------ */
__attribute__((format(printf, 1, 2))) static _Noreturn void launch_refused(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("cap: cannot start the ipc layer: ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    fflush(stdout);
    nvx_sys_exit(CAP_EXIT_LAUNCH);
}

static void setup_world(const struct nvx_launch *launch, const struct nvx_info *info)
{
    unsigned compute = info->compute_count, first_compute = info->cluster_count - info->compute_count;
    g.size = (int)launch->ranks;
    g.here = (int)launch->ranks_here;
    if (g.size > 0xffff) launch_refused("%ld ranks: the wire names at most 65535", (long)g.size);
    nvx_ranks_admit(launch->ranks_here); /* before anything is set up per rank */
    g.cluster_of = xcalloc((size_t)g.size, sizeof *g.cluster_of);
    g.local_of = xcalloc((size_t)g.size, sizeof *g.local_of);
    g.node_of = xcalloc(compute, sizeof *g.node_of);
    g.used_index = xcalloc(compute, sizeof *g.used_index);
    g.master_of = xcalloc(compute, sizeof *g.master_of);
    if (nvx_place_ranks(launch->ranks, launch->clusters, launch->pes, launch->per_cluster, launch->policy, g.cluster_of) != 0)
        launch_refused("bad launch placement (%ld ranks)", (long)g.size);
    int *count = xcalloc(compute, sizeof *count);
    for (unsigned c = 0; c < compute; c++) {
        long node = nvx_node_of(first_compute + c, 0);
        if (node < 0) launch_refused("no NoC node for a compute cluster (%ld)", node);
        g.node_of[c] = (uint32_t)node;
        g.used_index[c] = -1;
    }
    for (int r = 0; r < g.size; r++) { /* ascending ranks: positions and cluster numbers */
        unsigned c = g.cluster_of[r];
        if (c >= compute) launch_refused("placement names cluster %ld", (long)c);
        g.local_of[r] = count[c]++;
        if (g.used_index[c] < 0) {
            g.used_index[c] = g.clusters;
            g.master_of[g.clusters++] = r;
        }
    }
    free(count);
    unsigned spare = IKC_ENDPOINTS - IKC_ENDPOINT_MARGIN - (unsigned)g.here;
    g.out_slots = spare / (unsigned)g.here < OUTPUT_CACHE_MAX ? spare / (unsigned)g.here : OUTPUT_CACHE_MAX;
}

static void setup_rank(struct rank *r, int local, unsigned world, const struct nvx_info *info)
{
    r->world = (int)world;
    r->local = local;
    if (g.local_of[world] != local || g.node_of[g.cluster_of[world]] != info->node)
        launch_refused("rank %ld is not where the placement puts it", (long)world);
    r->mailbox = nvx_mailbox_create(info->node, FIRST_PORT + (unsigned)local);
    if (r->mailbox < 0) launch_refused("cannot create a rank's mailbox (%ld)", r->mailbox);
    r->portal = nvx_portal_create(info->node, FIRST_PORT + (unsigned)local);
    if (r->portal < 0) launch_refused("cannot create a rank's portal (%ld)", r->portal);
    r->cts = xcalloc((size_t)g.size, sizeof *r->cts);
    r->rts = xcalloc((size_t)g.size, sizeof *r->rts);
    r->rts_order = xcalloc((size_t)g.size, sizeof *r->rts_order);
    for (int p = 0; p < g.size; p++) r->cts[p] = r->rts[p] = -1;
    r->data_from = -1;
    r->mailboxes = xcalloc(g.out_slots, sizeof *r->mailboxes);
    r->portals = xcalloc(g.out_slots, sizeof *r->portals);
    for (unsigned i = 0; i < g.out_slots; i++) r->mailboxes[i].peer = r->portals[i].peer = -1;
}

/* First in a rank's thread (nvx/ranks.h): the layer's calls find the rank through t_self. */
static void rank_setup(unsigned index, void *data)
{
    (void)data;
    t_self = &g_ranks[index];
}

static int rank_main(unsigned index, int argc, char **argv, void *data)
{
    (void)index;
    (void)data;
    return cap_main(argc, argv);
}

int main(int argc, char **argv)
{
    struct nvx_info info;
    struct nvx_launch launch;
    if (nvx_sys_info(&info) < 0) launch_refused("no cluster information (%ld)", -1L);
    if (nvx_launch_info(&launch) != 0) { /* started without the launcher: a world of one */
        memset(&launch, 0, sizeof launch);
        launch.ranks = launch.clusters = launch.pes = launch.ranks_here = 1;
        launch.policy = NVX_MAP_COMPACT;
        info.cluster = info.cluster_count - info.compute_count;
    }
    setup_world(&launch, &info);
    g_ranks = xcalloc((size_t)g.here, sizeof *g_ranks);
    for (int i = 0; i < g.here; i++) setup_rank(&g_ranks[i], i, launch.rank[i], &info);
    struct nvx_rank_set ranks = {.count = launch.ranks_here, .world = launch.rank, .argc = argc, .argv = argv,
                                 .setup = rank_setup, .main = rank_main};
    return nvx_ranks_run(&ranks);
}
