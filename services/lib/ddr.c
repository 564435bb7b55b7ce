/* The DDR client (nvx/ddr.h): one library state per cluster. Every request is answered on
 * this node's NVX_DDR_REPLY_PORT, where one asynchronous read is always posted; an answer
 * finishes the operation whose tag it carries. A read's data lands through one of the
 * NVX_DDR_DATA_PORTS portals (allowed and posted before the request leaves), a write's
 * leaves by an asynchronous portal write to the server's portal. */
#include <nvx/ddr.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <nvx/launch.h>
#include <nvx/placement.h>
#include <nvx/thread.h>
#include "protocol.h"

#define MAX_DDRS 8
enum op_state { OP_IDLE = 0, OP_QUEUED, OP_SENT, OP_DONE };

static nvx_mutex_t g_lock = NVX_MUTEX_INITIALIZER;
static long g_reply = -1;                       /* our answers' mailbox                 */
static struct nvx_ikc_op g_reply_op;            /* the read posted on it                */
static struct nvx_ddr_reply g_reply_msg;
static int g_reply_posted;
static long g_request_out[MAX_DDRS];            /* +1; 0 = not open */
static long g_data_out[MAX_DDRS];               /* +1; 0 = not open */
static long g_data_in[NVX_DDR_DATA_PORTS];      /* +1; 0 = not created */
static int g_slot_busy[NVX_DDR_DATA_PORTS];
static struct nvx_ddr_op *g_sent, *g_queue;     /* answers awaited; not yet started     */
static unsigned g_in_noc;                       /* transfers with data in the NoC       */
static uint32_t g_tag;

static unsigned io_clusters(void)
{
    struct nvx_info info;
    nvx_sys_info(&info);
    return info.cluster_count - info.compute_count;
}

int nvx_ddr_count(void)
{
    unsigned n = io_clusters();
    return (int)(n < MAX_DDRS ? n : MAX_DDRS);
}

long nvx_ddr_node_of(unsigned ddr)
{
    if (ddr >= (unsigned)nvx_ddr_count()) return -ENOENT;
    long node = -ENOENT;
    for (unsigned i = 0;; i++) {
        long n = nvx_node_of(ddr, i);
        if (n < 0) return node;
        node = n;
    }
}

static unsigned own_node(void)
{
    struct nvx_info info;
    nvx_sys_info(&info);
    return info.node;
}

/* Posts the read of the next answer (g_lock held). */
static int post_reply_read(void)
{
    if (g_reply_posted) return 0;
    if (g_reply < 0) {
        long id = nvx_mailbox_create(own_node(), NVX_DDR_REPLY_PORT);
        if (id < 0) return (int)id;
        g_reply = id;
    }
    memset(&g_reply_op, 0, sizeof g_reply_op);
    long err = nvx_mailbox_aread(g_reply, &g_reply_msg, sizeof g_reply_msg, &g_reply_op);
    if (err < 0) return (int)err;
    g_reply_posted = 1;
    return 0;
}

static long request_box(unsigned ddr)
{
    if (g_request_out[ddr] == 0) {
        long node = nvx_ddr_node_of(ddr);
        long id = node < 0 ? node : nvx_mailbox_open((unsigned)node, NVX_DDR_SERVER_PORT);
        if (id < 0) return id;
        g_request_out[ddr] = id + 1;
    }
    return g_request_out[ddr] - 1;
}

static long data_out(unsigned ddr)
{
    if (g_data_out[ddr] == 0) {
        long id = nvx_portal_open((unsigned)nvx_ddr_node_of(ddr), NVX_DDR_SERVER_PORT);
        if (id < 0) return id;
        g_data_out[ddr] = id + 1;
    }
    return g_data_out[ddr] - 1;
}

static long data_in(unsigned slot)
{
    if (g_data_in[slot] == 0) {
        long id = nvx_portal_create(own_node(), NVX_DDR_DATA_PORT + slot);
        if (id < 0) return id;
        g_data_in[slot] = id + 1;
    }
    return g_data_in[slot] - 1;
}

