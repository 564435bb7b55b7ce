/* The DDR server (nvx/ddr.h) of one I/O cluster: its regions, in this cluster's memory, and
 * the transfers of its clients, one request at a time in the order its mailbox hands them
 * out (each at its own virtual time), as one DDR controller serves one access at a time.
 * Who asks is the node the NoC stamped on the request. A box that is one contiguous range
 * moves straight between the region and the portal; others pass through a staging buffer
 * (the gather and scatter a 3-D DMA does in hardware). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <nvx/clock.h>
#include "protocol.h"
#include "system.h"

#define MAX_NODES 64

struct region {
    int used;
    uint32_t generation;      /* in the handle: a destroyed region's handle stays dead */
    char name[NVX_NAME_MAX + 1];
    uint8_t *base;
    uint64_t size;
    uint32_t creator;         /* node: only it may destroy                               */
    uint64_t sharers;         /* nodes that may open it and move data                    */
};

static struct region g_regions[NVX_DDR_REGIONS];
static uint8_t *g_staging;
static long g_reply_box[MAX_NODES];                     /* +1; 0 = not open */
static long g_data_in = -1;

static struct region *find(const char *name)
{
    for (int i = 0; i < NVX_DDR_REGIONS; i++)
        if (g_regions[i].used && strcmp(g_regions[i].name, name) == 0) return &g_regions[i];
    return 0;
}

static uint32_t handle_of(const struct region *r) { return (r->generation << 8) | (uint32_t)(r - g_regions); }

static int by_handle(uint32_t handle, uint32_t asker, struct region **out)
{
    uint32_t i = handle & 0xff;
    if (i >= NVX_DDR_REGIONS || !g_regions[i].used || g_regions[i].generation != handle >> 8) return -EBADF;
    if ((g_regions[i].sharers >> asker & 1) == 0) return -EPERM;
    *out = &g_regions[i];
    return 0;
}

static void create(const struct nvx_ddr_request *req, uint32_t asker, struct nvx_ddr_reply *rep)
{
    uint64_t size = req->u.named.size;
    int err = system_name_ok(req->u.named.name);
    if (err == 0 && size == 0) err = -EINVAL;
    if (err == 0 && size > NVX_DDR_REGION_MAX) err = -EFBIG;
    if (err == 0 && find(req->u.named.name)) err = -EEXIST;
    struct region *r = 0;
    for (int i = 0; err == 0 && i < NVX_DDR_REGIONS && !r; i++)
        if (!g_regions[i].used) r = &g_regions[i];
    if (err == 0 && !r) err = -ENOSPC;
    uint8_t *base = err == 0 ? calloc(1, size) : 0;
    if (err == 0 && !base) err = -ENOMEM;
    if (err != 0) {
        rep->status = err;
        return;
    }
    r->used = 1;
    r->generation = (r->generation + 1) & 0xffffff;
    strcpy(r->name, req->u.named.name);
    r->base = base;
    r->size = size;
    r->creator = asker;
    r->sharers = req->u.named.sharers | 1ull << asker;
    rep->handle = handle_of(r);
    rep->size = size;
}

static void open_region(const struct nvx_ddr_request *req, uint32_t asker, struct nvx_ddr_reply *rep)
{
    int err = system_name_ok(req->u.named.name);
    struct region *r = err == 0 ? find(req->u.named.name) : 0;
    if (err == 0 && !r) err = -ENOENT;
    if (err == 0 && (r->sharers >> asker & 1) == 0) err = -EPERM;
    rep->status = err;
    if (err != 0) return;
    rep->handle = handle_of(r);
    rep->size = r->size;
}

static void destroy(const struct nvx_ddr_request *req, uint32_t asker, struct nvx_ddr_reply *rep)
{
    struct region *r;
    int err = by_handle(req->handle, asker, &r);
    if (err == 0 && r->creator != asker) err = -EPERM;
    rep->status = err;
    if (err != 0) return;
    free(r->base);
    r->used = 0;
    r->base = 0;
}

/* The box's bytes, or a negative errno; *contiguous when it is one range of the region. */
static int64_t check_box(const struct nvx_ddr_box *b, const struct region *r, int *contiguous)
{
    uint64_t end = 0, bytes = nvx_ddr_box_bytes(b, &end);
    if (bytes == 0) return -EINVAL;
    if (bytes > NVX_DDR_TRANSFER_MAX) return -EFBIG;
    if (end > r->size) return -ERANGE;
    *contiguous = (b->rows == 1 || b->row_stride == b->row_bytes) &&
                  (b->planes == 1 || b->plane_stride == (uint64_t)b->row_bytes * b->rows);
    return (int64_t)bytes;
}

/* Copies between the region and the packed staging buffer, row by row: the gather and
 * scatter of the DDR's 3-D DMA, whose time is the transfer's link time (the NoC model),
 * not the server's (NVX_MODEL_CODE: no copy calls, it must stay in the model's window). */
