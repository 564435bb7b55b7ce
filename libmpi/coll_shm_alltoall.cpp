// Alltoall of equal blocks through the cluster's area (see coll_shm.hpp): the cluster's
// ranks pack every block they send into one staging buffer the leader allocates, grouped
// by destination cluster, the leaders swap those groups once per pair of clusters (one
// message each way instead of one per pair of ranks), and each rank unpacks its blocks
// from the received groups. Three rounds (coll_shm_round.hpp): the leader allocates (and
// the leaders agree that every cluster could, else all return MPI_ERR_NO_MEM); everyone
// packed, the leaders exchange; everyone unpacked, the leader frees. Every round ends with a
// release: arrivals are counted over all rounds, so no member may run ahead by one.
//
// Staging of a cluster with m ranks, for slot s of the layout (start[s], n_s ranks):
//   out: at m * start[s] * b, [sender i here][receiver j of s]   (m * n_s blocks of b bytes)
//   in:  at m * start[s] * b, [sender j of s][receiver i here]
// The own slot's out group is already laid out as its in group: it is read in place.
#include <stdlib.h>

#include "coll_shm.hpp"
#include "coll_shm_round.hpp"
#include "datatype.hpp"

namespace lwmpi {

namespace {

// Allocates the staging (the leader), agrees with the other leaders, releases round 1.
int stage(Comm& c, const Round& r, size_t half)
{
    int ok = 1;
    if (r.index == 0) {
        wait_arrivals(r);
        r.area->staging = static_cast<char*>(malloc(2 * half));
        ok = r.area->staging != nullptr;
    }
    int err = leaders_allreduce(c, &ok, 1, MPI_INT, MPI_MIN);
    if (r.index != 0)
        return wait_release(r);
    if (err == MPI_SUCCESS && !ok)
        err = kNoStaging;
    if (err != MPI_SUCCESS) {
        free(r.area->staging);
        r.area->staging = nullptr;
    }
    release(r, err);
    return err;
}

}  // namespace

bool shm_alltoall_fits(const Comm& c, const PerRank& send, const PerRank& recv)
{
    if (send.varying || recv.varying || send.buf == MPI_IN_PLACE)
        return false;
    size_t b = recv.packed_bytes(0);
    return b > 0 && alltoall_staging_fits(c, b);
}

bool alltoall_staging_fits(const Comm& c, size_t bytes)
{
    return bytes * static_cast<size_t>(c.size) * static_cast<size_t>(layout_most_members(c.layout)) <= kShmStagingBytes;
}

int shm_alltoall(Comm& c, const PerRank& send, const PerRank& recv)
{
    const ClusterLayout& l = c.layout;
    int slot = l.slot_of[c.rank];
    size_t m = static_cast<size_t>(l.start[slot + 1] - l.start[slot]);
    size_t b = recv.packed_bytes(0);
    size_t half = m * static_cast<size_t>(c.size) * b;
    size_t i = static_cast<size_t>(l.index_in_slot[c.rank]);

    Round r = begin(c);
    if (r.index != 0)
        arrive(r);
    int err = stage(c, r, half);
    if (err != MPI_SUCCESS)
        return err;
    char* out = r.area->staging;
    char* in = out + half;

    for (int d = 0; d < c.size; d++) {
        int s = l.slot_of[d];
        size_t n_s = static_cast<size_t>(l.start[s + 1] - l.start[s]);
        size_t at = m * static_cast<size_t>(l.start[s]) * b + (i * n_s + static_cast<size_t>(l.index_in_slot[d])) * b;
        pack_bytes(send.type, send.block(d), send.count, out + at);
    }
    r = begin(c);
    if (r.index != 0) {
        arrive(r);
        leaders_exchange(c, nullptr, nullptr, m, b);  // only advances the sequence here
        err = wait_release(r);
    } else {
        wait_arrivals(r);
        err = leaders_exchange(c, out, in, m, b);
        release(r, err);
    }
    if (err == MPI_SUCCESS) {
        for (int src = 0; src < c.size; src++) {
            int s = l.slot_of[src];
            size_t j = static_cast<size_t>(l.index_in_slot[src]);
            const char* group = (s == slot ? out : in) + m * static_cast<size_t>(l.start[s]) * b;
            unpack_bytes(recv.type, group + (j * m + i) * b, b, recv.block(src), recv.count);
        }
    }
    // Members wait for this release too: a member that went on at once could count its
    // next round's arrival before a slower one arrived at this one.
    r = begin(c);
    if (r.index != 0) {
        arrive(r);
        wait_release(r);
        return err;
    }
    wait_arrivals(r);
    free(r.area->staging);
    r.area->staging = nullptr;
    release(r, err);
    return err;
}

}  // namespace lwmpi