static void push(struct nvx_ddr_op **list, struct nvx_ddr_op *op)
{
    op->next = 0;
    while (*list) list = &(*list)->next;
    *list = op;
}

static void unlink_op(struct nvx_ddr_op **list, struct nvx_ddr_op *op)
{
    for (; *list; list = &(*list)->next)
        if (*list == op) {
            *list = op->next;
            return;
        }
}

static int send_request(struct nvx_ddr_op *op, struct nvx_ddr_request *req)
{
    long out = request_box(op->ddr);
    if (out < 0) return (int)out;
    int err = post_reply_read();
    if (err != 0) return err;
    op->tag = ++g_tag;
    req->tag = op->tag;
    long n = nvx_mailbox_write(out, req, sizeof *req);
    return n < 0 ? (int)n : 0;
}

static void finish(struct nvx_ddr_op *op, int64_t result)
{
    op->result = result;
    __atomic_store_n(&op->state, OP_DONE, __ATOMIC_RELEASE);
}

/* Starts a queued transfer in the NoC; 0 when it cannot yet (no slot), 1 once it is under
 * way or finished with an error. g_lock held. */
static int start_transfer(struct nvx_ddr_op *op)
{
    int slot = -1;
    if (g_in_noc >= NVX_DDR_CLIENT_OPS) return 0;
    if (op->kind == NVX_DDR_READ) {
        for (int s = 0; s < NVX_DDR_DATA_PORTS && slot < 0; s++)
            if (!g_slot_busy[s]) slot = s;
        if (slot < 0) return 0;
    }
    uint64_t end, bytes = nvx_ddr_box_bytes(&op->box, &end);
    struct nvx_ddr_request req;
    memset(&req, 0, sizeof req);
    req.kind = (uint16_t)op->kind;
    req.handle = op->handle;
    req.u.box = op->box;
    memset(&op->data, 0, sizeof op->data);
    long err;
    if (op->kind == NVX_DDR_READ) {
        long in = data_in((unsigned)slot);
        err = in < 0 ? in : nvx_portal_allow(in, (unsigned)nvx_ddr_node_of(op->ddr));
        op->saved = *(uint8_t *)op->buf;
        if (err == 0) err = nvx_portal_aread(in, op->buf, bytes, &op->data);
        req.slot = (uint16_t)slot;
    } else {
        long out = data_out(op->ddr);
        err = out < 0 ? out : nvx_portal_awrite(out, op->buf, bytes, &op->data);
    }
    if (err == 0) {
        err = send_request(op, &req);
        /* No request left: its data op ends here, unless a read was posted already (it can
         * no longer be cancelled: its slot stays taken rather than wait forever). */
        if (err != 0 && nvx_ikc_cancel(&op->data) != -EBUSY) nvx_ikc_wait(&op->data);
        else if (err != 0 && slot >= 0) g_slot_busy[slot] = 1;
    }
    if (err != 0) {
        finish(op, err);
        return 1;
    }
    if (slot >= 0) g_slot_busy[slot] = 1;
    op->slot = (uint32_t)slot;
    g_in_noc++;
    op->state = OP_SENT;
    push(&g_sent, op);
    return 1;
}

static void start_queued(void)
{
    while (g_queue) {
        struct nvx_ddr_op *op = g_queue, *rest = op->next;
        if (!start_transfer(op)) return;
        g_queue = rest;  /* start_transfer moved op to g_sent */
    }
}

/* The answer in g_reply_msg arrived: it finishes its operation. g_lock held. */
static void take_answer(void)
{
    g_reply_posted = 0;
    struct nvx_ddr_reply rep = g_reply_msg;
    if (g_reply_op.result != sizeof rep) return;
    struct nvx_ddr_op *op = g_sent;
    while (op && op->tag != rep.tag) op = op->next;
    if (!op) return;  /* not ours (an abandoned request) */
    unlink_op(&g_sent, op);
    if (op->kind == NVX_DDR_READ || op->kind == NVX_DDR_WRITE) {
        /* Refused: a write's data was never allowed; a read got one byte that ends it. */
        if (rep.status < 0 && op->kind == NVX_DDR_WRITE) nvx_ikc_cancel(&op->data);
        long moved = nvx_ikc_wait(&op->data);
        if (rep.status < 0 && op->kind == NVX_DDR_READ) *(uint8_t *)op->buf = (uint8_t)op->saved;
        if (rep.status >= 0 && moved != rep.status) rep.status = moved < 0 ? moved : -EIO;
        if (op->kind == NVX_DDR_READ) g_slot_busy[op->slot] = 0;
        g_in_noc--;
    } else {
        op->handle = rep.handle;
        op->size = rep.size;
    }
    finish(op, rep.status);
    start_queued();
}

