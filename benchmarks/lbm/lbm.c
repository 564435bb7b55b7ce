/* LBM D3Q19 lid-driven cavity streamed from the DDR service (nvx/ddr.h), after "pipelined
 * 3D LBM on clustered many-core processors" (the paper in the project's references): the
 * two lattices (even and odd steps) are regions of one DDR, or one each on two ("double
 * DDR"); every compute cluster in use takes a contiguous range of B^3 blocks per step and
 * streams each one (its box with a one-node halo in, the B^3 result out) through a
 * pipeline of depth D: D = 1 fetches, computes and puts in turn; D >= 2 keeps D - 1
 * fetches ahead and D puts in flight. A barrier ends each step. One rank per cluster, as
 * the paper's one process per cluster; the layer under cap_comm.h only carries the
 * barriers, so the raw-IKC build is the one built.
 *   lbm [--size N] [--steps T] [--block B] [--depth D] [--ddrs 1|2]
 * Output (rank 0): `lbm: cavity N^3, steps T, lattice hash H` (FNV-1a 64 over the final
 * lattice's bytes, node-wise; build/tools/lbm-ref computes the same), then
 * `lbm-run: clusters=C size=N steps=T block=B depth=D ddrs=K cycles=X seconds=S mlups=M
 * bytes=Y wait=P%`: the measured steps in virtual time, the bytes all clusters moved to and
 * from the DDRs, and the share of the clusters' time spent waiting for transfers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <nvx/ddr.h>

#include "../capbench/cap_app.h"
#include "lbm_blocks.h"

struct options {
    int n, steps, block, depth, ddrs;
};

struct lattice {
    struct nvx_ddr_region region[2];  /* even and odd steps' lattices */
};

struct stream {
    const struct options *o;
    struct lattice *lat;
    float *in[8], *out[8];
    struct nvx_ddr_op get[8], put[8];
    int put_pending[8];
    uint64_t bytes, wait_cycles;
};

#define DEPTH_MAX 8

static int parse(int argc, char **argv, struct options *o)
{
    *o = (struct options){16, 4, 8, 2, 1};
    for (int i = 1; i < argc; i += 2) {
        if (i + 1 >= argc) return -1;
        char *end;
        long v = strtol(argv[i + 1], &end, 10);
        if (*end != '\0' || v < 0 || v > 100000) return -1;
        if (strcmp(argv[i], "--size") == 0) o->n = (int)v;
        else if (strcmp(argv[i], "--steps") == 0) o->steps = (int)v;
        else if (strcmp(argv[i], "--block") == 0) o->block = (int)v;
        else if (strcmp(argv[i], "--depth") == 0) o->depth = (int)v;
        else if (strcmp(argv[i], "--ddrs") == 0) o->ddrs = (int)v;
        else return -1;
    }
    if (o->n < 2 || o->block < 1 || o->n % o->block != 0 || o->depth < 1 || o->depth > DEPTH_MAX) return -1;
    if (o->ddrs < 1 || o->ddrs > 2) return -1;
    uint64_t fetch = (uint64_t)(o->block + 2) * (o->block + 2) * (o->block + 2) * LBM_NODE_BYTES;
    uint64_t lattice = (uint64_t)o->n * o->n * o->n * LBM_NODE_BYTES;
    return fetch <= NVX_DDR_TRANSFER_MAX && lattice <= NVX_DDR_REGION_MAX ? 0 : -1;
}

/* The DDRs of the two lattices: the I/O clusters after the first where there are some
 * (the first also holds the launcher's image and the Spawn and Name Servers). */
static int pick_ddrs(int ddrs, unsigned out[2])
{
    int count = nvx_ddr_count();
    if (ddrs == 2 && count < 2) return -1;
    unsigned first = count > ddrs ? 1 : 0;
    out[0] = first;
    out[1] = ddrs == 2 ? first + 1 : first;
    return 0;
}

