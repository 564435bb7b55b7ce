/* Pairwise exchange order: a round-robin tournament over n ranks (the circle method), in
 * which every round pairs each rank with at most one partner and every pair meets exactly
 * once in cap_pair_rounds(n) rounds. Exchanging with blocking sends and receives in this
 * order cannot deadlock when, in each pair, the lower rank sends first and the higher rank
 * receives first: a rank waits only for its partner of the same round, and a partner that
 * is behind only waits for partners of earlier rounds. Shared by A2A and the layer's
 * conformance test. */
#ifndef CAP_PAIRS_H
#define CAP_PAIRS_H

/* Rounds for n ranks: n - 1, or n when n is odd (one rank sits out each round). */
static inline int cap_pair_rounds(int n)
{
    return n + (n & 1) - 1;
}

/* The partner of `me` in round t (0 <= t < cap_pair_rounds(n)), or -1 for a bye. */
static inline int cap_pair_partner(int me, int n, int t)
{
    int m = n + (n & 1), fixed = m - 1;
    if (me == fixed)
        return t;
    int p = me == t ? fixed : ((2 * t - me) % fixed + fixed) % fixed;
    return p < n ? p : -1;
}
#endif