/* Takes the answers that arrived; with `block`, sleeps for one first if none did. */
static int progress(int block)
{
    int err = post_reply_read();
    if (err != 0) return err;
    if (block) {
        long r = nvx_ikc_wait(&g_reply_op);
        if (r < 0 && !g_reply_op.done) return (int)r;
    }
    while (g_reply_posted && nvx_ikc_test(&g_reply_op)) {
        take_answer();
        err = post_reply_read();
        if (err != 0) return err;
    }
    return 0;
}

int nvx_ddr_test(struct nvx_ddr_op *op)
{
    if (op == 0) return -EINVAL;
    if (__atomic_load_n(&op->state, __ATOMIC_ACQUIRE) == OP_DONE) return 1;
    nvx_mutex_lock(&g_lock);
    progress(0);
    nvx_mutex_unlock(&g_lock);
    return __atomic_load_n(&op->state, __ATOMIC_ACQUIRE) == OP_DONE;
}

int64_t nvx_ddr_wait(struct nvx_ddr_op *op)
{
    if (op == 0) return -EINVAL;
    nvx_mutex_lock(&g_lock);
    while (__atomic_load_n(&op->state, __ATOMIC_ACQUIRE) != OP_DONE) {
        if (op->state == OP_IDLE) {
            nvx_mutex_unlock(&g_lock);
            return -EINVAL;
        }
        int err = progress(1);
        if (err != 0) {  /* the answers cannot be read: nothing will finish */
            nvx_mutex_unlock(&g_lock);
            return err;
        }
    }
    nvx_mutex_unlock(&g_lock);
    return op->result;
}

static int check_region(const struct nvx_ddr_region *r)
{
    if (r == 0 || r->ddr >= (unsigned)nvx_ddr_count()) return -EINVAL;
    return 0;
}

static int start(int kind, const struct nvx_ddr_region *region, const struct nvx_ddr_box *box, void *buf,
                 struct nvx_ddr_op *op)
{
    if (op == 0 || box == 0 || buf == 0) return -EINVAL;
    int err = check_region(region);
    if (err != 0) return err;
    uint64_t end = 0, bytes = nvx_ddr_box_bytes(box, &end);
    if (bytes == 0) return -EINVAL;
    if (bytes > NVX_DDR_TRANSFER_MAX) return -EFBIG;
    if (end > region->size) return -ERANGE;
    memset(op, 0, sizeof *op);
    op->box = *box;
    op->buf = buf;
    op->ddr = region->ddr;
    op->handle = region->handle;
    op->kind = (uint32_t)kind;
    op->state = OP_QUEUED;
    nvx_mutex_lock(&g_lock);
    push(&g_queue, op);
    start_queued();
    progress(0);
    nvx_mutex_unlock(&g_lock);
    return 0;
}

int nvx_ddr_aread(const struct nvx_ddr_region *region, const struct nvx_ddr_box *box, void *buf,
                  struct nvx_ddr_op *op)
{
    return start(NVX_DDR_READ, region, box, buf, op);
}

int nvx_ddr_awrite(const struct nvx_ddr_region *region, const struct nvx_ddr_box *box, const void *buf,
                   struct nvx_ddr_op *op)
{
    return start(NVX_DDR_WRITE, region, box, (void *)buf, op);
}

