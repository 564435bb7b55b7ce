/* The D3Q19 lid-driven cavity: the velocity set, the BGK collision in single precision and
 * the pull update of one cell, shared by the guest application and the host reference so
 * that both do the same arithmetic in the same order (compile both with
 * -ffp-contract=off: a fused multiply-add on one side only would change the last bits).
 * A lattice holds, per node, the 19 post-collision distributions of one time step (node
 * x + N * (y + N * z), the 19 values consecutive: the paper's node-wise layout). */
#ifndef LBM_D3Q19_H
#define LBM_D3Q19_H
#include <stdint.h>

#define LBM_Q 19
#define LBM_NODE_BYTES (LBM_Q * 4u)
#define LBM_OMEGA 1.2f        /* BGK relaxation rate 1 / tau                         */
#define LBM_LID_SPEED 0.05f   /* the lid (z = N) moves along +x                       */

static const int lbm_cx[LBM_Q] = {0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0};
static const int lbm_cy[LBM_Q] = {0, 0, 0, 1, -1, 0, 0, 1, -1, -1, 1, 0, 0, 0, 0, 1, -1, 1, -1};
static const int lbm_cz[LBM_Q] = {0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, -1, -1, 1, 1, -1, -1, 1};
static const int lbm_opposite[LBM_Q] = {0, 2, 1, 4, 3, 6, 5, 8, 7, 10, 9, 12, 11, 14, 13, 16, 15, 18, 17};
static const float lbm_w[LBM_Q] = {1.0f / 3, 1.0f / 18, 1.0f / 18, 1.0f / 18, 1.0f / 18, 1.0f / 18, 1.0f / 18,
                                   1.0f / 36, 1.0f / 36, 1.0f / 36, 1.0f / 36, 1.0f / 36, 1.0f / 36,
                                   1.0f / 36, 1.0f / 36, 1.0f / 36, 1.0f / 36, 1.0f / 36, 1.0f / 36};

static const float lbm_fx[LBM_Q] = {0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0};
static const float lbm_fy[LBM_Q] = {0, 0, 0, 1, -1, 0, 0, 1, -1, -1, 1, 0, 0, 0, 0, 1, -1, 1, -1};
static const float lbm_fz[LBM_Q] = {0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, -1, -1, 1, 1, -1, -1, 1};

/* The state before the first step: fluid at rest, density 1. */
static inline void lbm_rest(float *node)
{
    for (int i = 0; i < LBM_Q; i++) node[i] = lbm_w[i];
}

/* BGK collision of the distributions f (streamed in) into out. */
static inline void lbm_collide(const float *f, float *out)
{
    float rho = 0, jx = 0, jy = 0, jz = 0;
    for (int i = 0; i < LBM_Q; i++) {
        rho += f[i];
        jx += f[i] * lbm_fx[i];
        jy += f[i] * lbm_fy[i];
        jz += f[i] * lbm_fz[i];
    }
    float ux = jx / rho, uy = jy / rho, uz = jz / rho;
    float usq = 1.5f * (ux * ux + uy * uy + uz * uz);
    for (int i = 0; i < LBM_Q; i++) {
        float cu = 3.0f * (lbm_fx[i] * ux + lbm_fy[i] * uy + lbm_fz[i] * uz);
        float feq = lbm_w[i] * rho * (1.0f + cu + 0.5f * cu * cu - usq);
        out[i] = f[i] - LBM_OMEGA * (f[i] - feq);
    }
}

/* One cell (x, y, z) of an n^3 cavity: pulls each distribution from its upwind neighbour
 * in `src` (a box of the previous lattice whose node (x, y, z) is at
 * src + ((x - ox) + sx * ((y - oy) + sy * (z - oz))) * LBM_Q), bouncing back from the walls
 * (the lid adds its momentum), then collides into out. */
static inline void lbm_update_cell(const float *src, int ox, int oy, int oz, int sx, int sy, int n, int x, int y,
                                   int z, float *out)
{
    float f[LBM_Q];
    const float *here = src + ((x - ox) + sx * ((y - oy) + sy * (z - oz))) * LBM_Q;
    if (x > 0 && x < n - 1 && y > 0 && y < n - 1 && z > 0 && z < n - 1) {  /* no wall near: the same loads */
        for (int i = 0; i < LBM_Q; i++) f[i] = here[-(lbm_cx[i] + sx * (lbm_cy[i] + sy * lbm_cz[i])) * LBM_Q + i];
        lbm_collide(f, out);
        return;
    }
    for (int i = 0; i < LBM_Q; i++) {
        int px = x - lbm_cx[i], py = y - lbm_cy[i], pz = z - lbm_cz[i];
        if (px >= 0 && px < n && py >= 0 && py < n && pz >= 0 && pz < n) {
            f[i] = src[((px - ox) + sx * ((py - oy) + sy * (pz - oz))) * LBM_Q + i];
        } else {
            f[i] = here[lbm_opposite[i]];
            if (pz == n) f[i] += 6.0f * lbm_w[i] * (lbm_fx[i] * LBM_LID_SPEED);
        }
    }
    lbm_collide(f, out);
}

/* FNV-1a 64 over bytes, continued from h (start with LBM_HASH_START). */
#define LBM_HASH_START 0xcbf29ce484222325ull
static inline uint64_t lbm_hash(uint64_t h, const void *bytes, uint64_t size)
{
    const uint8_t *p = (const uint8_t *)bytes;
    for (uint64_t i = 0; i < size; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

#endif
