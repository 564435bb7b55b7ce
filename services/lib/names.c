/* Name client and Local Name Daemon, linked into every program. A name's node comes from
 * the Name Server; its port from the daemon of that node (started on a cluster when its
 * first name is linked there). Answers are cached per cluster. */
#include <nvx/names.h>

#include <errno.h>
#include <string.h>
#include <nvx/clock.h>
#include <nvx/ikc.h>
#include <nvx/thread.h>
#include "protocol.h"

#define LOCAL_NAMES 32
#define CACHE_ENTRIES 16
#define MAX_NODES 64
/* The daemon's frame is a request, a reply and reply_to[MAX_NODES]; no stdio: 8 KiB leave
 * room, where the default 16 KiB cost every cluster that links a name (LWMPI's) 8 more. */
#define DAEMON_STACK (8u * 1024)

struct local_name {
    int used;
    char name[NVX_NAME_MAX + 1];
    unsigned port;
};

struct cached_name {
    int used;
    char name[NVX_NAME_MAX + 1];
    unsigned node, port;
    uint64_t last_use;
};

static nvx_mutex_t g_request_lock = NVX_MUTEX_INITIALIZER;  /* one request in flight per cluster */
static nvx_mutex_t g_table_lock = NVX_MUTEX_INITIALIZER;    /* local names, cache, counters */
static struct local_name g_local[LOCAL_NAMES];
static struct cached_name g_cache[CACHE_ENTRIES];
static struct nvx_name_stats g_stats;
static uint64_t g_clock;
static uint32_t g_seq;
static long g_reply = -1, g_server = -1;
static long g_daemon_out[MAX_NODES];  /* to other nodes' daemons (+1; 0 = not open) */
static int g_daemon_running;

static int check_name(const char *name)
{
    if (name == 0) return -EINVAL;
    size_t n = strnlen(name, NVX_NAME_MAX + 1);
    if (n == 0) return -EINVAL;
    return n > NVX_NAME_MAX ? -ENAMETOOLONG : 0;
}

static struct local_name *local_find(const char *name)
{
    for (int i = 0; i < LOCAL_NAMES; i++)
        if (g_local[i].used && strcmp(g_local[i].name, name) == 0) return &g_local[i];
    return 0;
}

/* The daemon: answers RESOLVE from other clusters with the port of a local name. The
 * answer goes to the node the NoC stamped on the request, never to one its body names, and
 * never waits for an asker that does not read it (it is dropped and counted). */
static void *daemon_main(void *unused)
{
    (void)unused;
    struct nvx_info info;
    nvx_sys_info(&info);
    long box = nvx_mailbox_create(info.node, NVX_NAME_DAEMON_PORT);
    long reply_to[MAX_NODES] = {0};
    if (box < 0) return 0;
    nvx_clock_server();  /* each request at its own virtual time, whatever the host's order */
    for (;;) {
        struct nvx_name_request req;
        struct nvx_mailbox_origin from;
        memset(&req, 0, sizeof req);
        if (nvx_mailbox_read_from(box, &req, sizeof req, &from) <= 0 || from.node >= MAX_NODES) continue;
        req.name[NVX_NAME_MAX] = '\0';
        struct nvx_name_reply rep = {req.seq, -ENOENT, info.node, 0};
        nvx_mutex_lock(&g_table_lock);
        struct local_name *n = req.op == NVX_NAME_RESOLVE ? local_find(req.name) : 0;
        if (n) {
            rep.status = 0;
            rep.port = n->port;
        }
        g_stats.served++;
        nvx_mutex_unlock(&g_table_lock);
        if (reply_to[from.node] == 0) {
            long out = nvx_mailbox_open(from.node, NVX_NAME_REPLY_PORT);
            if (out < 0) continue;
            reply_to[from.node] = out + 1;
        }
        if (nvx_mailbox_try_write(reply_to[from.node] - 1, &rep, sizeof rep) != sizeof rep) {
            nvx_mutex_lock(&g_table_lock);
            g_stats.undelivered++;
            nvx_mutex_unlock(&g_table_lock);
        }
    }
}

/* Sends `req` to (node, port) and waits for the answer; g_request_lock is held. */
static int ask(long out, struct nvx_name_request *req, struct nvx_name_reply *rep)
{
    struct nvx_info info;
    nvx_sys_info(&info);
    if (g_reply < 0) {
        g_reply = nvx_mailbox_create(info.node, NVX_NAME_REPLY_PORT);
        if (g_reply < 0) return (int)g_reply;
    }
    req->reply_node = (uint16_t)info.node;
    req->seq = ++g_seq;
    long err = nvx_mailbox_write(out, req, sizeof *req);
    if (err < 0) return (int)err;
    do {
        err = nvx_mailbox_read(g_reply, rep, sizeof *rep);
        if (err < 0) return (int)err;
    } while (rep->seq != req->seq);  /* an answer to an abandoned request: drop it */
    return 0;
}

static long server_box(void)
{
    if (g_server < 0) g_server = nvx_mailbox_open((unsigned)nvx_node_of(0, 0), NVX_NAME_SERVER_PORT);
    return g_server;
}

static int name_server_call(int op, const char *name, struct nvx_name_reply *rep)
{
    struct nvx_name_request req;
    memset(&req, 0, sizeof req);
    req.op = (uint16_t)op;
    strcpy(req.name, name);
    long out = server_box();
    if (out < 0) return (int)out;
    int err = ask(out, &req, rep);
    return err != 0 ? err : rep->status;
}