static NVX_MODEL_CODE void move_rows(const struct nvx_ddr_box *b, uint8_t *region, uint8_t *packed, int to_region)
{
    for (uint32_t p = 0; p < b->planes; p++)
        for (uint32_t r = 0; r < b->rows; r++) {
            uint8_t *at = region + b->offset + p * b->plane_stride + r * b->row_stride;
            uint8_t *from = to_region ? packed : at, *to = to_region ? at : packed;
            uint32_t i = 0;
            if ((((uintptr_t)from | (uintptr_t)to) & 3) == 0)
                for (; i + 4 <= b->row_bytes; i += 4) *(uint32_t *)(to + i) = *(const uint32_t *)(from + i);
            for (; i < b->row_bytes; i++) to[i] = from[i];
            packed += b->row_bytes;
        }
}

static int staging_ready(void)
{
    if (!g_staging) g_staging = malloc(NVX_DDR_TRANSFER_MAX);
    return g_staging ? 0 : -ENOMEM;
}

static void transfer(const struct nvx_ddr_request *req, uint32_t asker, struct nvx_ddr_reply *rep)
{
    struct region *r;
    int contiguous = 0;
    int64_t err = by_handle(req->handle, asker, &r);
    int64_t bytes = err == 0 ? check_box(&req->u.box, r, &contiguous) : err;
    if (bytes > 0 && !contiguous) bytes = staging_ready() == 0 ? bytes : -ENOMEM;
    if (req->kind == NVX_DDR_READ && req->slot >= NVX_DDR_DATA_PORTS) bytes = -EINVAL;
    rep->status = bytes;
    if (req->kind == NVX_DDR_READ) {
        if (req->slot >= NVX_DDR_DATA_PORTS) return;
        /* Opened per transfer: a cluster's portals (NVX_IKC_PORTALS) would not hold one
         * per client and slot. */
        long out = nvx_portal_open(asker, NVX_DDR_DATA_PORT + req->slot);
        if (out < 0) {
            rep->status = bytes < 0 ? bytes : out;
            return;
        }
        long n;
        if (bytes < 0) {  /* one byte ends the client's posted read (the library puts it back) */
            n = nvx_portal_write(out, rep, 1);
        } else {
            if (!contiguous) move_rows(&req->u.box, r->base, g_staging, 0);
            n = nvx_portal_write(out, contiguous ? r->base + req->u.box.offset : g_staging, (size_t)bytes);
            rep->status = n < 0 ? n : bytes;
        }
        nvx_portal_close(out);
        return;
    }
    if (bytes < 0) return;  /* a refused write: its data is never allowed (the client cancels it) */
    uint8_t *direct = r->base + req->u.box.offset;
    /* A write: the client's data waits for this allow. */
    long n = nvx_portal_allow(g_data_in, asker);
    if (n == 0) n = nvx_portal_read(g_data_in, contiguous ? direct : g_staging, (size_t)bytes);
    if (n == bytes && !contiguous) move_rows(&req->u.box, r->base, g_staging, 1);
    rep->status = n == bytes ? bytes : n < 0 ? n : -EIO;
}

static void answer(uint32_t node, const struct nvx_ddr_reply *rep)
{
    if (g_reply_box[node] == 0) {
        long out = nvx_mailbox_open(node, NVX_DDR_REPLY_PORT);
        if (out < 0) return;
        g_reply_box[node] = out + 1;
    }
    /* Never wait for a client that does not read its answers (the library reads them all:
     * a cluster has at most NVX_DDR_CLIENT_OPS under way, far below a port's quota). */
    nvx_mailbox_try_write(g_reply_box[node] - 1, rep, sizeof *rep);
}

void *ddr_server_main(void *unused)
{
    (void)unused;
    struct nvx_info info;
    nvx_sys_info(&info);
    long node = nvx_ddr_node_of(info.cluster);
    long box = node < 0 ? node : nvx_mailbox_create((unsigned)node, NVX_DDR_SERVER_PORT);
    g_data_in = node < 0 ? node : nvx_portal_create((unsigned)node, NVX_DDR_SERVER_PORT);
    if (box < 0 || g_data_in < 0) {
        printf("[ddr %u] cannot listen: %ld %ld\n", info.cluster, box, g_data_in);
        return 0;
    }
    nvx_clock_server();  /* each request at its own virtual time, whatever the host's order */
    for (;;) {
        struct nvx_ddr_request req;
        struct nvx_mailbox_origin from;
        memset(&req, 0, sizeof req);
        long n = nvx_mailbox_read_from(box, &req, sizeof req, &from);
        if (n != sizeof req || from.node >= MAX_NODES || from.node >= info.node_count) continue;  /* no answer */
        req.u.named.name[NVX_NAME_MAX] = '\0';
        struct nvx_ddr_reply rep = {req.tag, 0, 0, 0};
        switch (req.kind) {
        case NVX_DDR_CREATE: create(&req, from.node, &rep); break;
        case NVX_DDR_OPEN: open_region(&req, from.node, &rep); break;
        case NVX_DDR_DESTROY: destroy(&req, from.node, &rep); break;
        case NVX_DDR_READ:
        case NVX_DDR_WRITE: transfer(&req, from.node, &rep); break;
        default: rep.status = -EINVAL;
        }
        answer(from.node, &rep);
    }
}
