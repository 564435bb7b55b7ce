/* LBM D3Q19 lid-driven cavity streamed from the DDR service (nvx/ddr.h), after "pipelined
 * 3D LBM on clustered many-core processors" (the paper in the project's references). The
 * two lattices (even and odd steps) are regions of one DDR, or are split over two ("double
 * DDR": the lower half of each lattice's z planes on one, the upper half on the other, so
 * that both serve every step's reads and writes alike; each half also keeps a copy of the
 * other's plane next to it, which the blocks beside the middle write to both DDRs, so that
 * their fetches take one request, not two). Every compute cluster in use takes
 * a contiguous range of B^3 blocks per step and streams each one (its box with a one-node
 * halo in, the B^3 result out) through a pipeline of depth D: D = 1 fetches, computes and
 * puts in turn; D >= 2 keeps D - 1 fetches ahead and D puts in flight. A barrier ends each
 * step. One rank per cluster, as the paper's one process per cluster, whose P threads
 * (--threads, the cluster's PEs) share each block's computation; the layer under
 * cap_comm.h only carries the barriers, so the raw-IKC build is the one built.
 *   lbm [--class test|small|thesis] [--size N] [--steps T] [--block B] [--depth D] [--ddrs 1|2]
 *       [--threads P]
 * The class (cap_class.h) gives the cavity, steps and block; --size, --steps and --block
 * override it (the run then has no reference to check), depth, DDRs and threads change
 * only the time. Output (rank 0): the result line `lbm: cavity N^3, steps T, lattice hash H`
 * (FNV-1a 64 over the final lattice's bytes, node-wise; build/tools/lbm-ref computes the
 * same) and CAP Bench's summary line (cap_app.h: verified against the class's entry; its
 * bytes and messages include the DDR transfers, its comm_cycles the time in DDR calls and
 * step barriers), then `lbm-run: clusters=C size=N steps=T block=B depth=D ddrs=K threads=P
 * cycles=X seconds=S mlups=M bytes=Y wait=P%`: the measured steps in virtual time, the
 * bytes all clusters moved to and from the DDRs, and the share of the clusters' time spent
 * in DDR calls (starting and waiting for transfers; the step barriers are not counted). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <nvx/ddr.h>

#include "../capbench/cap_app.h"
#include "lbm_blocks.h"
#include "lbm_team.h"

struct options {
    int n, steps, block, depth, ddrs, threads;
};

/* The even and odd steps' lattices, each in `parts` regions: part h owns z planes
 * [h planes, (h + 1) planes) and also keeps a copy of the plane on each side of them that
 * another part owns (a ghost plane), so that every block's fetch box lies in one part. */
struct lattice {
    int n, parts, planes;
    struct nvx_ddr_region region[2][2];
};

/* The z planes part h holds: [lo, hi), its own and its ghost planes. */
static int part_lo(const struct lattice *lat, int h) { return h == 0 ? 0 : h * lat->planes - 1; }
static int part_hi(const struct lattice *lat, int h)
{
    return h == lat->parts - 1 ? lat->n : (h + 1) * lat->planes + 1;
}

/* The transfers of one box (one per region it touches). */
struct xfer {
    struct nvx_ddr_op op[2];
    int count;
};

#define DEPTH_MAX 8

struct stream {
    const struct options *o;
    struct lattice *lat;
    float *in[DEPTH_MAX], *out[DEPTH_MAX];
    struct xfer get[DEPTH_MAX], put[DEPTH_MAX];
    uint64_t bytes, transfers, wait_cycles;
    struct lbm_team team;
    int block, slot;  /* what the team computes */
};

/* The command line: a class (cap_class.h: cavity, steps, block) with overrides, and the
 * run's shape, which leaves the result alone. Returns 0, or 2 after the usage. */
