/* CAP Bench GF (Gaussian filter), in the thesis' shape: image k belongs to cluster
 * k mod C; its local master splits each image into 16 chunks of 64 x 64 output pixels,
 * sends each worker the chunk's 70 x 70 input (with the halo) and collects the filtered
 * chunks into the output image, which it hashes (cap_data.h defines the result).
 * Inputs are defined per pixel (cap_gf_pixel): the local master produces a chunk's input
 * when it hands the chunk out (its "read" of the image), so no rank holds more than one
 * output image and the input never crosses the NoC, as in the thesis where each cluster's
 * images arrive once. Output images stay where they were assembled: each local master
 * sends the global master (rank 0) its images' hashes at the end, 8 bytes per image in
 * one message, and rank 0 chains every image's hash in image order (about 40
 * instructions per image against about 10 M of filtering spread over a cluster).
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

/* Image k of this cluster's image j: k = cluster + j * clusters. */
static uint64_t image_of(uint64_t j) { return (uint64_t)cap_cluster() + j * (uint64_t)cap_clusters(); }

/* Task t of a cluster is chunk t mod 16 of its image t / 16. */
static unsigned chunk_row(uint64_t t) { return (unsigned)(t % CAP_GF_CHUNKS / CAP_GF_CHUNKS_PER_SIDE) * CAP_GF_CHUNK; }
static unsigned chunk_col(uint64_t t) { return (unsigned)(t % CAP_GF_CHUNKS % CAP_GF_CHUNKS_PER_SIDE) * CAP_GF_CHUNK; }

/* The input of task t, 70 x 70 with the halo. */
static void read_chunk(uint64_t t, uint8_t *in)
{
    uint64_t k = image_of(t / CAP_GF_CHUNKS);
    unsigned row0 = chunk_row(t), col0 = chunk_col(t);
    for (unsigned i = 0; i < CAP_GF_CHUNK_IN; i++)
        for (unsigned j = 0; j < CAP_GF_CHUNK_IN; j++)
            in[i * CAP_GF_CHUNK_IN + j] = cap_gf_pixel(k, row0 + i, col0 + j);
}

/* Filters one 70 x 70 input chunk into its 64 x 64 output. */
static void filter_chunk(const uint8_t *in, uint8_t *out)
{
    uint64_t w[CAP_GF_MASK][CAP_GF_MASK];
    for (int y = 0; y < CAP_GF_MASK; y++)
        for (int x = 0; x < CAP_GF_MASK; x++)
            w[y][x] = cap_gf_weight(x - CAP_GF_HALO, y - CAP_GF_HALO);
    for (unsigned i = 0; i < CAP_GF_CHUNK; i++)
        for (unsigned j = 0; j < CAP_GF_CHUNK; j++) {
            uint64_t sum = 0;
            const uint8_t *p = &in[i * CAP_GF_CHUNK_IN + j];
            for (int y = 0; y < CAP_GF_MASK; y++)
                for (int x = 0; x < CAP_GF_MASK; x++)
                    sum += w[y][x] * p[y * CAP_GF_CHUNK_IN + x];
            sum >>= 16;
            out[i * CAP_GF_CHUNK + j] = (uint8_t)(sum > 255 ? 255 : sum);
        }
}

/* Worker w of a cluster filters the cluster's tasks t with t mod W == w, in order. */
static void worker(int w, uint64_t tasks, struct gf_buffers *b)
{
    int master = cap_local_member(0);
    for (uint64_t t = (uint64_t)w; t < tasks; t += (uint64_t)cap_workers()) {
        cap_recv(master, b->in, CHUNK_IN_BYTES);
        filter_chunk(b->in, b->out);
        cap_send(master, b->out, CHUNK_OUT_BYTES);
    }
}

/* Local master: hands out the cluster's tasks round-robin, one in flight per worker (a
 * worker's next chunk goes out when its previous result came back, so blocking sends
 * cannot deadlock), and assembles the output images in order. */
struct gf_feeder {
    uint64_t tasks;     /* 16 per image of this cluster */
    uint64_t next;      /* the next task to hand out    */
    uint64_t done;      /* results collected            */
};

static void hand_out(struct gf_feeder *f, struct gf_buffers *b)
{
    read_chunk(f->next, b->in);
    cap_send(cap_worker_rank((int)(f->next % (uint64_t)cap_workers())), b->in, CHUNK_IN_BYTES);
    f->next++;
}

/* Collects the next output image of this cluster into `image`. */
static void assemble(struct gf_feeder *f, uint8_t *image, struct gf_buffers *b)
{
    if (f->done == 0 && !cap_self_working())
        while (f->next < f->tasks && f->next < (uint64_t)cap_workers())
            hand_out(f, b);
    for (int q = 0; q < CAP_GF_CHUNKS; q++, f->done++) {
        uint64_t t = f->done;
        if (cap_self_working()) {
            read_chunk(t, b->in);
            filter_chunk(b->in, b->out);
        } else {
            cap_recv(cap_worker_rank((int)(t % (uint64_t)cap_workers())), b->out, CHUNK_OUT_BYTES);
            if (f->next < f->tasks)
                hand_out(f, b);
        }
        unsigned row0 = chunk_row(t), col0 = chunk_col(t);
        for (unsigned i = 0; i < CAP_GF_CHUNK; i++)
            memcpy(&image[(row0 + i) * CAP_GF_SIDE + col0], &b->out[i * CAP_GF_CHUNK], CAP_GF_CHUNK);
    }
}

/* Out of line: inlined into cap_main, the byte loop kept its constants on the stack. */
static __attribute__((noinline)) uint64_t image_hash(const uint8_t *image)
{
    return cap_fnv1a(CAP_FNV_BASIS, image, CAP_GF_IMAGE_BYTES);
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
    uint64_t hash_count = cap_rank() == 0 ? per * clusters : cap_is_local_master() ? per : 0;
    uint64_t *hashes = hash_count ? cap_alloc(hash_count * sizeof *hashes, "gf image hashes") : NULL;
    cap_start(&run);

    char line[96];
    uint64_t end = 0;
    struct gf_feeder feeder = {per * CAP_GF_CHUNKS, 0, 0};
    if (!cap_is_local_master()) {
        worker(cap_local_rank() - 1, feeder.tasks, &b);
    } else {
        /* hashes[c * per + j]: the hash of cluster c's image j (rank 0 keeps every
         * cluster's, the other local masters their own). */
        for (uint64_t j = 0; j < per; j++) {
            assemble(&feeder, image, &b);
            hashes[j] = image_hash(image);
        }
        if (cap_rank() != 0)
            cap_send(0, hashes, per * sizeof *hashes);
    }
    if (cap_rank() == 0) {
        for (uint64_t c = 1; c < clusters; c++)
            cap_recv(cap_local_master_of((int)c), &hashes[c * per], per * sizeof *hashes);
        uint64_t hash = CAP_FNV_BASIS;
        for (uint64_t k = 0; k < per * clusters; k++) /* image k is cluster k mod C's */
            hash = cap_fnv1a_le64(hash, hashes[k % clusters * per + k / clusters]);
        end = cap_cycles();
        snprintf(line, sizeof line, "gf: images %" PRIu64 ", output hash 0x%016" PRIx64,
                 per * clusters, hash);
    }
    free(b.in);
    free(b.out);
    free(image);
    free(hashes);
    return cap_finish(&run, end, cap_rank() == 0 ? line : NULL);
}
