// Host reference of the CAP Bench results: see capbench_ref.hpp.
#include "capbench_ref.hpp"

#include <algorithm>
#include <atomic>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <numeric>
#include <thread>
#include <utility>

#include "../cap_data.h"

namespace capref {

uint64_t sigma(uint64_t n)
{
    uint64_t result = 1;
    for (uint64_t p = 2; p * p <= n; p++) {
        if (n % p)
            continue;
        uint64_t term = 1, power = 1;
        while (n % p == 0) {
            n /= p;
            power *= p;
            term += power;  // 1 + p + p^2 + ... + p^e
        }
        result *= term;
    }
    if (n > 1)
        result *= 1 + n;
    return result;
}

FnResult fn(uint64_t first, uint64_t count)
{
    FnResult r{first, first + count - 1, 0, 0};
    std::map<std::pair<uint64_t, uint64_t>, uint64_t> abundances;  // reduced fraction -> numbers
    for (uint64_t n = first; n < first + count; n++) {
        uint64_t s = sigma(n), g = std::gcd(s, n);
        r.sigma_sum += s;
        abundances[{s / g, n / g}]++;
    }
    for (const auto &[fraction, m] : abundances)
        r.friendly_pairs += m * (m - 1) / 2;
    return r;
}

std::string fn_line(const FnResult &r)
{
    char line[160];
    std::snprintf(line, sizeof line,
                  "fn: numbers %" PRIu64 "..%" PRIu64 ", sigma sum %" PRIu64 ", friendly pairs %" PRIu64,
                  r.first, r.last, r.sigma_sum, r.friendly_pairs);
    return line;
}

std::vector<std::vector<uint32_t>> gf_mask()
{
    const double sigma2 = 2 * 0.8 * 0.8;  // 1.28
    double total = 0;
    for (int y = -3; y <= 3; y++)
        for (int x = -3; x <= 3; x++)
            total += std::exp(-(x * x + y * y) / sigma2);
    std::vector<std::vector<uint32_t>> mask(7, std::vector<uint32_t>(7));
    for (int y = -3; y <= 3; y++)
        for (int x = -3; x <= 3; x++)
            mask[y + 3][x + 3] = static_cast<uint32_t>(std::lround(65536 * std::exp(-(x * x + y * y) / sigma2) / total));
    return mask;
}

std::vector<uint8_t> gf_output(uint64_t k, const std::vector<std::vector<uint32_t>> &mask)
{
    const unsigned side = 256, stride = 262;
    uint32_t flat[7][7];  // the mask without its vectors' indirections: the loop below is the tool's time
    for (int y = 0; y < 7; y++)
        for (int x = 0; x < 7; x++)
            flat[y][x] = mask[y][x];
    std::vector<uint8_t> in(stride * stride), out(side * side);
    for (unsigned i = 0; i < stride; i++)
        for (unsigned j = 0; j < stride; j++)
            in[i * stride + j] = static_cast<uint8_t>(cap_splitmix64(k * stride * stride + i * stride + j) & 0xff);
    for (unsigned i = 0; i < side; i++)
        for (unsigned j = 0; j < side; j++) {
            uint64_t sum = 0;
            for (int y = 0; y < 7; y++) {
                const uint8_t *row = &in[(i + y) * stride + j];
                for (int x = 0; x < 7; x++)
                    sum += uint64_t{flat[y][x]} * row[x];
            }
            out[i * side + j] = static_cast<uint8_t>(std::min<uint64_t>(255, sum >> 16));
        }
    return out;
}

void on_every_core(uint64_t n, const std::function<void(uint64_t)> &work)
{
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    std::atomic<uint64_t> next{0};
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < cores; t++)
        threads.emplace_back([&] {
            for (uint64_t i = next++; i < n; i = next++)
                work(i);
        });
    for (auto &t : threads)
        t.join();
}

std::vector<uint64_t> gf_hashes(uint64_t images)
{
    const auto mask = gf_mask();
    std::vector<uint64_t> image_hash(images);
    on_every_core(images, [&](uint64_t k) {
        const auto out = gf_output(k, mask);
        image_hash[k] = cap_fnv1a(CAP_FNV_BASIS, out.data(), out.size());
    });
    std::vector<uint64_t> hashes;
    uint64_t h = CAP_FNV_BASIS;
    for (uint64_t k = 0; k < images; k++) {
        h = cap_fnv1a_le64(h, image_hash[k]);
        hashes.push_back(h);
    }
    return hashes;
}

std::string gf_line(uint64_t images, uint64_t hash)
{
    char line[96];
    std::snprintf(line, sizeof line, "gf: images %" PRIu64 ", output hash 0x%016" PRIx64, images, hash);
    return line;
}

std::vector<uint32_t> km_run(const std::vector<uint32_t> &xs, const std::vector<uint32_t> &ys,
                             std::vector<uint32_t> c, uint32_t iters)
{
    const size_t k = c.size() / 2;
    for (uint32_t it = 0; it < iters; it++) {
        std::vector<uint64_t> sx(k), sy(k), n(k);
        for (size_t p = 0; p < xs.size(); p++) {
            size_t best = 0;
            uint64_t best_d = UINT64_MAX;
            for (size_t i = 0; i < k; i++) {
                int64_t dx = int64_t{xs[p]} - c[2 * i], dy = int64_t{ys[p]} - c[2 * i + 1];
                uint64_t d = static_cast<uint64_t>(dx * dx + dy * dy);
                if (d < best_d) {
                    best_d = d;
                    best = i;
                }
            }
            sx[best] += xs[p];
            sy[best] += ys[p];
            n[best]++;
        }
        for (size_t i = 0; i < k; i++)
            if (n[i]) {
                c[2 * i] = static_cast<uint32_t>(sx[i] / n[i]);
                c[2 * i + 1] = static_cast<uint32_t>(sy[i] / n[i]);
            }
    }
    return c;
}

std::vector<uint32_t> km_centroids(uint64_t points, uint32_t k, uint32_t iters)
{
    std::vector<uint32_t> xs(points), ys(points), c(2 * k);
    for (uint64_t p = 0; p < points; p++) {
        xs[p] = cap_km_x(p);
        ys[p] = cap_km_y(p);
    }
    for (uint32_t i = 0; i < k; i++) {
        c[2 * i] = xs[i];
        c[2 * i + 1] = ys[i];
    }
    return km_run(xs, ys, c, iters);
}

uint64_t km_hash(const std::vector<uint32_t> &centroids)
{
    uint64_t h = CAP_FNV_BASIS;
    for (uint32_t v : centroids)
        for (int b = 0; b < 4; b++) {
            uint8_t byte = static_cast<uint8_t>(v >> (8 * b));
            h = cap_fnv1a(h, &byte, 1);
        }
    return h;
}

std::string km_line(uint64_t points, uint32_t k, uint32_t iters, uint64_t hash)
{
    char line[128];
    std::snprintf(line, sizeof line,
                  "km: points %" PRIu64 ", centroids %u, iterations %u, centroid hash 0x%016" PRIx64,
                  points, k, iters, hash);
    return line;
}

}  // namespace capref