static int parse(int argc, char **argv, struct cap_run *run, struct options *o)
{
    struct nvx_info info;
    nvx_sys_info(&info);
    uint32_t size, steps, block, depth = 2, ddrs = 1;
    uint32_t threads = info.compute_user_harts < LBM_TEAM_MAX ? info.compute_user_harts : LBM_TEAM_MAX;
    struct cap_option options[] = {
        {"size", &run->params.lbm_size, 2, 512, "cavity edge N (the class's)"},
        {"steps", &run->params.lbm_steps, 0, 100000, "time steps (the class's)"},
        {"block", &run->params.lbm_block, 1, 512, "block edge B, divides N (the class's)"},
        {"depth", &depth, 1, DEPTH_MAX, "pipeline depth: 1 fetch, compute, put in turn; D keeps D - 1 fetches ahead"},
        {"ddrs", &ddrs, 1, 2, "DDRs holding the lattices (two need two I/O clusters)"},
        {"threads", &threads, 1, LBM_TEAM_MAX, "PEs of each cluster that share a block (default: all)"},
    };
    int status = cap_begin(run, "lbm", argc, argv, options, sizeof options / sizeof options[0]);
    if (status != 0) return status;
    size = run->params.lbm_size;
    steps = run->params.lbm_steps;
    block = run->params.lbm_block;
    *o = (struct options){(int)size, (int)steps, (int)block, (int)depth, (int)ddrs, (int)threads};
    uint64_t fetch = (uint64_t)(block + 2) * (block + 2) * (block + 2) * LBM_NODE_BYTES;
    uint64_t part = (uint64_t)size * size * (size / ddrs + (ddrs > 1)) * LBM_NODE_BYTES;
    int fits = size % block == 0 && size % ddrs == 0 && threads <= info.compute_user_harts &&
               fetch <= NVX_DDR_TRANSFER_MAX && part <= NVX_DDR_REGION_MAX;
    if (fits && cap_local_size() == 1 && nvx_ddr_count() >= o->ddrs) return 0;
    if (cap_rank() == 0)
        fprintf(stderr, "usage: lbm: one rank per cluster; the block divides the cavity; a lattice of at most %u "
                        "bytes per DDR; a block and its halo of at most %u; at most %u threads; two DDRs need two "
                        "I/O clusters\n",
                NVX_DDR_REGION_MAX, NVX_DDR_TRANSFER_MAX, info.compute_user_harts);
    return 2;
}

/* The DDRs of the lattices' parts: the I/O clusters after the first where there are
 * enough (the first also holds the launcher's image and the Spawn and Name Servers). */
static int pick_ddrs(int ddrs, unsigned out[2])
{
    int count = nvx_ddr_count();
    if (count < ddrs) return -1;
    unsigned first = count > ddrs ? 1 : 0;
    out[0] = first;
    out[1] = first + 1;
    return 0;
}

/* Starts moving planes [z0, z1) of box b of lattice l between part h and buf (b packed,
 * x fastest). */
static void start_part(struct stream *s, int l, int h, struct lbm_box3 b, int z0, int z1, void *buf, int write,
                       struct xfer *x)
{
    const struct lattice *lat = s->lat;
    int n = lat->n;
    struct nvx_ddr_box box = {lbm_node_offset(n, b.x, b.y, z0 - part_lo(lat, h)), (uint64_t)n * LBM_NODE_BYTES,
                              (uint64_t)n * n * LBM_NODE_BYTES, (uint32_t)b.sx * LBM_NODE_BYTES,
                              (uint32_t)b.sy, (uint32_t)(z1 - z0), 0};
    uint8_t *at = (uint8_t *)buf + (uint64_t)(z0 - b.z) * b.sx * b.sy * LBM_NODE_BYTES;
    struct nvx_ddr_op *op = &x->op[x->count++];
    uint64_t t0 = cap_cycles();  /* a start may wait too (for the server's port) */
    int err = write ? nvx_ddr_awrite(&lat->region[l][h], &box, at, op)
                    : nvx_ddr_aread(&lat->region[l][h], &box, at, op);
    s->wait_cycles += cap_cycles() - t0;
    if (err != 0) cap_abort(CAP_EXIT_COMM, "lbm: cannot start a transfer");
    uint64_t end;
    s->bytes += nvx_ddr_box_bytes(&box, &end);
    s->transfers++;
}

/* Starts moving box b of lattice l to or from buf. A read comes from the one part that
 * holds the whole box, or is split where the parts' own planes meet; a write goes to every
 * part that holds any of its planes, ghost copies included. */
static void start_box(struct stream *s, int l, struct lbm_box3 b, void *buf, int write, struct xfer *x)
{
    const struct lattice *lat = s->lat;
    int top = b.z + b.sz;
    x->count = 0;
    for (int h = 0; h < lat->parts && !write; h++)
        if (part_lo(lat, h) <= b.z && top <= part_hi(lat, h)) {
            start_part(s, l, h, b, b.z, top, buf, 0, x);
            return;
        }
    for (int h = 0; h < lat->parts; h++) {
        int lo = write ? part_lo(lat, h) : h * lat->planes, hi = write ? part_hi(lat, h) : (h + 1) * lat->planes;
        int z0 = b.z > lo ? b.z : lo, z1 = top < hi ? top : hi;
        if (z0 < z1) start_part(s, l, h, b, z0, z1, buf, write, x);
    }
}

