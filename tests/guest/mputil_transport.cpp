// mputil's transport, called directly (no libmpi): local and remote pairs (depending on
// the mapping), eager and rendezvous sizes, wildcards, ordering, truncation, synchronous
// sends, cancel, probe, self-sends, many outstanding requests, flow control with many
// unexpected messages, and two ranks exchanging large messages with isend/irecv/wait
// (the portal deadlock case). Needs an even number of ranks >= 2.
//   argument "big BYTES": rank 0 sends one BYTES message to rank 1 (several MiB);
//   argument "pingpong": ranks 0 and 1 print one-way latency and bandwidth per size;
//   argument "stack BYTES": every rank uses BYTES of its stack (nvx-run --rank-stack).
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <mputil/mputil.hpp>
#include <nvx/syscall.h>

#include "mputil_check.hpp"

using namespace mputil;

namespace {

constexpr uint32_t kData = 11, kControl = 12;

unsigned char pattern(int source, size_t i, int salt) { return (unsigned char)(source * 31 + i * 7 + salt); }

void fill(unsigned char* buf, size_t n, int source, int salt)
{
    for (size_t i = 0; i < n; i++) buf[i] = pattern(source, i, salt);
}

bool holds(const unsigned char* buf, size_t n, int source, int salt)
{
    for (size_t i = 0; i < n; i++)
        if (buf[i] != pattern(source, i, salt)) return false;
    return true;
}

// Buffers for the big phases share the cluster's memory with the other ranks there.
size_t cluster_share()
{
    int here[32];
    int n = local_ranks(here, 32);
    struct nvx_info info;
    nvx_sys_info(&info);
    size_t share = (size_t)info.user_memory / (size_t)(8 * n);
    return share < 256 * 1024 ? share + 17 : 256 * 1024 + 17;
}

// The size of the big phases' messages. Sender and receiver must use the same one, but
// cluster_share() differs between clusters (ranks per cluster, memory the kernel took
// meanwhile): each rank computing its own once made a sender's 18150 bytes arrive
// truncated in a receive of 18107. So the world agrees on the smallest share.
thread_local size_t t_large_bytes;
size_t large_bytes() { return t_large_bytes; }

// A peer would wait forever for a rank that cannot run a phase: end the run instead.
void* need(size_t bytes)
{
    void* p = malloc(bytes + 1);
    if (p == nullptr) {
        printf("FAIL rank %d: no memory for %lu bytes\n", world_rank(), (unsigned long)bytes);
        abort_run(3);
    }
    return p;
}

Completion wait(Op* op)
{
    int index;
    CHECK_EQ(wait_some(&op, 1, &index, 1), 1);
    Completion c{};
    CHECK(test(op, &c));
    release(op);
    return c;
}

void wait_all(Op** ops, int n, Completion* out)
{
    int left = n;
    Op** pending = static_cast<Op**>(malloc(sizeof(Op*) * n));
    int* done = static_cast<int*>(malloc(sizeof(int) * n));
    memcpy(pending, ops, sizeof(Op*) * n);
    while (left > 0) {
        int k = wait_some(pending, n, done, n);
        CHECK(k > 0);
        for (int j = 0; j < k; j++) {
            Op* op = pending[done[j]];
            CHECK(test(op, out != nullptr ? &out[done[j]] : nullptr));
            release(op);
            pending[done[j]] = nullptr;
            left--;
        }
    }
    free(pending);
    free(done);
}

void sync_all()  // a world barrier made of messages: everyone to rank 0 and back
{
    int me = world_rank(), n = world_size();
    char token = 0;
    if (me == 0) {
        for (int i = 1; i < n; i++) wait(irecv(kAnySource, kControl, 900, &token, 1));
        for (int i = 1; i < n; i++) wait(isend(i, kControl, 901, &token, 1, SendMode::Standard));
    } else {
        wait(isend(0, kControl, 900, &token, 1, SendMode::Standard));
        wait(irecv(0, kControl, 901, &token, 1));
    }
}

// Rank 0 collects every rank's share and sends back the smallest (before any phase).
void agree_large_bytes()
{
    int me = world_rank(), n = world_size();
    uint64_t mine = cluster_share(), agreed = mine;
    if (me == 0) {
        for (int i = 1; i < n; i++) {
            uint64_t theirs = 0;
            wait(irecv(kAnySource, kControl, 902, &theirs, sizeof theirs));
            agreed = theirs < agreed ? theirs : agreed;
        }
        for (int i = 1; i < n; i++) wait(isend(i, kControl, 903, &agreed, sizeof agreed, SendMode::Standard));
    } else {
        wait(isend(0, kControl, 902, &mine, sizeof mine, SendMode::Standard));
        wait(irecv(0, kControl, 903, &agreed, sizeof agreed));
    }
    CHECK(agreed > 17 && agreed <= mine);
    t_large_bytes = agreed;
}

// Every rank sends to the next and receives from the previous, for each size.
void ring_sizes()
{
    const size_t sizes[] = {0, 1, 71, 72, 73, 1000, 1024, 1025, 4096 + 5, 65536, large_bytes()};
    int me = world_rank(), n = world_size();
    int next = (me + 1) % n, prev = (me + n - 1) % n;
    for (size_t s : sizes) {
        if (s > large_bytes()) continue;  // the cluster's memory is shared by its ranks
        unsigned char* out = static_cast<unsigned char*>(need(s + 1));
        unsigned char* in = static_cast<unsigned char*>(need(s + 1));
        fill(out, s, me, (int)s);
        memset(in, 0xee, s + 1);
        Op* ops[2] = {irecv(prev, kData, 5, in, s), isend(next, kData, 5, out, s, SendMode::Standard)};
        Completion c[2];
        wait_all(ops, 2, c);
        CHECK_EQ(c[0].source, prev);
        CHECK_EQ(c[0].tag, 5);
        CHECK_EQ(c[0].bytes, s);
        CHECK(!c[0].truncated && !c[0].cancelled);
        CHECK(holds(in, s, prev, (int)s));
        CHECK_EQ(in[s], 0xee);
        free(out);
        free(in);
    }
}

void wildcards()
{
    int me = world_rank(), n = world_size();
    if (me == 0) {
        bool seen[256] = {};
        for (int i = 1; i < n; i++) {
            int value = -1;
            Completion c = wait(irecv(kAnySource, kData, kAnyTag, &value, sizeof value));
            CHECK(c.source > 0 && c.source < n && !seen[c.source]);
            CHECK_EQ(c.tag, 100 + c.source);
            CHECK_EQ(value, c.source * 3);
            CHECK_EQ(c.bytes, sizeof value);
            if (c.source > 0 && c.source < 256) seen[c.source] = true;
        }
    } else {
        int value = me * 3;
        wait(isend(0, kData, 100 + me, &value, sizeof value, SendMode::Standard));
    }
}

// Rank 1 sends eager and rendezvous sizes alternately on one tag; rank 0 gets them in order.
void ordering()
{
    constexpr int kCount = 24;
    int me = world_rank();
    if (me == 1) {
        static unsigned char bufs[kCount][300];
        Op* ops[kCount];
        for (int i = 0; i < kCount; i++) {
            size_t len = i % 2 ? 300 : 8;
            fill(bufs[i], len, i, 1);
            ops[i] = isend(0, kData, 7, bufs[i], len, SendMode::Standard);
        }
        wait_all(ops, kCount, nullptr);
    } else if (me == 0) {
        for (int i = 0; i < kCount; i++) {
            unsigned char buf[300];
            Completion c = wait(irecv(1, kData, 7, buf, sizeof buf));
            CHECK_EQ(c.bytes, i % 2 ? 300 : 8);
            CHECK(holds(buf, c.bytes, i, 1));
        }
    }
}

void truncation()
{
    int me = world_rank();
    static const size_t sizes[] = {40, 100, 5000};
    if (me == 1) {
        for (size_t s : sizes) {
            unsigned char* out = static_cast<unsigned char*>(need(s));
            fill(out, s, 1, 9);
            wait(isend(0, kData, 8, out, s, SendMode::Standard));
            free(out);
        }
    } else if (me == 0) {
        for (size_t s : sizes) {
            unsigned char buf[64];
            memset(buf, 0xab, sizeof buf);
            Completion c = wait(irecv(1, kData, 8, buf, 16));
            CHECK(c.truncated);
            CHECK_EQ(c.bytes, 16);
            CHECK(holds(buf, 16, 1, 9));
            bool guard = true;
            for (size_t i = 16; i < sizeof buf; i++) guard &= buf[i] == 0xab;
            CHECK(guard);
            (void)s;
        }
    }
}

// A synchronous send is not done before the receiver posted its receive.
void synchronous()
{
    int me = world_rank();
    int value = 5, got = 0;
    char token = 0;
    if (me == 1) {
        Op* s = isend(0, kData, 9, &value, sizeof value, SendMode::Synchronous);
        CHECK(!test(s, nullptr));
        wait(isend(0, kControl, 9, &token, 1, SendMode::Standard));
        Completion c = wait(s);
        CHECK_EQ(c.bytes, sizeof value);
    } else if (me == 0) {
        wait(irecv(1, kControl, 9, &token, 1));
        wait(irecv(1, kData, 9, &got, sizeof got));
        CHECK_EQ(got, 5);
    }
}

void cancel_and_probe()
{
    int me = world_rank();
    int dummy;
    Op* r = irecv(kAnySource, kData, 4242, &dummy, sizeof dummy);
    CHECK(cancel(r));
    Completion c{};
    CHECK(test(r, &c));
    CHECK(c.cancelled);
    release(r);

    if (me == 1) {
        unsigned char* out = static_cast<unsigned char*>(need(3000));
        fill(out, 3000, 1, 3);
        wait(isend(0, kData, 77, out, 3000, SendMode::Standard));
        free(out);
    } else if (me == 0) {
        Completion p{};
        probe(kAnySource, kData, 77, &p);
        CHECK_EQ(p.source, 1);
        CHECK_EQ(p.tag, 77);
        CHECK_EQ(p.bytes, 3000);
        Completion q{};
        CHECK(iprobe(1, kData, kAnyTag, &q));
        CHECK_EQ(q.bytes, 3000);
        CHECK(!iprobe(1, kControl, 77, &q));  // other contexts never match
        unsigned char* in = static_cast<unsigned char*>(need(3000));
        Op* matched = irecv(1, kData, 77, in, 3000);
        Completion d = wait(matched);
        CHECK_EQ(d.bytes, 3000);
        CHECK(holds(in, 3000, 1, 3));
        free(in);
    }
}

void self_send()
{
    int me = world_rank();
    static const size_t sizes[] = {0, 50, 20000};
    for (size_t s : sizes) {
        unsigned char* out = static_cast<unsigned char*>(need(s + 1));
        unsigned char* in = static_cast<unsigned char*>(need(s + 1));
        fill(out, s, me, 4);
        Op* ops[2] = {isend(me, kData, 3, out, s, SendMode::Standard), irecv(me, kData, 3, in, s)};
        Completion c[2];
        wait_all(ops, 2, c);
        CHECK_EQ(c[1].source, me);
        CHECK_EQ(c[1].bytes, s);
        CHECK(holds(in, s, me, 4));
        free(out);
        free(in);
    }
}

// Hundreds of receives posted before the sends, then sends that find none posted.
void many_outstanding()
{
    constexpr int kMany = 200;
    int me = world_rank(), n = world_size();
    int next = (me + 1) % n, prev = (me + n - 1) % n;
    int* in = static_cast<int*>(malloc(sizeof(int) * kMany));
    int* out = static_cast<int*>(malloc(sizeof(int) * kMany));
    Op** ops = static_cast<Op**>(malloc(sizeof(Op*) * kMany * 2));
    for (int i = 0; i < kMany; i++) ops[i] = irecv(prev, kData, i, &in[i], sizeof(int));
    sync_all();
    for (int i = 0; i < kMany; i++) {
        out[i] = me * 1000 + i;
        ops[kMany + i] = isend(next, kData, i, &out[i], sizeof(int), SendMode::Standard);
    }
    wait_all(ops, kMany * 2, nullptr);
    bool ok = true;
    for (int i = 0; i < kMany; i++) ok &= in[i] == prev * 1000 + i;
    CHECK(ok);
    free(in);
    free(out);
    free(ops);
}

// Rank 1 sends many small messages that rank 0 does not receive yet: eager credits run
// out, the rest waits with the sender (rendezvous); nothing is lost or reordered.
void flow_control()
{
    constexpr int kFlood = 150;
    int me = world_rank();
    char token = 0;
    if (me == 1) {
        static int values[kFlood];
        Op* ops[kFlood];
        for (int i = 0; i < kFlood; i++) {
            values[i] = i;
            ops[i] = isend(0, kData, 20, &values[i], sizeof(int), SendMode::Standard);
        }
        wait(isend(0, kControl, 21, &token, 1, SendMode::Standard));
        wait_all(ops, kFlood, nullptr);
    } else if (me == 0) {
        wait(irecv(1, kControl, 21, &token, 1));
        bool ok = true;
        for (int i = 0; i < kFlood; i++) {
            int v = -1;
            wait(irecv(1, kData, 20, &v, sizeof v));
            ok &= v == i;
        }
        CHECK(ok);
    }
}

// Pairs (0,1), (2,3), ... exchange large messages both ways at once: each side posts its
// receive and its send, then waits for both (each side's write must go on while its own
// read waits: asynchronous portal writes, reads in their ports' own windows).
void exchange_large()
{
    const size_t kBytes = large_bytes();
    int me = world_rank();
    int peer = me ^ 1;
    if (peer >= world_size()) return;
    unsigned char* out = static_cast<unsigned char*>(need(kBytes));
    unsigned char* in = static_cast<unsigned char*>(need(kBytes));
    fill(out, kBytes, me, 2);
    for (int round = 0; round < 2; round++) {
        memset(in, 0, kBytes);
        Op* ops[2] = {isend(peer, kData, 30, out, kBytes, SendMode::Standard), irecv(peer, kData, 30, in, kBytes)};
        Completion c[2];
        wait_all(ops, 2, c);
        CHECK_EQ(c[1].bytes, kBytes);
        CHECK(holds(in, kBytes, peer, 2));
    }
    free(out);
    free(in);
}

// Every rank sends a rendezvous-sized message to each of its next `peers` ranks at once
// and receives from its previous ones in reverse order: more clear-to-sends per cluster
// than a rank's write budget. At most 32 peers: memory per cluster is small.
void all_to_all_rendezvous()
{
    int me = world_rank(), n = world_size();
    int peers = n < 32 ? n : 32;
    size_t bytes = large_bytes() / (size_t)peers;
    bytes = bytes > 2000 ? 2000 : bytes < 73 ? 73 : bytes;
    unsigned char* out = static_cast<unsigned char*>(need(bytes * peers));
    unsigned char* in = static_cast<unsigned char*>(need(bytes * peers));
    Op** ops = static_cast<Op**>(need(sizeof(Op*) * 2 * peers));
    for (int k = 0; k < peers; k++) {
        int d = (me + k) % n;
        fill(out + bytes * k, bytes, me, d);
        ops[k] = isend(d, kData, 60, out + bytes * k, bytes, SendMode::Standard);
    }
    for (int k = peers - 1; k >= 0; k--) ops[peers + k] = irecv((me - k + n) % n, kData, 60, in + bytes * k, bytes);
    wait_all(ops, 2 * peers, nullptr);
    bool ok = true;
    for (int k = 0; k < peers; k++) ok &= holds(in + bytes * k, bytes, (me - k + n) % n, me);
    CHECK(ok);
    free(out);
    free(in);
    free(ops);
}

void big(size_t bytes)
{
    int me = world_rank();
    unsigned char* buf = static_cast<unsigned char*>(need(bytes));
    if (me == 0) {
        fill(buf, bytes, 0, 6);
        double t0 = wtime();
        wait(isend(1, kData, 40, buf, bytes, SendMode::Standard));
        printf("rank 0: sent %lu bytes in %.3f s\n", (unsigned long)bytes, wtime() - t0);
    } else if (me == 1) {
        Completion c = wait(irecv(0, kData, 40, buf, bytes));
        CHECK_EQ(c.bytes, bytes);
        CHECK(holds(buf, bytes, 0, 6));
    }
    free(buf);
}

// Ranks 0 and 1 bounce messages: half the round trip is the one-way latency.
void pingpong()
{
    static const size_t sizes[] = {0, 8, 64, 1024, 65536, 1 << 20};
    constexpr int kRounds = 20;
    int me = world_rank();
    if (me > 1) return;
    int peer = 1 - me;
    unsigned char* buf = static_cast<unsigned char*>(need(1 << 20));
    for (size_t s : sizes) {
        double best = 1e9;
        for (int round = 0; round < kRounds; round++) {
            double t0 = wtime();
            if (me == 0) {
                wait(isend(peer, kData, 50, buf, s, SendMode::Standard));
                CHECK_EQ(wait(irecv(peer, kData, 50, buf, s)).bytes, s);
            } else {
                CHECK_EQ(wait(irecv(peer, kData, 50, buf, s)).bytes, s);
                wait(isend(peer, kData, 50, buf, s, SendMode::Standard));
            }
            double half = (wtime() - t0) / 2;
            best = half < best ? half : best;
        }
        if (me == 0)
            printf("rank 0: pingpong %s %s %7lu B: %9.1f us one way (best of %d), %7.1f MB/s\n", variant(),
                   cluster_of(0) == cluster_of(1) ? "local " : "remote", (unsigned long)s, best * 1e6, kRounds,
                   best > 0 ? (double)s / best / 1e6 : 0.0);
    }
    free(buf);
}

// Uses `bytes` of the rank's stack (nvx-run --rank-stack must have made room).
__attribute__((noinline)) void deep_stack(size_t bytes)
{
    volatile unsigned char* area = static_cast<volatile unsigned char*>(__builtin_alloca(bytes));
    for (size_t i = 0; i < bytes; i++) area[i] = (unsigned char)(i * 13);
    bool ok = true;
    for (size_t i = 0; i < bytes; i++) ok &= area[i] == (unsigned char)(i * 13);
    CHECK(ok);
}

}  // namespace

