/* The DDR service (nvx/ddr.h) on up to two DDRs: every compute cluster writes and reads
 * back its stripe of a shared region at odd offsets and sizes with more transfers
 * outstanding than the NoC takes at once, reads its neighbour's stripe (several clients of
 * one region), moves 3-D boxes, and checks every refusal: out-of-range boxes (also past the
 * client's own check), sizes over the limits, bad names, another cluster's private region
 * by name and by its real handle (nothing moved either way), destroy by a non-creator, and
 * a destroyed region. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <nvx/ddr.h>
#include "check.h"
#include "ikc_test.h"

#define SHARED_SIZE 300001u
#define PRIVATE_SIZE 40009u
#define PIECES 11 /* more than NVX_DDR_CLIENT_OPS and the data ports: some wait in the library */
#define HANDLES_AT 3u /* where each cluster leaves its private region's handle in the shared one */

static uint32_t seed_of(unsigned rank, unsigned ddr) { return 0x5eed0000u + rank * 16 + ddr; }

/* Piece k of a stripe of `len` bytes: odd sizes that add up to len. */
static void piece(uint64_t len, int k, uint64_t *at, uint64_t *size)
{
    uint64_t lo = len * (uint64_t)k / PIECES, hi = len * (uint64_t)(k + 1) / PIECES;
    *at = lo;
    *size = hi - lo;
}

static void stripes(struct ikc_env *e, const struct nvx_ddr_region *shared, unsigned d)
{
    uint64_t stripe = (SHARED_SIZE - 64) / e->n, base = 64 + 7 + stripe * e->rank;
    stripe -= 7 + 2 * (e->rank & 1);  /* odd offsets, odd and even lengths */
    uint8_t *mine = malloc(stripe), *back = malloc(stripe);
    CHECK(mine && back);
    if (!mine || !back) return;
    ikc_fill(mine, stripe, seed_of(e->rank, d));
    struct nvx_ddr_op ops[PIECES];
    for (int k = 0; k < PIECES; k++) {
        uint64_t at, size;
        piece(stripe, k, &at, &size);
        struct nvx_ddr_box b = nvx_ddr_range(base + at, (uint32_t)size);
        CHECK_EQ(nvx_ddr_awrite(shared, &b, mine + at, &ops[k]), 0);
    }
    for (int k = PIECES - 1; k >= 0; k--) {  /* waited for out of order */
        uint64_t at, size;
        piece(stripe, k, &at, &size);
        CHECK_EQ(nvx_ddr_wait(&ops[k]), (int64_t)size);
    }
    memset(back, 0, stripe);
    for (int k = 0; k < PIECES; k++) {
        uint64_t at, size;
        piece(stripe, k, &at, &size);
        struct nvx_ddr_box b = nvx_ddr_range(base + at, (uint32_t)size);
        CHECK_EQ(nvx_ddr_aread(shared, &b, back + at, &ops[k]), 0);
    }
    int finished = 0;
    while (finished < PIECES) {  /* test, then wait for the rest */
        finished = 0;
        for (int k = 0; k < PIECES; k++) finished += nvx_ddr_test(&ops[k]);
        if (finished < PIECES) nvx_ddr_wait(&ops[PIECES - 1]);
    }
    for (int k = 0; k < PIECES; k++) CHECK(ops[k].result > 0);
    CHECK_EQ(ikc_verify(back, stripe, seed_of(e->rank, d)), -1);
    free(mine);
    free(back);
}

static void neighbour_stripe(struct ikc_env *e, const struct nvx_ddr_region *shared, unsigned d)
{
    unsigned next = (e->rank + 1) % e->n;
    uint64_t stripe = (SHARED_SIZE - 64) / e->n, base = 64 + 7 + stripe * next;
    stripe -= 7 + 2 * (next & 1);
    uint8_t *buf = malloc(stripe);
    CHECK(buf != 0);
    if (!buf) return;
    struct nvx_ddr_box b = nvx_ddr_range(base, (uint32_t)stripe);
    CHECK_EQ(nvx_ddr_read(shared, &b, buf), (int64_t)stripe);
    CHECK_EQ(ikc_verify(buf, stripe, seed_of(next, d)), -1);
    free(buf);
}

