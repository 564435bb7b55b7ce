/* The block decomposition of an n^3 lattice into b^3 blocks (n a multiple of b), numbered
 * x fastest, dealt to clusters in contiguous ranges; each block is computed from the box
 * of the previous lattice that holds it and its one-node halo, cut off at the walls (the
 * paper's halo cutoff). Pure logic, tested on the host. */
#ifndef LBM_BLOCKS_H
#define LBM_BLOCKS_H
#include <stdint.h>
#include "lbm_d3q19.h"

struct lbm_box3 {
    int x, y, z;     /* first node                     */
    int sx, sy, sz;  /* nodes along each axis          */
};

static inline int lbm_blocks_per_axis(int n, int b) { return n / b; }
static inline int lbm_block_count(int n, int b)
{
    int m = lbm_blocks_per_axis(n, b);
    return m * m * m;
}

/* The nodes of block `index`. */
static inline struct lbm_box3 lbm_block(int n, int b, int index)
{
    int m = lbm_blocks_per_axis(n, b);
    struct lbm_box3 r = {(index % m) * b, (index / m % m) * b, (index / (m * m)) * b, b, b, b};
    return r;
}

static inline void lbm_grow_axis(int n, int *lo, int *size)
{
    int hi = *lo + *size + 1 < n ? *lo + *size + 1 : n;
    *lo = *lo > 0 ? *lo - 1 : 0;
    *size = hi - *lo;
}

/* The block with its halo, inside the lattice. */
static inline struct lbm_box3 lbm_fetch_box(int n, struct lbm_box3 block)
{
    lbm_grow_axis(n, &block.x, &block.sx);
    lbm_grow_axis(n, &block.y, &block.sy);
    lbm_grow_axis(n, &block.z, &block.sz);
    return block;
}

/* Blocks [*first, *end) of cluster `part` among `parts`. */
static inline void lbm_cluster_blocks(int n, int b, int parts, int part, int *first, int *end)
{
    int64_t count = lbm_block_count(n, b);
    *first = (int)(count * part / parts);
    *end = (int)(count * (part + 1) / parts);
}

/* Byte offset of node (x, y, z) in a lattice. */
static inline uint64_t lbm_node_offset(int n, int x, int y, int z)
{
    return ((uint64_t)x + (uint64_t)n * ((uint64_t)y + (uint64_t)n * (uint64_t)z)) * LBM_NODE_BYTES;
}

#endif
