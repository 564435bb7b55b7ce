// CAP Bench's pairwise exchange order (benchmarks/capbench/cap_pairs.h): every pair meets
// once, and A2A's exchanges in that order complete even when every send is synchronous
// (the raw-IKC layer's rendezvous), which the naive shift order does not.
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "cap_pairs.h"

namespace {
// One blocking operation of a rank: a send to or a receive from `peer`.
struct Op {
    bool send;
    int peer;
};

// Runs every rank's program with synchronous sends: a send and the matching receive
// complete together, nothing else moves. Returns true if every program ran to the end.
bool completes(const std::vector<std::vector<Op>>& program) {
    int n = static_cast<int>(program.size());
    std::vector<std::size_t> at(program.size(), 0);
    for (bool moved = true; moved;) {
        moved = false;
        for (int r = 0; r < n; r++) {
            if (at[r] == program[r].size() || !program[r][at[r]].send) continue;
            int p = program[r][at[r]].peer;
            if (at[p] < program[p].size() && !program[p][at[p]].send && program[p][at[p]].peer == r) {
                at[r]++;
                at[p]++;
                moved = true;
            }
        }
    }
    for (int r = 0; r < n; r++)
        if (at[r] != program[r].size()) return false;
    return true;
}

// A2A's order (benchmarks/a2a/a2a.c): per round, the lower rank of a pair sends first.
std::vector<std::vector<Op>> pairwise_program(int n) {
    std::vector<std::vector<Op>> program(static_cast<std::size_t>(n));
    for (int me = 0; me < n; me++)
        for (int t = 0; t < cap_pair_rounds(n); t++) {
            int p = cap_pair_partner(me, n, t);
            if (p < 0) continue;
            program[me].push_back({me < p, p});
            program[me].push_back({me > p, p});
        }
    return program;
}
}  // namespace

TEST(CapPairs, EveryPairMeetsExactlyOnceAndSymmetrically) {
    for (int n = 1; n <= 200; n++) {
        std::vector<int> met(static_cast<std::size_t>(n * n), 0);
        for (int t = 0; t < cap_pair_rounds(n); t++)
            for (int me = 0; me < n; me++) {
                int p = cap_pair_partner(me, n, t);
                if (p < 0) continue;
                ASSERT_TRUE(p >= 0 && p < n && p != me) << "n " << n << " round " << t << " rank " << me;
                ASSERT_EQ(cap_pair_partner(p, n, t), me) << "n " << n << " round " << t;
                met[me * n + p]++;
            }
        for (int a = 0; a < n; a++)
            for (int b = 0; b < n; b++) EXPECT_EQ(met[a * n + b], a == b ? 0 : 1) << "n " << n << " pair " << a << "," << b;
    }
}

TEST(CapPairs, ByesOnlyWhenTheCountIsOdd) {
    for (int n = 1; n <= 64; n++) {
        int byes = 0;
        for (int t = 0; t < cap_pair_rounds(n); t++)
            for (int me = 0; me < n; me++) byes += cap_pair_partner(me, n, t) < 0;
        EXPECT_EQ(byes, n % 2 ? n : 0) << "n " << n;
    }
}

TEST(CapPairs, LowerRankFirstCompletesWithSynchronousSends) {
    for (int n = 1; n <= 200; n++) EXPECT_TRUE(completes(pairwise_program(n))) << "n " << n;
}

// What the order protects against: the shift order (step s: send to rank + s, then receive
// from rank - s) deadlocks as soon as sends are synchronous.
TEST(CapPairs, ShiftOrderDeadlocksWithSynchronousSends) {
    for (int n = 2; n <= 16; n++) {
        std::vector<std::vector<Op>> program(static_cast<std::size_t>(n));
        for (int me = 0; me < n; me++)
            for (int s = 1; s < n; s++) {
                program[me].push_back({true, (me + s) % n});
                program[me].push_back({false, (me - s + n) % n});
            }
        EXPECT_FALSE(completes(program)) << "n " << n;
    }
}
