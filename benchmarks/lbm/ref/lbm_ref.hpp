// Host reference of benchmarks/lbm: the cavity stepped over the whole lattice at once, and
// the same steps through the guest's block decomposition (fetch box, update, put back), so
// tests can show the decomposition changes no bit.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace lbm_ref {

// The lattice after `steps` steps of an n^3 cavity (node-wise, as the guest's).
std::vector<float> run_whole(int n, int steps);
// The same through b^3 blocks dealt to `clusters` clusters, each block computed from a
// copy of its fetch box only.
std::vector<float> run_blocked(int n, int b, int clusters, int steps);
uint64_t hash(const std::vector<float>& lattice);
// The application's result line: "lbm: cavity N^3, steps T, lattice hash H".
std::string result_line(int n, int steps, uint64_t hash);

}  // namespace lbm_ref