static void timed_wait(struct stream *s, struct xfer *x)
{
    uint64_t t0 = cap_cycles();
    for (int i = 0; i < x->count; i++)
        if (nvx_ddr_wait(&x->op[i]) < 0) cap_abort(CAP_EXIT_COMM, "lbm: a DDR transfer failed");
    x->count = 0;
    s->wait_cycles += cap_cycles() - t0;
}

static void start_get(struct stream *s, int from, int block, int k)
{
    struct lbm_box3 f = lbm_fetch_box(s->o->n, lbm_block(s->o->n, s->o->block, block));
    start_box(s, from, f, s->in[k], 0, &s->get[k]);
}

/* Part `part` of `parts` of the current block: every parts-th row of it (rows near the
 * walls cost more, so they are dealt round-robin). */
static void compute_part(void *context, int part, int parts)
{
    const struct stream *s = context;
    int n = s->o->n, b = s->o->block;
    struct lbm_box3 blk = lbm_block(n, b, s->block), f = lbm_fetch_box(n, blk);
    float *out = s->out[s->slot];
    for (int row = part; row < b * b; row += parts) {
        int y = row % b, z = row / b;
        for (int x = 0; x < b; x++)
            lbm_update_cell(s->in[s->slot], f.x, f.y, f.z, f.sx, f.sy, n, blk.x + x, blk.y + y, blk.z + z,
                            out + (x + b * (y + b * z)) * LBM_Q);
    }
}

static void compute(struct stream *s, int block, int k)
{
    s->block = block;
    s->slot = k;
    lbm_team_run(&s->team, compute_part, s);
}

static void start_put(struct stream *s, int to, int block, int k)
{
    start_box(s, to, lbm_block(s->o->n, s->o->block, block), s->out[k], 1, &s->put[k]);
}

/* One step of this cluster's blocks [first, end): lattice `from` into the other. */
static void step(struct stream *s, int from, int first, int end)
{
    int d = s->o->depth, count = end - first, to = 1 - from;
    for (int k = 0; k < d - 1 && k < count; k++) start_get(s, from, first + k, k);
    for (int k = 0; k < count; k++) {
        int slot = k % d;
        if (k + d - 1 < count) start_get(s, from, first + k + d - 1, (k + d - 1) % d);
        timed_wait(s, &s->get[slot]);
        timed_wait(s, &s->put[slot]);  /* its output buffer is free again */
        compute(s, first + k, slot);
        start_put(s, to, first + k, slot);
        if (d == 1) timed_wait(s, &s->put[slot]);
    }
    for (int k = 0; k < d; k++) timed_wait(s, &s->put[k]);
}

/* Rank 0 fills the even lattice with fluid at rest (before the measured region). */
static void fill_at_rest(const struct lattice *lat)
{
    enum { CHUNK_NODES = 512 };
    static float chunk[CHUNK_NODES * LBM_Q];
    for (int i = 0; i < CHUNK_NODES; i++) lbm_rest(&chunk[i * LBM_Q]);
    for (int h = 0; h < lat->parts; h++) {
        const struct nvx_ddr_region *r = &lat->region[0][h];
        for (uint64_t at = 0; at < r->size; at += sizeof chunk) {
            uint32_t len = (uint32_t)(r->size - at < sizeof chunk ? r->size - at : sizeof chunk);
            struct nvx_ddr_box box = nvx_ddr_range(at, len);
            if (nvx_ddr_write(r, &box, chunk) < 0) cap_abort(CAP_EXIT_COMM, "lbm: cannot fill the lattice");
        }
    }
}

/* FNV-1a over lattice l's bytes in node order (each part's own planes, in turn). */
static uint64_t hash_lattice(const struct lattice *lat, int l)
{
    enum { CHUNK = 64 * 1024 };
    static uint8_t chunk[CHUNK];
    uint64_t h = LBM_HASH_START, plane = (uint64_t)lat->n * lat->n * LBM_NODE_BYTES;
    for (int p = 0; p < lat->parts; p++) {
        const struct nvx_ddr_region *r = &lat->region[l][p];
        uint64_t own = (uint64_t)(p * lat->planes - part_lo(lat, p)) * plane, end = own + lat->planes * plane;
        for (uint64_t at = own; at < end; at += CHUNK) {
            uint32_t len = (uint32_t)(end - at < CHUNK ? end - at : CHUNK);
            struct nvx_ddr_box box = nvx_ddr_range(at, len);
            if (nvx_ddr_read(r, &box, chunk) < 0) cap_abort(CAP_EXIT_COMM, "lbm: cannot read the lattice");
            h = lbm_hash(h, chunk, len);
        }
    }
    return h;
}

