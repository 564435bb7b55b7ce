/* The DDR service: named regions of an I/O cluster's memory that the compute clusters of a
 * program read and write at any offset, in blocks, asynchronously (Kalray's asynchronous
 * one-sided library on the MPPA's DDR). Each I/O cluster's system program runs one server
 * ("DDR d" is I/O cluster d); a transfer is a request by mailbox, the data through a portal
 * and an answer by mailbox, so its cost is the NoC model's: the server's link in the board
 * table stands for the DDR's bandwidth. Limits: nvx/ddr_config.h.
 *
 * A region belongs to the program that created it: the compute clusters that run it (or
 * only the creating cluster, NVX_DDR_PRIVATE). The server decides from the node the NoC
 * stamped on each request, never from its body, so no program reaches a region it was not
 * given, by name or by a forged handle. Regions live until destroyed or the board stops.
 *
 * Transfers: a start (nvx_ddr_aread/awrite) returns at once; nvx_ddr_test and nvx_ddr_wait
 * finish it; the buffer belongs to the transfer until then. The synchronous forms are a
 * start and a wait. A cluster has at most NVX_DDR_CLIENT_OPS transfers in the NoC; later
 * starts wait in the library, in order, and go out as earlier ones finish (during test and
 * wait calls). Transfers of one cluster to one DDR happen in the order they were started.
 * The library's state is the cluster's: its threads may share it, but a transfer belongs
 * to the thread that started it in the NoC (one whose thread ends is cancelled).
 *
 * Every function returns 0 (or bytes moved) or a negative errno, and on an error nothing
 * moved: -EINVAL bad argument or box, -ERANGE a box beyond the region's end, -EFBIG a
 * region over NVX_DDR_REGION_MAX or a transfer over NVX_DDR_TRANSFER_MAX, -ENOENT unknown
 * name or DDR, -EEXIST name taken, -EPERM a region of another program, -EBADF a handle
 * the server does not know, -ENOMEM no memory left in that DDR, -ENOSPC region table full,
 * -ENAMETOOLONG name over NVX_NAME_MAX. */
#ifndef NVX_DDR_H
#define NVX_DDR_H
#include <stdint.h>
#include <nvx/ddr_config.h>
#include <nvx/ikc.h>
#include <nvx/services.h>

#ifdef __cplusplus
extern "C" {
#endif

struct nvx_ddr_region {
    uint32_t ddr;     /* which server                                   */
    uint32_t handle;  /* the server's name for it                       */
    uint64_t size;    /* bytes                                          */
};

/* A 3-D box of a region: `planes` planes of `rows` rows of `row_bytes` bytes, row r of
 * plane p at offset + p * plane_stride + r * row_stride. In the client's buffer the rows
 * are packed, in that order. A plain range is {offset, 0, 0, size, 1, 1}. */
struct nvx_ddr_box {
    uint64_t offset;
    uint64_t row_stride, plane_stride;
    uint32_t row_bytes, rows, planes;
    uint32_t pad;
};

static inline struct nvx_ddr_box nvx_ddr_range(uint64_t offset, uint32_t size)
{
    struct nvx_ddr_box b = {offset, 0, 0, size, 1, 1, 0};
    return b;
}

/* Bytes the box moves, and in *end one past its last byte in the region; 0 for an empty
 * box or one whose figures overflow. */
static inline uint64_t nvx_ddr_box_bytes(const struct nvx_ddr_box *b, uint64_t *end)
{
    if (b->row_bytes == 0 || b->rows == 0 || b->planes == 0) return 0;
    uint64_t last_row = 0, last_plane = 0, e = 0;
    if (__builtin_mul_overflow((uint64_t)(b->rows - 1), b->row_stride, &last_row) ||
        __builtin_mul_overflow((uint64_t)(b->planes - 1), b->plane_stride, &last_plane) ||
        __builtin_add_overflow(b->offset, last_row, &e) || __builtin_add_overflow(e, last_plane, &e) ||
        __builtin_add_overflow(e, (uint64_t)b->row_bytes, &e))
        return 0;
    *end = e;
    return (uint64_t)b->row_bytes * b->rows * b->planes;
}

/* One transfer; the fields are the library's. */
struct nvx_ddr_op {
    struct nvx_ikc_op data;       /* the portal read or write                           */
    struct nvx_ddr_box box;
    struct nvx_ddr_op *next;      /* queued or in the NoC                               */
    void *buf;
    int64_t result;
    uint64_t size;                /* CREATE, OPEN: the region's, from the answer        */
    uint32_t ddr, handle, tag, kind, state, slot, saved;
};

/* DDRs of this board (its I/O clusters), and the NoC node DDR `ddr` listens on (its I/O
 * cluster's last interface; -ENOENT if there is no such DDR). */
int nvx_ddr_count(void);
long nvx_ddr_node_of(unsigned ddr);

#define NVX_DDR_PRIVATE 1u  /* nvx_ddr_create: only the creating cluster may use it */
/* Creates region `name` of `size` bytes (zeroed) on DDR `ddr`. */
int nvx_ddr_create(unsigned ddr, const char *name, uint64_t size, unsigned flags, struct nvx_ddr_region *out);
/* Opens region `name` of DDR `ddr`. */
int nvx_ddr_open(unsigned ddr, const char *name, struct nvx_ddr_region *out);
/* Frees a region (its creator's program only); later transfers on it get -EBADF. */
int nvx_ddr_destroy(const struct nvx_ddr_region *region);

/* Starts moving `box` of `region` into buf (aread) or buf into it (awrite). */
int nvx_ddr_aread(const struct nvx_ddr_region *region, const struct nvx_ddr_box *box, void *buf,
                  struct nvx_ddr_op *op);
int nvx_ddr_awrite(const struct nvx_ddr_region *region, const struct nvx_ddr_box *box, const void *buf,
                   struct nvx_ddr_op *op);
/* 1 once `op` finished (its result is op->result), else 0. */
int nvx_ddr_test(struct nvx_ddr_op *op);
/* Sleeps until `op` finished; returns its result: the bytes moved or a negative errno. */
int64_t nvx_ddr_wait(struct nvx_ddr_op *op);

/* Synchronous forms. */
int64_t nvx_ddr_read(const struct nvx_ddr_region *region, const struct nvx_ddr_box *box, void *buf);
int64_t nvx_ddr_write(const struct nvx_ddr_region *region, const struct nvx_ddr_box *box, const void *buf);

#ifdef __cplusplus
}
#endif
#endif