/* A 5 x 3 box of 13-byte rows in the private region, read back whole and as the box. */
static void boxes(const struct nvx_ddr_region *priv)
{
    enum { ROW = 13, ROWS = 3, PLANES = 5, RSTRIDE = 40, PSTRIDE = 257, OFFSET = 101 };
    uint8_t packed[ROW * ROWS * PLANES], back[ROW * ROWS * PLANES];
    static uint8_t whole[PRIVATE_SIZE];
    ikc_fill(packed, sizeof packed, 77);
    struct nvx_ddr_box b = {OFFSET, RSTRIDE, PSTRIDE, ROW, ROWS, PLANES, 0};
    CHECK_EQ(nvx_ddr_write(priv, &b, packed), (int64_t)sizeof packed);
    struct nvx_ddr_box all = nvx_ddr_range(0, PRIVATE_SIZE);
    CHECK_EQ(nvx_ddr_read(priv, &all, whole), PRIVATE_SIZE);
    int ok = 1;
    for (int p = 0; p < PLANES; p++)
        for (int r = 0; r < ROWS; r++)
            ok &= memcmp(whole + OFFSET + p * PSTRIDE + r * RSTRIDE, packed + (p * ROWS + r) * ROW, ROW) == 0;
    CHECK(ok);
    CHECK_EQ(whole[OFFSET - 1], 0);
    CHECK_EQ(whole[OFFSET + ROW], 0);  /* between rows: untouched */
    memset(back, 0, sizeof back);
    CHECK_EQ(nvx_ddr_read(priv, &b, back), (int64_t)sizeof back);
    CHECK_EQ(memcmp(back, packed, sizeof back), 0);
}

