// Host fake of mputil: every rank is a std::thread; one mutex guards one matching engine;
// blocked ranks sleep on one condition variable (notified on every state change).
#include "fake_mputil.hpp"

#include <mputil/mputil.hpp>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>

namespace mputil {

struct Op {
    bool is_send = false;
    int owner = 0;          // world rank that started it
    int peer = 0;           // send: destination; receive: source or kAnySource
    uint32_t context = 0;
    int tag = 0;            // receive: tag or kAnyTag
    void* buf = nullptr;    // receive buffer
    size_t capacity = 0;
    bool done = false;
    Completion completion{};
};

}  // namespace mputil

namespace {

using mputil::Completion;
using mputil::Op;

struct Message {
    int source;
    uint32_t context;
    int tag;
    std::vector<unsigned char> data;
    Op* sync_send;  // synchronous send waiting for the match, or nullptr
};

struct RankQueues {
    std::deque<Message> unexpected;  // arrived, not yet matched, in arrival order
    std::deque<Op*> posted;          // receives not yet matched, in posting order
};

struct World {
    std::mutex lock;
    std::condition_variable changed;
    std::vector<int> cluster_of;
    std::vector<int> in_order;       // 0..ranks-1
    std::vector<RankQueues> queues;
    std::vector<int> barrier_arrived;
    std::vector<unsigned> barrier_generation;
    std::vector<void*> rank_context;  // libmpi's per-rank state, freed when the rank ends
    std::mutex shared_lock;           // cluster_lock (one for every cluster)
};

World g_world;
thread_local int t_rank = -1;
thread_local bool t_rank_main;  // the rank's own thread, not a helper

bool matches(int want_source, int want_tag, uint32_t want_context, int source, int tag,
             uint32_t context)
{
    return context == want_context && (want_source == mputil::kAnySource || want_source == source) &&
           (want_tag == mputil::kAnyTag || want_tag == tag);
}

// Delivers `data` into a posted receive (truncating at its capacity) and completes it.
void deliver(Op* recv, int source, int tag, const unsigned char* data, size_t bytes)
{
    size_t n = bytes < recv->capacity ? bytes : recv->capacity;
    if (n > 0)
        memcpy(recv->buf, data, n);
    recv->completion = Completion{source, tag, n, bytes > recv->capacity, false};
    recv->done = true;
}

void complete_send(Op* send, size_t bytes)
{
    send->completion = Completion{send->peer, send->tag, bytes, false, false};
    send->done = true;
}

}  // namespace

namespace fake_mputil {

void run(const std::vector<int>& cluster_of_rank, const std::function<void(int)>& rank_main)
{
    {
        std::lock_guard<std::mutex> guard(g_world.lock);
        g_world.cluster_of = cluster_of_rank;
        g_world.in_order.resize(cluster_of_rank.size());
        for (size_t r = 0; r < cluster_of_rank.size(); r++)
            g_world.in_order[r] = static_cast<int>(r);
        g_world.queues.assign(cluster_of_rank.size(), RankQueues{});
        int clusters = 0;
        for (int c : cluster_of_rank)
            clusters = c + 1 > clusters ? c + 1 : clusters;
        g_world.barrier_arrived.assign(clusters, 0);
        g_world.barrier_generation.assign(clusters, 0);
        g_world.rank_context.assign(cluster_of_rank.size(), nullptr);
    }
    std::vector<std::thread> threads;
    for (size_t r = 0; r < cluster_of_rank.size(); r++)
        threads.emplace_back([r, &rank_main] {
            t_rank = static_cast<int>(r);
            t_rank_main = true;
            rank_main(static_cast<int>(r));
            free(g_world.rank_context[r]);
            g_world.rank_context[r] = nullptr;
        });
    for (auto& t : threads)
        t.join();
}

void become_helper_of(int world_rank)
{
    t_rank = world_rank;
    t_rank_main = false;
}

std::vector<int> compact(int n, int per_cluster)
{
    std::vector<int> map(n);
    for (int r = 0; r < n; r++)
        map[r] = r / per_cluster;
    return map;
}

std::vector<int> scatter(int n, int clusters)
{
    std::vector<int> map(n);
    for (int r = 0; r < n; r++)
        map[r] = r % clusters;
    return map;
}

int pending_operations()
{
    std::lock_guard<std::mutex> guard(g_world.lock);
    int n = 0;
    for (auto& q : g_world.queues)
        n += static_cast<int>(q.unexpected.size() + q.posted.size());
    return n;
}

}  // namespace fake_mputil