static struct nvx_ddr_box lattice_box(int n, struct lbm_box3 b)
{
    struct nvx_ddr_box box = {lbm_node_offset(n, b.x, b.y, b.z), (uint64_t)n * LBM_NODE_BYTES,
                              (uint64_t)n * n * LBM_NODE_BYTES, (uint32_t)b.sx * LBM_NODE_BYTES, (uint32_t)b.sy,
                              (uint32_t)b.sz, 0};
    return box;
}

static int64_t timed_wait(struct stream *s, struct nvx_ddr_op *op)
{
    uint64_t t0 = cap_cycles();
    int64_t r = nvx_ddr_wait(op);
    s->wait_cycles += cap_cycles() - t0;
    if (r < 0) cap_abort(CAP_EXIT_COMM, "lbm: a DDR transfer failed");
    return r;
}

static void start_get(struct stream *s, int from, int block, int k)
{
    struct lbm_box3 f = lbm_fetch_box(s->o->n, lbm_block(s->o->n, s->o->block, block));
    struct nvx_ddr_box box = lattice_box(s->o->n, f);
    if (nvx_ddr_aread(&s->lat->region[from], &box, s->in[k], &s->get[k]) != 0)
        cap_abort(CAP_EXIT_COMM, "lbm: cannot start a fetch");
    uint64_t end;
    s->bytes += nvx_ddr_box_bytes(&box, &end);
}

static void compute(const struct stream *s, int block, int k)
{
    int n = s->o->n, b = s->o->block;
    struct lbm_box3 blk = lbm_block(n, b, block), f = lbm_fetch_box(n, blk);
    float *out = s->out[k];
    for (int z = 0; z < b; z++)
        for (int y = 0; y < b; y++)
            for (int x = 0; x < b; x++)
                lbm_update_cell(s->in[k], f.x, f.y, f.z, f.sx, f.sy, n, blk.x + x, blk.y + y, blk.z + z,
                                out + (x + b * (y + b * z)) * LBM_Q);
}

static void start_put(struct stream *s, int to, int block, int k)
{
    struct nvx_ddr_box box = lattice_box(s->o->n, lbm_block(s->o->n, s->o->block, block));
    if (nvx_ddr_awrite(&s->lat->region[to], &box, s->out[k], &s->put[k]) != 0)
        cap_abort(CAP_EXIT_COMM, "lbm: cannot start a put");
    s->put_pending[k] = 1;
    uint64_t end;
    s->bytes += nvx_ddr_box_bytes(&box, &end);
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
        if (s->put_pending[slot]) timed_wait(s, &s->put[slot]);
        compute(s, first + k, slot);
        start_put(s, to, first + k, slot);
        if (d == 1) timed_wait(s, &s->put[slot]);
        s->put_pending[slot] = d > 1;
    }
    for (int k = 0; k < d; k++)
        if (s->put_pending[k]) {
            timed_wait(s, &s->put[k]);
            s->put_pending[k] = 0;
        }
}

/* Rank 0 fills the even lattice with fluid at rest (before the measured region). */
static void fill_at_rest(const struct options *o, const struct nvx_ddr_region *even)
{
    enum { CHUNK_NODES = 512 };
    static float chunk[CHUNK_NODES * LBM_Q];
    for (int i = 0; i < CHUNK_NODES; i++) lbm_rest(&chunk[i * LBM_Q]);
    uint64_t nodes = (uint64_t)o->n * o->n * o->n;
    for (uint64_t at = 0; at < nodes; at += CHUNK_NODES) {
        uint64_t count = nodes - at < CHUNK_NODES ? nodes - at : CHUNK_NODES;
        struct nvx_ddr_box box = nvx_ddr_range(at * LBM_NODE_BYTES, (uint32_t)(count * LBM_NODE_BYTES));
        if (nvx_ddr_write(even, &box, chunk) < 0) cap_abort(CAP_EXIT_COMM, "lbm: cannot fill the lattice");
    }
}