static int setup(const struct options *o, struct lattice *lat)
{
    unsigned ddr[2];
    if (pick_ddrs(o->ddrs, ddr) != 0) return -1;
    lat->n = o->n;
    lat->parts = o->ddrs;
    lat->planes = o->n / o->ddrs;
    char name[32];
    for (int l = 0; l < 2; l++)
        for (int h = 0; h < lat->parts && cap_rank() == 0; h++) {
            uint64_t size = (uint64_t)o->n * o->n * (part_hi(lat, h) - part_lo(lat, h)) * LBM_NODE_BYTES;
            snprintf(name, sizeof name, "lbm-%s-%d", l ? "odd" : "even", h);
            if (nvx_ddr_create(ddr[h], name, size, 0, &lat->region[l][h]) != 0) return -2;
        }
    if (cap_rank() == 0) fill_at_rest(lat);
    cap_sum_all(0);  /* the lattices exist */
    for (int l = 0; l < 2; l++)
        for (int h = 0; h < lat->parts; h++) {
            snprintf(name, sizeof name, "lbm-%s-%d", l ? "odd" : "even", h);
            if (nvx_ddr_open(ddr[h], name, &lat->region[l][h]) != 0) return -2;
        }
    return 0;
}

int cap_main(int argc, char **argv)
{
    struct options o;
    struct cap_run run;
    int status = parse(argc, argv, &run, &o);
    if (status != 0) return status;
    struct lattice lat;
    if (setup(&o, &lat) != 0) cap_abort(CAP_EXIT_COMM, "lbm: cannot create or open the lattices");
    struct stream s;
    memset(&s, 0, sizeof s);
    s.o = &o;
    s.lat = &lat;
    size_t fetch = (size_t)(o.block + 2) * (o.block + 2) * (o.block + 2) * LBM_NODE_BYTES;
    size_t put = (size_t)o.block * o.block * o.block * LBM_NODE_BYTES;
    for (int k = 0; k < o.depth; k++) {
        s.in[k] = cap_alloc(fetch, "a fetch buffer");
        s.out[k] = cap_alloc(put, "a put buffer");
    }
    if (lbm_team_start(&s.team, o.threads) != 0) cap_abort(CAP_EXIT_COMM, "lbm: cannot start the threads");
    int first, end;
    lbm_cluster_blocks(o.n, o.block, cap_size(), cap_rank(), &first, &end);

    cap_start(&run);
    for (int t = 0; t < o.steps; t++) {
        step(&s, t % 2, first, end);
        cap_sum_all(0);  /* the next step reads what every cluster put */
    }
    uint64_t cycles = cap_cycles() - run.start;
    run.io = (struct cap_stats){s.bytes, s.transfers, s.wait_cycles};
    uint64_t bytes = cap_sum_all(s.bytes), waited = cap_sum_all(s.wait_cycles);
    char result[96] = "";
    if (cap_rank() == 0)
        snprintf(result, sizeof result, "lbm: cavity %d^3, steps %d, lattice hash %016llx", o.n, o.steps,
                 (unsigned long long)hash_lattice(&lat, o.steps % 2));
    status = cap_finish(&run, run.start + cycles, result);
    if (cap_rank() == 0) {
        double seconds = cap_seconds(cycles);
        double updates = (double)o.n * o.n * o.n * o.steps;
        printf("lbm-run: clusters=%d size=%d steps=%d block=%d depth=%d ddrs=%d threads=%d cycles=%llu "
               "seconds=%.6f mlups=%.3f bytes=%llu wait=%.1f%%\n",
               cap_size(), o.n, o.steps, o.block, o.depth, o.ddrs, o.threads, (unsigned long long)cycles, seconds,
               seconds > 0 ? updates / seconds / 1e6 : 0.0, (unsigned long long)bytes,
               cycles > 0 ? 100.0 * (double)waited / ((double)cycles * cap_size()) : 0.0);
        for (int l = 0; l < 2; l++)
            for (int h = 0; h < lat.parts; h++) nvx_ddr_destroy(&lat.region[l][h]);
    }
    lbm_team_stop(&s.team);
    cap_sum_all(0);
    return status;
}