namespace mputil {

int world_size() { return static_cast<int>(g_world.cluster_of.size()); }
const int* world_in_order() { return g_world.in_order.data(); }
int world_rank() { return t_rank; }
int cluster_of(int world_rank) { return g_world.cluster_of.at(world_rank); }

int cluster_count()
{
    std::vector<bool> used;
    int n = 0;
    for (int c : g_world.cluster_of) {
        if (c >= static_cast<int>(used.size()))
            used.resize(c + 1, false);
        if (!used[c]) {
            used[c] = true;
            n++;
        }
    }
    return n;
}

int local_ranks(int* world_ranks, int max)
{
    int n = 0;
    for (int r = 0; r < world_size(); r++)
        if (g_world.cluster_of[r] == g_world.cluster_of[t_rank] && n < max)
            world_ranks[n++] = r;
    return n;
}

bool is_main_rank_thread() { return t_rank_main; }
// Never cached: a host thread may be a rank of several worlds in turn.
thread_local void** t_context_slot;
void** context_slot_lookup() { return &g_world.rank_context.at(t_rank); }
void set_rank_context(void* context) { g_world.rank_context.at(t_rank) = context; }

Op* isend(int dest_world, uint32_t context, int tag, const void* buf, size_t bytes, SendMode mode)
{
    Op* op = new Op;
    op->is_send = true;
    op->owner = t_rank;
    op->peer = dest_world;
    op->context = context;
    op->tag = tag;
    const unsigned char* data = static_cast<const unsigned char*>(buf);
    std::lock_guard<std::mutex> guard(g_world.lock);
    RankQueues& q = g_world.queues.at(dest_world);
    for (auto it = q.posted.begin(); it != q.posted.end(); ++it) {
        Op* recv = *it;
        if (matches(recv->peer, recv->tag, recv->context, t_rank, tag, context)) {
            q.posted.erase(it);
            deliver(recv, t_rank, tag, data, bytes);
            complete_send(op, bytes);
            g_world.changed.notify_all();
            return op;
        }
    }
    ::Message m{t_rank, context, tag, std::vector<unsigned char>(data, data + bytes),
              mode == SendMode::Synchronous ? op : nullptr};
    q.unexpected.push_back(std::move(m));
    if (mode != SendMode::Synchronous)
        complete_send(op, bytes);  // eager: the payload was copied
    g_world.changed.notify_all();
    return op;
}

Op* irecv(int source_world_or_any, uint32_t context, int tag_or_any, void* buf, size_t capacity)
{
    Op* op = new Op;
    op->owner = t_rank;
    op->peer = source_world_or_any;
    op->context = context;
    op->tag = tag_or_any;
    op->buf = buf;
    op->capacity = capacity;
    std::lock_guard<std::mutex> guard(g_world.lock);
    RankQueues& q = g_world.queues.at(t_rank);
    for (auto it = q.unexpected.begin(); it != q.unexpected.end(); ++it) {
        if (matches(op->peer, op->tag, context, it->source, it->tag, it->context)) {
            deliver(op, it->source, it->tag, it->data.data(), it->data.size());
            if (it->sync_send)
                complete_send(it->sync_send, it->data.size());
            q.unexpected.erase(it);
            g_world.changed.notify_all();
            return op;
        }
    }
    q.posted.push_back(op);
    return op;
}

bool test(Op* op, Completion* out)
{
    std::lock_guard<std::mutex> guard(g_world.lock);
    if (!op->done)
        return false;
    if (out)
        *out = op->completion;
    return true;
}

int wait_some(Op* const* ops, int n, int* done_index, int max_done)
{
    std::unique_lock<std::mutex> guard(g_world.lock);
    for (;;) {
        int live = 0, done = 0;
        for (int i = 0; i < n; i++) {
            if (!ops[i])
                continue;
            live++;
            if (ops[i]->done && done < max_done)
                done_index[done++] = i;
        }
        if (done > 0 || live == 0)
            return done;
        g_world.changed.wait(guard);
    }
}

void wait_all(Op* const* ops, int n)
{
    std::unique_lock<std::mutex> guard(g_world.lock);
    for (int i = 0; i < n; i++)
        while (ops[i] && !ops[i]->done)
            g_world.changed.wait(guard);
}

int wait_some(Op* const* ops, int n, int* done_index, int max_done, const WaitEnd& end)
{
    const Counter* c = end.counter;  // the host has no leader syncs (leader_sync_open fails)
    uint32_t target = end.target;
    std::unique_lock<std::mutex> guard(g_world.lock);
    for (;;) {
        int done = 0;
        for (int i = 0; i < n; i++)
            if (ops[i] && ops[i]->done && done < max_done)
                done_index[done++] = i;
        if (done > 0 || counter_reached(c, target))
            return done;
        g_world.changed.wait(guard);
    }
}

// The blocking forms, as the contract defines them: start, wait, release.
static void wait_and_release(Op* op, Completion* out)
{
    int index;
    wait_some(&op, 1, &index, 1);
    test(op, out);
    release(op);
}

bool send(int dest_world, uint32_t context, int tag, const void* buf, size_t bytes, SendMode mode, Completion* out)
{
    Op* op = isend(dest_world, context, tag, buf, bytes, mode);
    if (!op)
        return false;
    wait_and_release(op, out);
    return true;
}

void recv(int source_world_or_any, uint32_t context, int tag_or_any, void* buf, size_t capacity, Completion* out)
{
    wait_and_release(irecv(source_world_or_any, context, tag_or_any, buf, capacity), out);
}

uint32_t counter_add(Counter* c, uint32_t n) { return __atomic_add_fetch(&c->value, n, __ATOMIC_ACQ_REL); }

bool counter_reached(const Counter* c, uint32_t target)
{
    return static_cast<int32_t>(__atomic_load_n(&c->value, __ATOMIC_ACQUIRE) - target) >= 0;
}

// Under the world's lock, so that a waiter between its check and its sleep misses no wake.
void wake_rank(int)
{
    std::lock_guard<std::mutex> guard(g_world.lock);
    g_world.changed.notify_all();
}

void cluster_lock() { g_world.shared_lock.lock(); }
void cluster_unlock() { g_world.shared_lock.unlock(); }

bool cancel(Op* op)
{
    std::lock_guard<std::mutex> guard(g_world.lock);
    if (op->is_send || op->done)
        return false;
    RankQueues& q = g_world.queues.at(op->owner);
    for (auto it = q.posted.begin(); it != q.posted.end(); ++it)
        if (*it == op) {
            q.posted.erase(it);
            op->completion = Completion{op->peer, op->tag, 0, false, true};
            op->done = true;
            g_world.changed.notify_all();
            return true;
        }
    return false;
}

void release(Op* op)
{
    std::lock_guard<std::mutex> guard(g_world.lock);
    if (!op->done) {
        fprintf(stderr, "fake_mputil: release of an operation that is not done\n");
        abort();
    }
    delete op;
}

void poll_idle() { std::this_thread::yield(); }

// The first unexpected message that matches (the world lock held), or end().
static std::deque<::Message>::iterator find_unexpected(int source, uint32_t context, int tag, Completion* out)
{
    auto& unexpected = g_world.queues.at(t_rank).unexpected;
    for (auto it = unexpected.begin(); it != unexpected.end(); ++it)
        if (matches(source, tag, context, it->source, it->tag, it->context)) {
            *out = Completion{it->source, it->tag, it->data.size(), false, false};
            return it;
        }
    return unexpected.end();
}

static bool found(std::deque<::Message>::iterator it) { return it != g_world.queues.at(t_rank).unexpected.end(); }

bool iprobe(int source_or_any, uint32_t context, int tag_or_any, Completion* out)
{
    std::lock_guard<std::mutex> guard(g_world.lock);
    return found(find_unexpected(source_or_any, context, tag_or_any, out));
}

void probe(int source_or_any, uint32_t context, int tag_or_any, Completion* out)
{
    std::unique_lock<std::mutex> guard(g_world.lock);
    while (!found(find_unexpected(source_or_any, context, tag_or_any, out)))
        g_world.changed.wait(guard);
}

struct Message {
    ::Message held;  // out of the unexpected queue: only imrecv of it receives it
};

Message* improbe(int source_or_any, uint32_t context, int tag_or_any, Completion* out)
{
    std::lock_guard<std::mutex> guard(g_world.lock);
    auto it = find_unexpected(source_or_any, context, tag_or_any, out);
    if (!found(it))
        return nullptr;
    Message* m = new Message{std::move(*it)};
    g_world.queues.at(t_rank).unexpected.erase(it);
    return m;
}

Message* mprobe(int source_or_any, uint32_t context, int tag_or_any, Completion* out)
{
    for (;;) {
        if (Message* m = improbe(source_or_any, context, tag_or_any, out))
            return m;
        std::unique_lock<std::mutex> guard(g_world.lock);
        Completion ignored;
        if (!found(find_unexpected(source_or_any, context, tag_or_any, &ignored)))
            g_world.changed.wait(guard);
    }
}

Op* imrecv(Message* message, void* buf, size_t capacity)
{
    Op* op = new Op;
    op->owner = t_rank;
    op->peer = message->held.source;
    op->context = message->held.context;
    op->tag = message->held.tag;
    op->buf = buf;
    op->capacity = capacity;
    std::lock_guard<std::mutex> guard(g_world.lock);
    ::Message& m = message->held;
    deliver(op, m.source, m.tag, m.data.data(), m.data.size());
    if (m.sync_send)
        complete_send(m.sync_send, m.data.size());
    delete message;
    g_world.changed.notify_all();
    return op;
}

double wtime()
{
    using namespace std::chrono;
    return duration<double>(steady_clock::now().time_since_epoch()).count();
}

double wtick() { return 1e-9; }

int processor_name(char* out, int max)
{
    int n = snprintf(out, max, "host-cluster%d-rank%d", cluster_of(t_rank), t_rank);
    return n < max ? n : max - 1;
}

void abort_run(int status)
{
    fflush(stdout);
    std::_Exit(status);
}

void* alloc_mem(size_t bytes) { return malloc(bytes); }
size_t memory_bytes() { return size_t(4) << 20; }  // a compute cluster of small
uint32_t spare_objects(size_t) { return 4; }  // the fewest (config::kMinSpare): past them, freed
void free_mem(void* p) { free(p); }
const char* variant() { return "host"; }

// The host has no NoC sync registers: the leaders keep the message barrier.
bool leader_sync_open(const int*, int, bool, unsigned, LeaderSync* out)
{
    *out = LeaderSync{};
    return false;
}
long leader_sync_enter(LeaderSync*) { return -1; }
bool leader_sync_fired(const LeaderSync*) { return true; }
long leader_sync_leave(LeaderSync*) { return -1; }
void leader_sync_close(LeaderSync* s) { *s = LeaderSync{}; }
void init() {}
void finalize() {}

void barrier_cluster()
{
    std::unique_lock<std::mutex> guard(g_world.lock);
    int c = g_world.cluster_of[t_rank];
    int members = 0;
    for (int x : g_world.cluster_of)
        members += x == c;
    unsigned generation = g_world.barrier_generation[c];
    if (++g_world.barrier_arrived[c] == members) {
        g_world.barrier_arrived[c] = 0;
        g_world.barrier_generation[c]++;
        g_world.changed.notify_all();
        return;
    }
    while (g_world.barrier_generation[c] == generation)
        g_world.changed.wait(guard);
}

}  // namespace mputil