static uint64_t hash_lattice(const struct options *o, const struct nvx_ddr_region *r)
{
    enum { CHUNK = 64 * 1024 };
    static uint8_t chunk[CHUNK];
    uint64_t h = LBM_HASH_START, size = r->size;
    for (uint64_t at = 0; at < size; at += CHUNK) {
        uint32_t len = (uint32_t)(size - at < CHUNK ? size - at : CHUNK);
        struct nvx_ddr_box box = nvx_ddr_range(at, len);
        if (nvx_ddr_read(r, &box, chunk) < 0) cap_abort(CAP_EXIT_COMM, "lbm: cannot read the lattice");
        h = lbm_hash(h, chunk, len);
    }
    (void)o;
    return h;
}

static int setup(const struct options *o, struct lattice *lat)
{
    unsigned ddr[2];
    if (pick_ddrs(o->ddrs, ddr) != 0) return -1;
    uint64_t size = (uint64_t)o->n * o->n * o->n * LBM_NODE_BYTES;
    static const char *names[2] = {"lbm-even", "lbm-odd"};
    for (int l = 0; l < 2; l++)
        if (cap_rank() == 0 && nvx_ddr_create(ddr[l], names[l], size, 0, &lat->region[l]) != 0) return -2;
    if (cap_rank() == 0) fill_at_rest(o, &lat->region[0]);
    cap_sum_all(0);  /* the lattices exist */
    for (int l = 0; l < 2; l++)
        if (nvx_ddr_open(ddr[l], names[l], &lat->region[l]) != 0) return -2;
    return 0;
}

int cap_main(int argc, char **argv)
{
    struct options o;
    if (parse(argc, argv, &o) != 0 || cap_local_size() != 1 || (o.ddrs == 2 && nvx_ddr_count() < 2)) {
        if (cap_rank() == 0)
            fprintf(stderr, "usage: lbm [--size N] [--steps T] [--block B (divides N)] [--depth 1..%d] [--ddrs 1|2]"
                            " (one rank per cluster; a lattice of at most %u bytes; a block and its halo of at"
                            " most %u; two DDRs need two I/O clusters)\n",
                    DEPTH_MAX, NVX_DDR_REGION_MAX, NVX_DDR_TRANSFER_MAX);
        return 2;
    }
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
    int first, end;
    lbm_cluster_blocks(o.n, o.block, cap_size(), cap_rank(), &first, &end);

    cap_sum_all(0);
    uint64_t start = cap_cycles();
    for (int t = 0; t < o.steps; t++) {
        step(&s, t % 2, first, end);
        cap_sum_all(0);  /* the next step reads what every cluster put */
    }
    uint64_t cycles = cap_cycles() - start;
    uint64_t bytes = cap_sum_all(s.bytes), waited = cap_sum_all(s.wait_cycles);
    if (cap_rank() == 0) {
        const struct nvx_ddr_region *final = &lat.region[o.steps % 2];
        printf("lbm: cavity %d^3, steps %d, lattice hash %016llx\n", o.n, o.steps,
               (unsigned long long)hash_lattice(&o, final));
        double seconds = cap_seconds(cycles);
        double updates = (double)o.n * o.n * o.n * o.steps;
        printf("lbm-run: clusters=%d size=%d steps=%d block=%d depth=%d ddrs=%d cycles=%llu seconds=%.6f "
               "mlups=%.3f bytes=%llu wait=%.1f%%\n",
               cap_size(), o.n, o.steps, o.block, o.depth, o.ddrs, (unsigned long long)cycles, seconds,
               seconds > 0 ? updates / seconds / 1e6 : 0.0, (unsigned long long)bytes,
               cycles > 0 ? 100.0 * (double)waited / ((double)cycles * cap_size()) : 0.0);
        nvx_ddr_destroy(&lat.region[0]);
        nvx_ddr_destroy(&lat.region[1]);
    }
    cap_sum_all(0);
    return 0;
}
