#include "lbm_ref.hpp"

#include <cstdio>

extern "C" {
#include "lbm_blocks.h"
#include "lbm_d3q19.h"
}

namespace lbm_ref {
namespace {
std::vector<float> at_rest(int n) {
    std::vector<float> lattice(static_cast<size_t>(n) * n * n * LBM_Q);
    for (size_t node = 0; node < lattice.size() / LBM_Q; node++) lbm_rest(&lattice[node * LBM_Q]);
    return lattice;
}
}  // namespace

std::vector<float> run_whole(int n, int steps) {
    std::vector<float> old = at_rest(n), next(old.size());
    for (int t = 0; t < steps; t++) {
        for (int z = 0; z < n; z++)
            for (int y = 0; y < n; y++)
                for (int x = 0; x < n; x++)
                    lbm_update_cell(old.data(), 0, 0, 0, n, n, n, x, y, z,
                                    &next[lbm_node_offset(n, x, y, z) / sizeof(float)]);
        old.swap(next);
    }
    return old;
}

std::vector<float> run_blocked(int n, int b, int clusters, int steps) {
    std::vector<float> old = at_rest(n), next(old.size()), fetched, block;
    for (int t = 0; t < steps; t++) {
        for (int c = 0; c < clusters; c++) {
            int first, end;
            lbm_cluster_blocks(n, b, clusters, c, &first, &end);
            for (int m = first; m < end; m++) {
                lbm_box3 blk = lbm_block(n, b, m), f = lbm_fetch_box(n, blk);
                fetched.assign(static_cast<size_t>(f.sx) * f.sy * f.sz * LBM_Q, 0.0f);
                for (int z = 0; z < f.sz; z++)
                    for (int y = 0; y < f.sy; y++)
                        for (int x = 0; x < f.sx; x++)
                            for (int i = 0; i < LBM_Q; i++)
                                fetched[((x + f.sx * (y + f.sy * z)) * LBM_Q) + i] =
                                    old[lbm_node_offset(n, f.x + x, f.y + y, f.z + z) / sizeof(float) + i];
                for (int z = 0; z < b; z++)
                    for (int y = 0; y < b; y++)
                        for (int x = 0; x < b; x++)
                            lbm_update_cell(fetched.data(), f.x, f.y, f.z, f.sx, f.sy, n, blk.x + x, blk.y + y,
                                            blk.z + z,
                                            &next[lbm_node_offset(n, blk.x + x, blk.y + y, blk.z + z) / sizeof(float)]);
            }
        }
        old.swap(next);
    }
    return old;
}

uint64_t hash(const std::vector<float>& lattice) {
    return lbm_hash(LBM_HASH_START, lattice.data(), lattice.size() * sizeof(float));
}

std::string result_line(int n, int steps, uint64_t h) {
    char line[128];
    std::snprintf(line, sizeof line, "lbm: cavity %d^3, steps %d, lattice hash %016llx", n, steps,
                  static_cast<unsigned long long>(h));
    return line;
}

}  // namespace lbm_ref