static void refusals(struct ikc_env *e, const struct nvx_ddr_region *shared, const struct nvx_ddr_region *priv,
                     unsigned d)
{
    uint8_t buf[64];
    struct nvx_ddr_op op;
    struct nvx_ddr_box b = nvx_ddr_range(SHARED_SIZE - 3, 5);
    CHECK_EQ(nvx_ddr_aread(shared, &b, buf, &op), -ERANGE);
    b = nvx_ddr_range(~0ull - 2, 5);
    CHECK_EQ(nvx_ddr_read(shared, &b, buf), -EINVAL);  /* the end overflows */
    b = nvx_ddr_range(0, NVX_DDR_TRANSFER_MAX + 1);
    CHECK_EQ(nvx_ddr_read(shared, &b, buf), -EFBIG);
    b = nvx_ddr_range(0, 0);
    CHECK_EQ(nvx_ddr_write(shared, &b, buf), -EINVAL);
    struct nvx_ddr_box empty = {0, 8, 8, 8, 0, 1, 0};
    CHECK_EQ(nvx_ddr_read(shared, &empty, buf), -EINVAL);

    /* A client that lies about the region's size: the server refuses, nothing moves. */
    struct nvx_ddr_region liar = *shared;
    liar.size = ~0ull;
    memset(buf, 0xa5, sizeof buf);
    b = nvx_ddr_range(SHARED_SIZE - 3, 5);
    CHECK_EQ(nvx_ddr_read(&liar, &b, buf), -ERANGE);
    CHECK_EQ(buf[0], 0xa5);
    CHECK_EQ(nvx_ddr_write(&liar, &b, buf), -ERANGE);

    struct nvx_ddr_region r;
    CHECK_EQ(nvx_ddr_create(d, "too-big", (uint64_t)NVX_DDR_REGION_MAX + 1, 0, &r), -EFBIG);
    CHECK_EQ(nvx_ddr_create(d, "empty", 0, 0, &r), -EINVAL);
    CHECK_EQ(nvx_ddr_create(d, "flags", 8, 0x80, &r), -EINVAL);
    CHECK_EQ(nvx_ddr_create((unsigned)nvx_ddr_count(), "no-ddr", 8, 0, &r), -ENOENT);
    CHECK_EQ(nvx_ddr_open(d, "no-such-region", &r), -ENOENT);
    CHECK_EQ(nvx_ddr_open(d, "", &r), -EINVAL);
    CHECK_EQ(nvx_ddr_open(d, 0, &r), -EINVAL);
    char long_name[NVX_NAME_MAX + 8];
    memset(long_name, 'x', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    CHECK_EQ(nvx_ddr_open(d, long_name, &r), -ENAMETOOLONG);
    CHECK_EQ(nvx_ddr_create(d, "shared", 8, 0, &r), -EEXIST);

    if (e->n < 2) return;
    /* Another cluster's private region: by name, and by its handle (left in the shared
     * region by its creator), for reads, writes and destroy. */
    unsigned next = (e->rank + 1) % e->n;
    char name[32];
    snprintf(name, sizeof name, "private-%u", next);
    CHECK_EQ(nvx_ddr_open(d, name, &r), -EPERM);
    struct nvx_ddr_box at = nvx_ddr_range(HANDLES_AT + 4 * next, 4);
    uint32_t handle = 0;
    CHECK_EQ(nvx_ddr_read(shared, &at, &handle), 4);
    struct nvx_ddr_region theirs = {d, handle, PRIVATE_SIZE};
    memset(buf, 0x3c, sizeof buf);
    b = nvx_ddr_range(200, 16);
    CHECK_EQ(nvx_ddr_read(&theirs, &b, buf), -EPERM);
    CHECK_EQ(buf[0], 0x3c);
    CHECK_EQ(nvx_ddr_write(&theirs, &b, buf), -EPERM);
    CHECK_EQ(nvx_ddr_destroy(&theirs), -EPERM);
    if (e->rank != 0) CHECK_EQ(nvx_ddr_destroy(shared), -EPERM);  /* rank 0 created it */
    (void)priv;
}

static void one_ddr(struct ikc_env *e, unsigned d)
{
    struct nvx_ddr_region shared, priv, again;
    char name[32];
    snprintf(name, sizeof name, "private-%u", e->rank);
    if (e->rank == 0) CHECK_EQ(nvx_ddr_create(d, "shared", SHARED_SIZE, 0, &shared), 0);
    CHECK_EQ(nvx_ddr_create(d, name, PRIVATE_SIZE, NVX_DDR_PRIVATE, &priv), 0);
    CHECK_EQ(priv.size, PRIVATE_SIZE);
    CHECK_EQ(ikc_barrier(e), 0);
    CHECK_EQ(nvx_ddr_open(d, "shared", &again), 0);
    CHECK_EQ(again.size, SHARED_SIZE);
    if (e->rank == 0) CHECK_EQ(again.handle, shared.handle);
    shared = again;
    CHECK_EQ(nvx_ddr_open(d, name, &again), 0);  /* its creator may open it */
    struct nvx_ddr_box at = nvx_ddr_range(HANDLES_AT + 4 * e->rank, 4);
    CHECK_EQ(nvx_ddr_write(&shared, &at, &priv.handle), 4);

    stripes(e, &shared, d);
    boxes(&priv);
    CHECK_EQ(ikc_barrier(e), 0);  /* every stripe and handle written */
    neighbour_stripe(e, &shared, d);
    refusals(e, &shared, &priv, d);
    /* The neighbour's private region is still all zero where the refused write aimed. */
    uint8_t mine[16];
    struct nvx_ddr_box b = nvx_ddr_range(200, 16);
    CHECK_EQ(nvx_ddr_read(&priv, &b, mine), 16);
    uint8_t zero[16] = {0};
    CHECK_EQ(memcmp(mine, zero, 16), 0);
    CHECK_EQ(ikc_barrier(e), 0);  /* everyone done with the shared region */

    CHECK_EQ(nvx_ddr_destroy(&priv), 0);
    CHECK_EQ(nvx_ddr_read(&priv, &b, mine), -EBADF);
    if (e->rank == 0) CHECK_EQ(nvx_ddr_destroy(&shared), 0);
    CHECK_EQ(ikc_barrier(e), 0);
    CHECK_EQ(nvx_ddr_open(d, "shared", &again), -ENOENT);
    CHECK_EQ(nvx_ddr_write(&shared, &b, mine), -EBADF);
    CHECK_EQ(ikc_barrier(e), 0);  /* nobody creates "shared" again before all looked */
}

int main(void)
{
    struct ikc_env e;
    CHECK_EQ(ikc_env_init(&e), 0);
    int ddrs = nvx_ddr_count();
    CHECK(ddrs >= 1);
    for (int d = 0; d < ddrs && d < 2; d++) one_ddr(&e, (unsigned)d);
    CHECK_EQ(ikc_env_fini(&e), 0);
    return check_finish("ddr");
}