int nvx_name_link(const char *name, unsigned port)
{
    int err = check_name(name);
    if (err != 0) return err;
    if (port >= NVX_IKC_PORTS) return -EINVAL;
    nvx_mutex_lock(&g_request_lock);
    struct local_name *slot = 0;
    nvx_mutex_lock(&g_table_lock);
    for (int i = 0; i < LOCAL_NAMES && !slot; i++)
        if (!g_local[i].used) slot = &g_local[i];
    if (slot) {  /* reserve it before the Name Server knows the name: a lookup may follow at once */
        slot->used = 1;
        strcpy(slot->name, name);
        slot->port = port;
    }
    nvx_mutex_unlock(&g_table_lock);
    if (!slot) err = -ENOSPC;
    if (err == 0 && !g_daemon_running) {
        nvx_thread_t daemon;
        nvx_thread_attr_t attr = {DAEMON_STACK, NVX_THREAD_ANY_HART};
        err = -nvx_thread_create(&daemon, &attr, daemon_main, 0);
        g_daemon_running = err == 0;
    }
    struct nvx_name_reply rep;
    if (err == 0) err = name_server_call(NVX_NAME_LINK, name, &rep);
    if (err != 0 && slot) {
        nvx_mutex_lock(&g_table_lock);
        slot->used = 0;
        nvx_mutex_unlock(&g_table_lock);
    }
    nvx_mutex_unlock(&g_request_lock);
    return err;
}

int nvx_name_unlink(const char *name)
{
    int err = check_name(name);
    if (err != 0) return err;
    nvx_mutex_lock(&g_request_lock);
    struct nvx_name_reply rep;
    err = name_server_call(NVX_NAME_UNLINK, name, &rep);
    nvx_mutex_lock(&g_table_lock);
    struct local_name *n = local_find(name);
    if (err == 0 && n) n->used = 0;
    for (int i = 0; i < CACHE_ENTRIES; i++)
        if (g_cache[i].used && strcmp(g_cache[i].name, name) == 0) g_cache[i].used = 0;
    nvx_mutex_unlock(&g_table_lock);
    nvx_mutex_unlock(&g_request_lock);
    return err;
}

static int cache_lookup(const char *name, unsigned *node, unsigned *port)
{
    for (int i = 0; i < CACHE_ENTRIES; i++) {
        struct cached_name *c = &g_cache[i];
        if (!c->used || strcmp(c->name, name) != 0) continue;
        *node = c->node;
        *port = c->port;
        c->last_use = ++g_clock;
        return 1;
    }
    return 0;
}

static void cache_store(const char *name, unsigned node, unsigned port)
{
    struct cached_name *victim = &g_cache[0];
    for (int i = 0; i < CACHE_ENTRIES; i++) {
        if (!g_cache[i].used) { victim = &g_cache[i]; break; }
        if (g_cache[i].last_use < victim->last_use) victim = &g_cache[i];
    }
    victim->used = 1;
    strcpy(victim->name, name);
    victim->node = node;
    victim->port = port;
    victim->last_use = ++g_clock;
}

int nvx_name_lookup(const char *name, unsigned *node, unsigned *port)
{
    int err = check_name(name);
    if (err != 0) return err;
    if (node == 0 || port == 0) return -EINVAL;
    nvx_mutex_lock(&g_table_lock);
    int hit = cache_lookup(name, node, port);
    if (hit) g_stats.hits++;
    else g_stats.misses++;
    nvx_mutex_unlock(&g_table_lock);
    if (hit) return 0;

    nvx_mutex_lock(&g_request_lock);
    struct nvx_name_reply rep;
    struct nvx_info info;
    nvx_sys_info(&info);
    err = name_server_call(NVX_NAME_LOOKUP, name, &rep);
    unsigned where = rep.node;
    if (err == 0 && where == info.node) {  /* ours: the local table has the port */
        nvx_mutex_lock(&g_table_lock);
        struct local_name *n = local_find(name);
        err = n ? 0 : -ENOENT;
        rep.port = n ? n->port : 0;
        nvx_mutex_unlock(&g_table_lock);
    } else if (err == 0) {
        if (where >= MAX_NODES) err = -EINVAL;
        else if (g_daemon_out[where] == 0) {
            long out = nvx_mailbox_open(where, NVX_NAME_DAEMON_PORT);
            if (out < 0) err = (int)out;
            else g_daemon_out[where] = out + 1;
        }
        if (err == 0) {
            struct nvx_name_request req;
            memset(&req, 0, sizeof req);
            req.op = NVX_NAME_RESOLVE;
            strcpy(req.name, name);
            err = ask(g_daemon_out[where] - 1, &req, &rep);
            if (err == 0) err = rep.status;
        }
    }
    if (err == 0) {
        *node = where;
        *port = rep.port;
        nvx_mutex_lock(&g_table_lock);
        cache_store(name, where, rep.port);
        nvx_mutex_unlock(&g_table_lock);
    }
    nvx_mutex_unlock(&g_request_lock);
    return err;
}

int nvx_name_stats(struct nvx_name_stats *stats)
{
    if (stats == 0) return -EINVAL;
    nvx_mutex_lock(&g_table_lock);
    *stats = g_stats;
    nvx_mutex_unlock(&g_table_lock);
    return 0;
}

void nvx_name_cache_flush(void)
{
    nvx_mutex_lock(&g_table_lock);
    memset(g_cache, 0, sizeof g_cache);
    nvx_mutex_unlock(&g_table_lock);
}