int main(int argc, char** argv)
{
    init();
    CHECK(world_size() >= 2 && world_rank() >= 0 && world_rank() < world_size());
    int here[32];
    int count = local_ranks(here, 32);
    bool found = false;
    for (int i = 0; i < count; i++) found |= here[i] == world_rank();
    CHECK(found);
    CHECK_EQ(cluster_of(here[0]), cluster_of(world_rank()));
    if (argc >= 3 && strcmp(argv[1], "big") == 0) {
        big(strtoul(argv[2], nullptr, 10));
    } else if (argc >= 3 && strcmp(argv[1], "stack") == 0) {
        deep_stack(strtoul(argv[2], nullptr, 10));
    } else if (argc >= 2 && strcmp(argv[1], "pingpong") == 0) {
        pingpong();
    } else {
        agree_large_bytes();
        // Phases are separated by barriers: a wildcard must not catch the next phase's message.
        void (*const phases[])() = {ring_sizes, wildcards, ordering, truncation, synchronous,
                                    cancel_and_probe, self_send, many_outstanding, flow_control,
                                    exchange_large, all_to_all_rendezvous};
        for (auto phase : phases) {
            phase();
            sync_all();
        }
    }
    sync_all();
    double t = wtime();
    sync_all();
    if (world_rank() == 0) {
        Stats s;
        stats(&s);
        printf("rank 0: variant %s, message barrier %.1f us, first contacts %lu in %.1f us (%.1f us each), %u helper threads\n",
               variant(), (wtime() - t) * 1e6, (unsigned long)s.first_contacts, s.first_contact_seconds * 1e6,
               s.first_contacts ? s.first_contact_seconds * 1e6 / (double)s.first_contacts : 0.0, s.helper_threads);
    }
    finalize();
    return check_finish("mputil_transport");
}
