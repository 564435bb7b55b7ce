/* CAP Bench data and result definitions, shared by the guest applications and
 * the host reference: the generator of every input item, the Gaussian mask and the output
 * hash. Everything here is pure integer arithmetic, so every machine computes the same bits.
 * Host tests pin these functions to known values (tests/host/capbench/capbench_ref_test.cpp). */
#ifndef CAP_DATA_H
#define CAP_DATA_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* splitmix64 of a 64-bit counter, starting from z = x. */
static inline uint64_t cap_splitmix64(uint64_t x)
{
    uint64_t z = x + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* FNV-1a 64: start from CAP_FNV_BASIS, feed bytes in order. */
#define CAP_FNV_BASIS 0xcbf29ce484222325ull
#define CAP_FNV_PRIME 0x100000001b3ull
static inline uint64_t cap_fnv1a(uint64_t h, const void *data, size_t bytes)
{
    const uint8_t *p = (const uint8_t *)data;
    for (size_t i = 0; i < bytes; i++)
        h = (h ^ p[i]) * CAP_FNV_PRIME;
    return h;
}

/* FNV-1a 64 fed with the word v as 8 little-endian bytes. */
static inline uint64_t cap_fnv1a_le64(uint64_t h, uint64_t v)
{
    for (int b = 0; b < 8; b++)
        h = (h ^ (uint8_t)(v >> (8 * b))) * CAP_FNV_PRIME;
    return h;
}

/* --- FN ------------------------------------------------------------------------------ */
#define CAP_FN_FIRST 1000001ull

/* --- GF: 256 x 256 images with a 3-pixel halo (262 x 262 bytes), a 7 x 7 mask ------- */
/* The result of N images: FNV-1a 64 over their image hashes in image order, each fed as
 * 8 little-endian bytes (cap_fnv1a_le64); an image's hash is FNV-1a 64 over its 256 x 256
 * output bytes, row-major. Whoever holds an output image can hash it, so only the
 * hashes have to meet. */
#define CAP_GF_SIDE 256
#define CAP_GF_HALO 3
#define CAP_GF_MASK 7
#define CAP_GF_STRIDE (CAP_GF_SIDE + 2 * CAP_GF_HALO) /* 262 */
#define CAP_GF_CHUNK 64                               /* chunks of 64 x 64 output pixels */
#define CAP_GF_CHUNK_IN (CAP_GF_CHUNK + 2 * CAP_GF_HALO) /* 70 x 70 with the halo */
#define CAP_GF_CHUNKS_PER_SIDE (CAP_GF_SIDE / CAP_GF_CHUNK)
#define CAP_GF_CHUNKS (CAP_GF_CHUNKS_PER_SIDE * CAP_GF_CHUNKS_PER_SIDE)
#define CAP_GF_IMAGE_BYTES ((size_t)CAP_GF_SIDE * CAP_GF_SIDE)

/* Pixel (i, j) of image k with halo, i and j in 0..261. */
static inline uint8_t cap_gf_pixel(uint64_t k, unsigned i, unsigned j)
{
    uint64_t index = k * CAP_GF_STRIDE * CAP_GF_STRIDE + (uint64_t)i * CAP_GF_STRIDE + j;
    return (uint8_t)(cap_splitmix64(index) & 0xff);
}

/* Weight of mask offset (x, y), x and y in -3..3: 65536 * exp(-d / 1.28) / (the sum over
 * all 49), rounded, d = x*x + y*y (sigma 0.8). Indexed by d (0..18); unused d are 0. */
static const uint32_t cap_gf_weight_by_d[19] = {
    16297, 7461, 3416, 0, 716, 328, 0, 0, 31, 14, 7, 0, 0, 1, 0, 0, 0, 0, 0,
};
static inline uint32_t cap_gf_weight(int x, int y) { return cap_gf_weight_by_d[x * x + y * y]; }

/* --- KM: 2-D points with 16-bit coordinates ----------------------------------------- */
static inline uint32_t cap_km_x(uint64_t p) { return (uint32_t)(cap_splitmix64(2 * p) & 0xffff); }
static inline uint32_t cap_km_y(uint64_t p) { return (uint32_t)(cap_splitmix64(2 * p + 1) & 0xffff); }

#ifdef __cplusplus
}
#endif
#endif
