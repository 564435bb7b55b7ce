// Host reference of the CAP Bench results, computed from the definitions and
// independently of the applications' decomposition: FN through the factorisation of each
// number (not trial division), GF over whole images with the mask derived from its
// Gaussian formula, KM serially over all points. Shares only the per-item generators and
// the hash of cap_data.h, which the host tests pin to known values.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace capref {

// sigma(n): sum of all positive divisors, from n's prime factorisation.
uint64_t sigma(uint64_t n);

struct FnResult {
    uint64_t first, last, sigma_sum, friendly_pairs;
};
// Numbers first .. first+count-1.
FnResult fn(uint64_t first, uint64_t count);
std::string fn_line(const FnResult &r);

// Runs work(i) for every i in [0, n), spread over the host's cores (any order).
void on_every_core(uint64_t n, const std::function<void(uint64_t)> &work);

// The 7 x 7 mask from its definition: round(65536 * exp(-d / 1.28) / sum), d = x*x + y*y.
// Indexed [y + 3][x + 3].
std::vector<std::vector<uint32_t>> gf_mask();
// The filtered 256 x 256 output of image k.
std::vector<uint8_t> gf_output(uint64_t k, const std::vector<std::vector<uint32_t>> &mask);
// The result's hash after each of the first `images` images: hashes[i] is the result of
// images 0..i, FNV-1a over their image hashes as little-endian words (cap_data.h). The
// images are filtered on every host core.
std::vector<uint64_t> gf_hashes(uint64_t images);
std::string gf_line(uint64_t images, uint64_t hash);

// k-means over the points (xs[p], ys[p]) from the given centroids (x, y pairs): `iters`
// rounds of assigning each point to the nearest centroid (ties to the lowest index) and
// moving each centroid to the floor of its points' mean (an empty one stays).
std::vector<uint32_t> km_run(const std::vector<uint32_t> &xs, const std::vector<uint32_t> &ys,
                             std::vector<uint32_t> centroids, uint32_t iters);
// Final centroids of the benchmark's k-means over points 0..points-1 (initial centroids:
// points 0..k-1).
std::vector<uint32_t> km_centroids(uint64_t points, uint32_t k, uint32_t iters);
uint64_t km_hash(const std::vector<uint32_t> &centroids);
std::string km_line(uint64_t points, uint32_t k, uint32_t iters, uint64_t hash);

}  // namespace capref
