/* CAP Bench GF (Gaussian filter), in the thesis' shape: image k belongs to cluster
 * k mod C; its local master splits each image into 16 chunks of 64 x 64 output pixels
 * (70 x 70 input with the halo), deals the chunks of its images out to its workers in
 * turn, collects the filtered chunks into the output image and sends it to the global
 * master (rank 0), which hashes the output images in image order.
 * Inputs are defined per pixel (cap_gf_pixel), so a worker produces its chunk's input where
 * it is used instead of receiving it: generating every image at rank 0 (or at a local
 * master) would cost more than the filter's share of a worker and serialise the run. The
 * output hash (FNV-1a over all output bytes in order) is sequential by definition, so
 * rank 0 gathers every output image: that is the thesis' shape and the serial part that
 * bounds GF's weak scaling (see README, CAP Bench).
 * Output: gf: images N, output hash H */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cap_app.h"
#include "cap_data.h"

#define CHUNK_OUT_BYTES (CAP_GF_CHUNK * CAP_GF_CHUNK)
#define CHUNK_IN_BYTES (CAP_GF_CHUNK_IN * CAP_GF_CHUNK_IN)

struct gf_buffers {
    uint8_t *in;  /* one chunk with halo, 70 x 70 */
    uint8_t *out; /* one filtered chunk, 64 x 64  */
};

/* Filters chunk q of image k into b->out. */
static void filter_chunk(uint64_t k, int q, struct gf_buffers *b)
{
    unsigned row0 = (unsigned)(q / CAP_GF_CHUNKS_PER_SIDE) * CAP_GF_CHUNK;
    unsigned col0 = (unsigned)(q % CAP_GF_CHUNKS_PER_SIDE) * CAP_GF_CHUNK;
    for (unsigned i = 0; i < CAP_GF_CHUNK_IN; i++)
        for (unsigned j = 0; j < CAP_GF_CHUNK_IN; j++)
            b->in[i * CAP_GF_CHUNK_IN + j] = cap_gf_pixel(k, row0 + i, col0 + j);
    uint64_t w[CAP_GF_MASK][CAP_GF_MASK];
    for (int y = 0; y < CAP_GF_MASK; y++)
        for (int x = 0; x < CAP_GF_MASK; x++)
            w[y][x] = cap_gf_weight(x - CAP_GF_HALO, y - CAP_GF_HALO);
    for (unsigned i = 0; i < CAP_GF_CHUNK; i++)
        for (unsigned j = 0; j < CAP_GF_CHUNK; j++) {
            uint64_t sum = 0;
            const uint8_t *p = &b->in[i * CAP_GF_CHUNK_IN + j];
            for (int y = 0; y < CAP_GF_MASK; y++)
                for (int x = 0; x < CAP_GF_MASK; x++)
                    sum += w[y][x] * p[y * CAP_GF_CHUNK_IN + x];
            sum >>= 16;
            b->out[i * CAP_GF_CHUNK + j] = (uint8_t)(sum > 255 ? 255 : sum);
        }
}

/* Image k of this cluster's image j: k = cluster + j * clusters. */
static uint64_t image_of(uint64_t j) { return (uint64_t)cap_cluster() + j * (uint64_t)cap_clusters(); }

/* Worker w of a cluster filters the cluster's tasks t = j * 16 + q with t mod W == w. */
static void worker(int w, uint64_t per, struct gf_buffers *b)
{
    for (uint64_t t = (uint64_t)w; t < per * CAP_GF_CHUNKS; t += (uint64_t)cap_workers()) {
        filter_chunk(image_of(t / CAP_GF_CHUNKS), (int)(t % CAP_GF_CHUNKS), b);
        cap_send(cap_local_member(0), b->out, CHUNK_OUT_BYTES);
    }
}

/* Local master: assembles the cluster's image j from its 16 filtered chunks. */
static void assemble(uint64_t j, uint8_t *image, struct gf_buffers *b)
{
    for (int q = 0; q < CAP_GF_CHUNKS; q++) {
        uint64_t t = j * CAP_GF_CHUNKS + (uint64_t)q;
        if (cap_self_working())
            filter_chunk(image_of(j), q, b);
        else
            cap_recv(cap_worker_rank((int)(t % (uint64_t)cap_workers())), b->out, CHUNK_OUT_BYTES);
        unsigned row0 = (unsigned)(q / CAP_GF_CHUNKS_PER_SIDE) * CAP_GF_CHUNK;
        unsigned col0 = (unsigned)(q % CAP_GF_CHUNKS_PER_SIDE) * CAP_GF_CHUNK;
        for (unsigned i = 0; i < CAP_GF_CHUNK; i++)
            memcpy(&image[(row0 + i) * CAP_GF_SIDE + col0], &b->out[i * CAP_GF_CHUNK], CAP_GF_CHUNK);
    }
}

int cap_main(int argc, char **argv)
{
    struct cap_run run;
    struct cap_option options[] = {
        {"per-cluster", &run.params.gf_per_cluster, 1, 1u << 20, "images per cluster"},
    };
    int status = cap_begin(&run, "gf", argc, argv, options, 1);
    if (status)
        return status;
    uint64_t per = run.params.gf_per_cluster, clusters = (uint64_t)cap_clusters();
    struct gf_buffers b = {cap_alloc(CHUNK_IN_BYTES, "gf chunk input"),
                           cap_alloc(CHUNK_OUT_BYTES, "gf chunk output")};
    uint8_t *image = cap_is_local_master() ? cap_alloc(CAP_GF_IMAGE_BYTES, "gf image") : NULL;
    cap_start(&run);

    char line[96];
    uint64_t end = 0;
    if (!cap_is_local_master()) {
        worker(cap_local_rank() - 1, per, &b);
    } else if (cap_rank() != 0) {
        for (uint64_t j = 0; j < per; j++) {
            assemble(j, image, &b);
            cap_send(0, image, CAP_GF_IMAGE_BYTES);
        }
    } else {
        /* Global master: image k comes from cluster k mod C, in image order (its own
         * cluster's images it assembles itself). */
        uint64_t hash = CAP_FNV_BASIS;
        for (uint64_t k = 0; k < per * clusters; k++) {
            if (k % clusters == 0)
                assemble(k / clusters, image, &b);
            else
                cap_recv(cap_local_master_of((int)(k % clusters)), image, CAP_GF_IMAGE_BYTES);
            hash = cap_fnv1a(hash, image, CAP_GF_IMAGE_BYTES);
        }
        end = cap_cycles();
        snprintf(line, sizeof line, "gf: images %" PRIu64 ", output hash 0x%016" PRIx64,
                 per * clusters, hash);
    }
    free(b.in);
    free(b.out);
    free(image);
    return cap_finish(&run, end, cap_rank() == 0 ? line : NULL);
}