int64_t nvx_ddr_read(const struct nvx_ddr_region *region, const struct nvx_ddr_box *box, void *buf)
{
    struct nvx_ddr_op op;
    int err = nvx_ddr_aread(region, box, buf, &op);
    return err != 0 ? err : nvx_ddr_wait(&op);
}

int64_t nvx_ddr_write(const struct nvx_ddr_region *region, const struct nvx_ddr_box *box, const void *buf)
{
    struct nvx_ddr_op op;
    int err = nvx_ddr_awrite(region, box, buf, &op);
    return err != 0 ? err : nvx_ddr_wait(&op);
}

/* A request without data (create, open, destroy), sent and waited for at once. */
static int control(unsigned ddr, struct nvx_ddr_request *req, struct nvx_ddr_op *op)
{
    if (ddr >= (unsigned)nvx_ddr_count()) return -ENOENT;
    memset(op, 0, sizeof *op);
    op->ddr = ddr;
    op->kind = req->kind;
    nvx_mutex_lock(&g_lock);
    int err = send_request(op, req);
    if (err == 0) {
        op->state = OP_SENT;
        push(&g_sent, op);
    }
    nvx_mutex_unlock(&g_lock);
    return err != 0 ? err : (int)nvx_ddr_wait(op);
}

static int check_name(const char *name)
{
    if (name == 0) return -EINVAL;
    size_t n = strnlen(name, NVX_NAME_MAX + 1);
    if (n == 0) return -EINVAL;
    return n > NVX_NAME_MAX ? -ENAMETOOLONG : 0;
}

/* The NoC nodes of the compute clusters this program runs on (only ours without launch
 * information). */
static uint64_t program_nodes(void)
{
    uint64_t nodes = 1ull << own_node();
    struct nvx_launch l;
    if (nvx_launch_info(&l) != 0) return nodes;
    unsigned *cluster_of = malloc(l.ranks * sizeof *cluster_of);
    if (cluster_of && nvx_place_ranks(l.ranks, l.clusters, l.pes, l.per_cluster, l.policy, cluster_of) == 0)
        for (unsigned r = 0; r < l.ranks; r++) {
            long node = nvx_node_of(io_clusters() + cluster_of[r], 0);
            if (node >= 0 && node < 64) nodes |= 1ull << node;
        }
    free(cluster_of);
    return nodes;
}

static int named(int kind, unsigned ddr, const char *name, uint64_t size, unsigned flags, struct nvx_ddr_region *out)
{
    int err = check_name(name);
    if (err != 0) return err;
    if (out == 0 || (flags & ~NVX_DDR_PRIVATE) != 0) return -EINVAL;
    if (kind == NVX_DDR_CREATE && size == 0) return -EINVAL;
    if (kind == NVX_DDR_CREATE && size > NVX_DDR_REGION_MAX) return -EFBIG;
    struct nvx_ddr_request req;
    memset(&req, 0, sizeof req);
    req.kind = (uint16_t)kind;
    req.u.named.size = size;
    req.u.named.sharers = kind == NVX_DDR_CREATE && !(flags & NVX_DDR_PRIVATE) ? program_nodes() : 0;
    strcpy(req.u.named.name, name);
    struct nvx_ddr_op op;
    err = control(ddr, &req, &op);
    if (err != 0) return err;
    out->ddr = ddr;
    out->handle = op.handle;
    out->size = op.size;
    return 0;
}

int nvx_ddr_create(unsigned ddr, const char *name, uint64_t size, unsigned flags, struct nvx_ddr_region *out)
{
    return named(NVX_DDR_CREATE, ddr, name, size, flags, out);
}

int nvx_ddr_open(unsigned ddr, const char *name, struct nvx_ddr_region *out)
{
    return named(NVX_DDR_OPEN, ddr, name, 0, 0, out);
}

int nvx_ddr_destroy(const struct nvx_ddr_region *region)
{
    int err = check_region(region);
    if (err != 0) return err;
    struct nvx_ddr_request req;
    memset(&req, 0, sizeof req);
    req.kind = NVX_DDR_DESTROY;
    req.handle = region->handle;
    struct nvx_ddr_op op;
    return control(region->ddr, &req, &op);
}
